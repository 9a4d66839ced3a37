import fs from 'node:fs';
import path from 'node:path';
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import type { FileNode, ServerMessage } from '@forge/shared';
import { realWithinSync, relativeWithin } from '../../fs/contain.ts';
import type { Logger } from '../../logging/logger.ts';
import { decodeText } from './text-file.ts';
import { FOLDED_NAMES } from './tree.ts';

/** Changes closer together than this are one burst: one tree push. */
export const WATCH_DEBOUNCE_MS = 100;
/** A burst that never goes quiet (a long copy) still pushes at least this often. */
export const WATCH_MAX_WAIT_MS = 1_000;
/** Changed text files up to this size are pushed whole as `file-content-updated`. */
export const PUSH_CONTENT_MAX_BYTES = 512 * 1024;
/** At most this many file contents are pushed per burst (a mass change is a tree push, not a flood). */
const MAX_CONTENT_PUSHES = 20;
/** Projects watched at once; the least recently used one stops being watched beyond it. */
export const MAX_WATCHED_PROJECTS = 8;

export interface WatchBotDeps {
  projectsDir: string;
  projectDir(name: string): string;
  /** The project's build output folder (project-relative), ignored like node_modules; null if none. */
  outputDir(name: string): string | null;
  /** The project's current file tree, as GET /api/files/structure answers it. */
  tree(name: string): Promise<FileNode[]>;
  broadcast(message: ServerMessage): void;
  logger: Logger;
  /**
   * After each burst: the project-relative paths that were added, changed or removed, and when the
   * last of those changes was seen (a burst is reported up to WATCH_MAX_WAIT_MS later).
   */
  onChange?(name: string, paths: string[], lastChangeAt: number): void;
  debounceMs?: number;
  maxWaitMs?: number;
  maxProjects?: number;
}

interface Watched {
  name: string;
  root: string;
  /** Inode of the root when its watcher started: a different one means the folder was replaced. */
  ino: number | null;
  watcher: FSWatcher | null;
  ready: Promise<void>;
  outputDir: string | null;
  changed: Set<string>;
  removed: Set<string>;
  timer: NodeJS.Timeout | null;
  /** The flush in progress: flushes run one after another, so trees are pushed in order. */
  flushing: Promise<void>;
  burstStart: number;
  lastEventAt: number;
  lastUsed: number;
}

/** Forward-slash path of `p` inside `root`, or null when it is the root itself or outside it. */
const relInside = (root: string, p: string): string | null => relativeWithin(root, p) || null;

const inoOf = (dir: string): number | null => {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  return stat?.isDirectory() ? stat.ino : null;
};

/** Is this project-relative path one the watcher (and auto-forge) ignores? */
export function isIgnoredPath(rel: string, outputDir: string | null): boolean {
  if (rel === '') return false;
  if (outputDir && (rel === outputDir || rel.startsWith(`${outputDir}/`))) return true;
  return rel.split('/').some((segment) => FOLDED_NAMES.has(segment));
}

/**
 * WatchBot: watches the projects clients look at and pushes `project-files-updated` (the new tree)
 * once per burst of changes, plus `file-content-updated` for changed text files, whoever changed
 * them (the editor, another tool, a build). Installs, history and the build output are ignored.
 *
 * A new upload replaces a project folder by rename; chokidar would keep watching the old folder,
 * so the projects folder itself is watched too and a replaced root gets a new watcher.
 */
