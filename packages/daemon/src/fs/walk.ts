import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { timeSlicer } from './time-slice.ts';

/**
 * The one directory walker. Everything that lists a tree (the file explorer, CacheBot's source hash,
 * build moves, the output checks, ZIP downloads) walks it here, with the same rules:
 *
 * - each folder's entries in name order (UTF-16 code units, like `Array.prototype.sort`), so output
 *   is deterministic;
 * - symbolic links are reported, never followed: a link to `/` or a link loop cannot drag a walk
 *   outside the tree or make it endless; sockets, FIFOs and devices are skipped;
 * - a root or folder that is missing (or vanished meanwhile) is empty, not an error.
 *
 * The API is async but the file system calls are synchronous, in time slices with a turn of the
 * event loop between them (time-slice.ts): per-entry async calls cost 3–4× as much on these machines
 * (PERFORMANCE.md), and the slices keep the daemon answering while a big tree is walked.
 */

export type EntryKind = 'file' | 'dir' | 'link';

/** One entry found by a walk. */
export interface WalkEntry {
  /** Its own name (the last segment). */
  name: string;
  /** Path relative to the walked root, with forward slashes. */
  rel: string;
  abs: string;
  kind: EntryKind;
  /** Files only, when the walk was asked to `stat` (from lstat). */
  size?: number;
  mtimeMs?: number;
  mode?: number;
}

/** A regular file found by `walkFiles`. */
export type WalkedFile = WalkEntry;
/** A symbolic link found (never followed) by `walkFiles`. */
export type WalkedLink = Pick<WalkEntry, 'rel' | 'abs'>;

export interface WalkOptions {
  /** Return true to leave an entry out, or a folder with everything below it. Links get `isDir` false. */
  exclude?: (relPath: string, isDir: boolean) => boolean;
  /** lstat every file for size, mtime and mode (one more call per file); files gone meanwhile are left out. */
  stat?: boolean;
  /** Stop after this many entries (every entry read counts, excluded ones too); `truncated` then says so. */
  maxEntries?: number;
}

/** A depth-first walk: iterate it once; `truncated` is final once the iteration ends. */
export interface Walk extends AsyncIterable<WalkEntry> {
  /** True when `maxEntries` cut the walk short. */
  readonly truncated: boolean;
}