export function createWatchBot(deps: WatchBotDeps) {
  const { logger } = deps;
  const debounceMs = deps.debounceMs ?? WATCH_DEBOUNCE_MS;
  const maxWaitMs = deps.maxWaitMs ?? WATCH_MAX_WAIT_MS;
  const maxProjects = deps.maxProjects ?? MAX_WATCHED_PROJECTS;
  const watched = new Map<string, Watched>();
  let parentWatcher: fs.FSWatcher | null = null;
  let closed = false;

  function watchProjectsDir(): void {
    if (parentWatcher || closed) return;
    try {
      fs.mkdirSync(deps.projectsDir, { recursive: true });
      parentWatcher = fs.watch(deps.projectsDir, { persistent: false }, (_event, filename) => {
        const state = filename ? watched.get(filename.toString()) : undefined;
        if (state) checkRoot(state);
      });
      parentWatcher.on('error', (err) => logger.warn({ err }, 'WatchBot lost the projects folder watch'));
    } catch (err) {
      logger.warn({ err }, 'WatchBot cannot watch the projects folder');
    }
  }

  function startWatcher(state: Watched): void {
    state.ino = inoOf(state.root);
    state.outputDir = deps.outputDir(state.name);
    if (state.ino === null) {
      state.watcher = null;
      state.ready = Promise.resolve();
      return;
    }
    const root = state.root;
    const watcher = chokidarWatch(root, {
      ignoreInitial: true,
      followSymlinks: false,
      awaitWriteFinish: false,
      ignored: (p: string) => {
        const rel = relInside(root, p);
        return rel !== null && isIgnoredPath(rel, state.outputDir);
      },
    });
    state.watcher = watcher;
    state.ready = new Promise((resolve) => {
      watcher.once('ready', () => resolve());
      watcher.once('error', () => resolve());
    });
    watcher.on('all', (event, p) => {
      if (state.watcher !== watcher) return; // a replaced root's old watcher, closing
      const rel = relInside(root, p);
      if (rel === null) return;
      if (event === 'unlink' || event === 'unlinkDir') {
        state.removed.add(rel);
        state.changed.delete(rel);
      } else {
        state.changed.add(rel);
        state.removed.delete(rel);
      }
      state.lastEventAt = Date.now();
      schedule(state);
    });
    watcher.on('error', (err) => logger.warn({ err, project: state.name }, 'WatchBot watcher error'));
  }

  function stopWatcher(state: Watched): void {
    const watcher = state.watcher;
    state.watcher = null;
    if (watcher) void watcher.close().catch(() => {});
  }

  /** The root folder was replaced (a new upload) or removed: watch what is there now, push the tree. */
  function checkRoot(state: Watched): void {
    if (closed || inoOf(state.root) === state.ino) return;
    stopWatcher(state);
    startWatcher(state);
    logger.debug(
      { project: state.name, present: state.ino !== null },
      'WatchBot re-watches a replaced project',
    );
    schedule(state);
  }

  function schedule(state: Watched): void {
    const now = Date.now();
    if (state.timer) clearTimeout(state.timer);
    else state.burstStart = now;
    const wait = Math.max(0, Math.min(debounceMs, state.burstStart + maxWaitMs - now));
    state.timer = setTimeout(() => {
      state.timer = null;
      state.flushing = state.flushing
        .then(() => flush(state))
        .catch((err: unknown) =>
          logger.warn({ err, project: state.name }, 'WatchBot could not push a change'),
        );
    }, wait);
  }

  async function flush(state: Watched): Promise<void> {
    const current = () => !closed && watched.get(state.name) === state;
    if (!current()) return;
    const changed = [...state.changed];
    const removed = [...state.removed];
    state.changed.clear();
    state.removed.clear();
    state.outputDir = deps.outputDir(state.name);
    let tree: FileNode[] = [];
    try {
      if (state.ino !== null) tree = await deps.tree(state.name);
    } catch (err) {
      logger.debug({ err, project: state.name }, 'WatchBot could not list the project');
    }
    // Unwatched or closed while the tree was read: nobody is to be told any more.
    if (!current()) return;
    const timestamp = new Date().toISOString();
    deps.broadcast({
      type: 'project-files-updated',
      fileStructure: tree,
      projectName: state.name,
      timestamp,
    });
    let pushed = 0;
    for (const rel of changed) {
      if (pushed >= MAX_CONTENT_PUSHES) break;
      const content = readPushable(state.root, rel);
      if (content === null) continue;
      deps.broadcast({
        type: 'file-content-updated',
        filePath: rel,
        content,
        projectName: state.name,
        timestamp,
      });
      pushed++;
    }
    const paths = [...changed, ...removed];
    if (paths.length) deps.onChange?.(state.name, paths, state.lastEventAt);
  }

  function evict(): void {
    while (watched.size > maxProjects) {
      const oldest = [...watched.values()].sort((a, b) => a.lastUsed - b.lastUsed)[0]!;
      unwatch(oldest.name);
    }
  }

  function unwatch(name: string): void {
    const state = watched.get(name);
    if (!state) return;
    watched.delete(name);
    if (state.timer) clearTimeout(state.timer);
    stopWatcher(state);
  }

  return {
    /** Keep `name` watched (starting now if it was not); cheap enough to call on every request. */
    watch(name: string): void {
      if (closed) return;
      const existing = watched.get(name);
      if (existing) {
        existing.lastUsed = Date.now();
        checkRoot(existing);
        return;
      }
      watchProjectsDir();
      const state: Watched = {
        name,
        root: deps.projectDir(name),
        ino: null,
        watcher: null,
        ready: Promise.resolve(),
        outputDir: null,
        changed: new Set(),
        removed: new Set(),
        timer: null,
        flushing: Promise.resolve(),
        burstStart: 0,
        lastEventAt: 0,
        lastUsed: Date.now(),
      };
      watched.set(name, state);
      startWatcher(state);
      evict();
    },
    /** Resolves once `name`'s watcher has its initial scan done (changes after that are seen). */
    async ready(name: string): Promise<void> {
      const state = watched.get(name);
      if (!state) return;
      checkRoot(state);
      await state.ready;
    },
    unwatch,
    watching(): string[] {
      return [...watched.keys()];
    },
    async close(): Promise<void> {
      closed = true;
      parentWatcher?.close();
      parentWatcher = null;
      const closing = [...watched.values()].flatMap((s) => {
        if (s.timer) clearTimeout(s.timer);
        // A flush reading the tree right now finds the bot closed and pushes nothing.
        return [s.flushing, s.watcher?.close().catch(() => {})];
      });
      watched.clear();
      await Promise.all(closing);
    },
  };
}

export type WatchBot = ReturnType<typeof createWatchBot>;

/** A changed file's text for a push: a regular text file inside the project under the push limit, else null. */
function readPushable(root: string, rel: string): string | null {
  try {
    const abs = path.join(root, rel);
    const stat = fs.lstatSync(abs);
    if (!stat.isFile() || stat.size > PUSH_CONTENT_MAX_BYTES) return null;
    // A folder on the way may have become a link since the event: never push what lies outside.
    if (realWithinSync(fs.realpathSync(root), abs) === null) return null;
    return decodeText(fs.readFileSync(abs));
  } catch {
    return null; // gone again (a temporary file of an atomic write)
  }
}