export interface WalkResult {
  files: WalkedFile[];
  links: WalkedLink[];
  /** True when `maxEntries` cut the walk short. */
  truncated: boolean;
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const kindOf = (entry: Dirent): EntryKind | null =>
  entry.isFile() ? 'file' : entry.isDirectory() ? 'dir' : entry.isSymbolicLink() ? 'link' : null;

const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/**
 * The entries of one folder, sorted by name, or null when it is not there (any more) or is not a
 * folder. Other errors are thrown unless `tolerant` (then the folder reads as absent too).
 */
function readSorted(abs: string, tolerant: boolean): Dirent[] | null {
  try {
    return readdirSync(abs, { withFileTypes: true }).sort(byName);
  } catch (error) {
    const code = errorCode(error);
    if (tolerant || code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

const entryOf = (dirent: Dirent, kind: EntryKind, dirAbs: string, dirRel: string): WalkEntry => ({
  name: dirent.name,
  rel: dirRel === '' ? dirent.name : `${dirRel}/${dirent.name}`,
  // Concatenation, not path.join: this runs once per entry and join normalises for nothing here.
  abs: dirAbs.endsWith(path.sep) ? `${dirAbs}${dirent.name}` : `${dirAbs}${path.sep}${dirent.name}`,
  kind,
});

/**
 * Walks `root` depth first, pre-order: a folder is yielded, then everything below it, then its next
 * sibling. Excluded folders are neither yielded nor entered.
 */
export function walk(root: string, options: WalkOptions = {}): Walk {
  const { exclude, stat = false, maxEntries = Number.POSITIVE_INFINITY } = options;
  const state = { truncated: false };
  const rootAbs = path.resolve(root);

  async function* entries(): AsyncGenerator<WalkEntry> {
    const slicer = timeSlicer();
    const first = readSorted(rootAbs, false);
    if (first === null) return;
    // One frame per open folder: no recursion (no nested generators) however deep the tree.
    const stack: Array<{ dirents: Dirent[]; index: number; abs: string; rel: string }> = [
      { dirents: first, index: 0, abs: rootAbs, rel: '' },
    ];
    let seen = 0;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.index >= frame.dirents.length) {
        stack.pop();
        continue;
      }
      const dirent = frame.dirents[frame.index++]!;
      if (seen >= maxEntries) {
        state.truncated = true;
        return;
      }
      seen += 1;
      const kind = kindOf(dirent);
      if (kind === null) continue;
      const entry = entryOf(dirent, kind, frame.abs, frame.rel);
      if (exclude?.(entry.rel, kind === 'dir')) continue;
      if (kind === 'file' && stat) {
        const info = lstatSync(entry.abs, { throwIfNoEntry: false });
        // Deleted (or replaced by something else) between readdir and lstat: it is not there.
        if (!info?.isFile()) continue;
        entry.size = info.size;
        entry.mtimeMs = info.mtimeMs;
        entry.mode = info.mode;
      }
      yield entry;
      if (kind === 'dir') {
        const dirents = readSorted(entry.abs, false);
        if (dirents !== null) stack.push({ dirents, index: 0, abs: entry.abs, rel: entry.rel });
      }
      if (slicer.due()) await slicer.pause();
    }
  }

  return {
    get truncated() {
      return state.truncated;
    },
    [Symbol.asyncIterator]: () => entries(),
  };
}

/**
 * The regular files below `root` (in walk order: each folder's files and subfolders by name) and the
 * links found on the way, never followed.
 */
export async function walkFiles(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const files: WalkedFile[] = [];
  const links: WalkedLink[] = [];
  const walker = walk(root, options);
  for await (const entry of walker) {
    if (entry.kind === 'file') files.push(entry);
    else if (entry.kind === 'link') links.push({ rel: entry.rel, abs: entry.abs });
  }
  return { files, links, truncated: walker.truncated };
}

/**
 * Project-relative paths (forward slashes) of every regular file below `dir`, sorted as strings;
 * links are not followed nor listed. `skip` prunes files and whole folders. A missing `dir` gives [].
 * (The async drop-in for the build engine's `listFilesRel`.)
 */
export async function listFiles(
  dir: string,
  skip: (rel: string, isDir: boolean) => boolean = () => false,
): Promise<string[]> {
  const { files } = await walkFiles(dir, { exclude: skip });
  return files.map((file) => file.rel).sort();
}

/** One folder listed by `walkLevels`: its entries sorted by name, and the caller's tag for it. */
export interface Level<T> {
  rel: string;
  abs: string;
  tag: T;
  entries: WalkEntry[];
}

/** A breadth-first walk that the caller steers: it lists only the folders the caller `enter`s. */
export interface LevelWalk<T> extends AsyncIterable<Level<T>> {
  /** List `folder` (an entry of a level already yielded) after the folders entered before it. */
  enter(folder: WalkEntry, tag: T): void;
  /** Stop the walk; answers the tags of the folders entered but not listed yet, in order. */
  drain(): T[];
}

/**
 * Walks `root` breadth first, level by level: the root's listing first (tagged `rootTag`), then each
 * folder the caller `enter`s, in the order entered. For walks that must stay whole near the top when
 * they stop early (the file tree's node cap). A folder that cannot be read is skipped.
 */
export function walkLevels<T>(root: string, rootTag: T): LevelWalk<T> {
  const queue: Array<{ rel: string; abs: string; tag: T }> = [
    { rel: '', abs: path.resolve(root), tag: rootTag },
  ];
  let next = 0;

  async function* levels(): AsyncGenerator<Level<T>> {
    const slicer = timeSlicer();
    while (next < queue.length) {
      const folder = queue[next++]!;
      const dirents = readSorted(folder.abs, true);
      if (dirents === null) continue;
      const entries: WalkEntry[] = [];
      for (const dirent of dirents) {
        const kind = kindOf(dirent);
        if (kind !== null) entries.push(entryOf(dirent, kind, folder.abs, folder.rel));
      }
      yield { ...folder, entries };
      if (slicer.due()) await slicer.pause();
    }
  }

  return {
    enter(folder, tag) {
      queue.push({ rel: folder.rel, abs: folder.abs, tag });
    },
    drain() {
      const rest = queue.slice(next).map((folder) => folder.tag);
      next = queue.length;
      return rest;
    },
    [Symbol.asyncIterator]: () => levels(),
  };
}
