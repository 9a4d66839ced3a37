import fs from 'node:fs';
import path from 'node:path';
import type { FileStructureResponse, ServerMessage } from '@forge/shared';
import { writeFileAtomic } from '../../fs/atomic-write.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { isValidProjectName, type HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import { currentProject } from '../projects/projects.ts';
import {
  checkRelPath,
  lstatOrNull,
  projectRoot,
  resolveExisting,
  resolveLinkParent,
  resolveNew,
  type ProjectRoot,
} from '../../fs/safe-path.ts';
import { ensureStarterProject } from './starter-project.ts';
import { readTextFile } from './text-file.ts';
import { readTree } from './tree.ts';
import { createWatchBot } from './watch-bot.ts';

/** Who changed a project's files: the file API (a person in the editor) or something on disk. */
export type ChangeOrigin = 'api' | 'disk';

export interface FilesDeps {
  layout: HomeLayout;
  repo: BuildRepo;
  logger: Logger;
  broadcast: (message: ServerMessage) => void;
  /** Told about every change and when it was seen (auto-forge listens here). */
  onChange?: (project: string, paths: string[], origin: ChangeOrigin, at: number) => void;
  /** Create the "Forge" starter project when the home has no project at all. */
  starterProject?: boolean;
}

interface OpenProject {
  name: string;
  root: ProjectRoot;
}

/** What the body of POST /api/files/create parses to (either body form of docs/product.md#http-calls). */
type CreateInput =
  | { type: 'file' | 'folder'; name: string; parentPath: string; project?: string | undefined }
  | { path: string; content: string; project?: string | undefined };

const ROOT_ALIASES = new Set(['', '.', '/', './']);

/**
 * The project file API behind /api/files/*: every path is checked by safe-path.ts and resolved
 * inside the project root with links followed, so nothing outside the project is read or written.
 */
export function createFilesService(deps: FilesDeps) {
  const { layout, repo, logger } = deps;

  /**
   * The build output folder inside the project, from the last plan that had one. It is folded in the
   * tree and ignored by WatchBot, like node_modules. Only a built site has one (a plain static site's
   * output is "." — the project itself).
   */
  function outputDir(name: string): string | null {
    const planned = repo.list({ project: name, limit: 10 }).find((b) => b.blueprint)?.blueprint;
    if (planned?.kind !== 'static-build' || !planned.outputDir) return null;
    const dir = planned.outputDir.replace(/\/+$/, '');
    try {
      return checkRelPath(dir);
    } catch {
      return null; // the planner keeps it inside the project; anything else is not folded
    }
  }

  const tree = (name: string) =>
    readTree(layout.projectDir(name), { folded: new Set([outputDir(name)].filter((d) => d !== null)) });

  const watchBot = createWatchBot({
    projectsDir: layout.projectsDir,
    projectDir: layout.projectDir,
    outputDir,
    tree: async (name) => (await tree(name)).tree,
    broadcast: deps.broadcast,
    logger,
    onChange: (name, paths, at) => deps.onChange?.(name, paths, 'disk', at),
  });

  if (deps.starterProject ?? true) {
    try {
      ensureStarterProject({ layout, repo, logger });
    } catch (err) {
      logger.error({ err }, 'could not create the starter project');
    }
  }

  /** The named project, or the current one; it must exist. Starts watching it. */
  function open(project: string | undefined): OpenProject {
    const name = project ?? currentProject(repo);
    if (name === null) {
      throw new ForgeError('PROJECT_NOT_FOUND', 'There is no project yet: upload one first.');
    }
    const dir = layout.projectDir(name);
    if (!isValidProjectName(name) || !repo.project(name) || !fs.existsSync(dir)) {
      throw new ForgeError('PROJECT_NOT_FOUND', `There is no project named "${name}".`);
    }
    watchBot.watch(name);
    return { name, root: projectRoot(dir) };
  }

  const changed = (p: OpenProject, ...paths: string[]) => deps.onChange?.(p.name, paths, 'api', Date.now());

  /** Create the parent folders of `abs` (inside the project: resolveNew checked the nearest one). */
  const mkdirParents = (abs: string) => fs.mkdirSync(path.dirname(abs), { recursive: true });

  function createFile(p: OpenProject, rel: string, content: string): void {
    const target = resolveNew(p.root, rel);
    if (target.exists) throw new ForgeError('FILE_EXISTS', `"${rel}" already exists.`);
    mkdirParents(target.abs);
    try {
      // wx: never replace something that appeared in the meantime.
      fs.writeFileSync(target.abs, content, { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw new ForgeError('FILE_EXISTS', `"${rel}" already exists.`);
      // wx made it ours: a file half written (disk full) is not left behind.
      fs.rmSync(target.abs, { force: true });
      throw err;
    }
  }

  function createFolder(p: OpenProject, rel: string): void {
    const target = resolveNew(p.root, rel);
    if (target.exists) throw new ForgeError('FILE_EXISTS', `"${rel}" already exists.`);
    mkdirParents(target.abs);
    try {
      fs.mkdirSync(target.abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw new ForgeError('FILE_EXISTS', `"${rel}" already exists.`);
      throw err;
    }
  }

  return {
    watchBot,

    async structure(project: string | undefined): Promise<FileStructureResponse> {
      if (project === undefined && currentProject(repo) === null) return { projectName: '', tree: [] };
      const p = open(project);
      const result = await tree(p.name);
      return { projectName: p.name, tree: result.tree, ...(result.truncated ? { truncated: true } : {}) };
    },

    content(rawPath: string, project: string | undefined): { path: string; content: string } {
      const p = open(project);
      const rel = checkRelPath(rawPath);
      return { path: rel, content: readTextFile(resolveExisting(p.root, rel), rel) };
    },

    /** Write a file atomically (temp file + rename), keeping its mode; a missing file is created. */
    async save(rawPath: string, content: string, project: string | undefined): Promise<string> {
      const p = open(project);
      const rel = checkRelPath(rawPath);
      const target = resolveNew(p.root, rel);
      let abs = target.abs;
      let mode: number | undefined;
      if (target.exists) {
        abs = resolveExisting(p.root, rel);
        const stat = fs.statSync(abs);
        if (!stat.isFile()) throw new ForgeError('NOT_A_FILE', `"${rel}" is a folder or a special file.`);
        mode = stat.mode & 0o7777;
      } else {
        mkdirParents(abs);
      }
      await writeFileAtomic(abs, content, { mode, scratchDir: layout.tmpDir });
      changed(p, rel);
      return rel;
    },

    create(body: CreateInput): string {
      const p = open(body.project);
      let rel: string;
      if ('type' in body) {
        const parent = body.parentPath.replace(/\/+$/, '');
        const parentRel = ROOT_ALIASES.has(parent) ? '' : checkRelPath(parent);
        const nameRel = checkRelPath(body.name.trim());
        rel = parentRel ? `${parentRel}/${nameRel}` : nameRel;
        if (body.type === 'folder') createFolder(p, rel);
        else createFile(p, rel, '');
      } else {
        rel = checkRelPath(body.path.trim());
        createFile(p, rel, body.content);
      }
      changed(p, rel);
      return rel;
    },

    /** Delete a file, a link (never what it points to) or a folder with everything in it. */
    remove(rawPath: string, project: string | undefined): string {
      const p = open(project);
      if (ROOT_ALIASES.has(rawPath)) throw new ForgeError('CANNOT_DELETE_ROOT');
      const rel = checkRelPath(rawPath);
      const entry = resolveLinkParent(p.root, rel);
      const stat = lstatOrNull(entry);
      if (!stat)
        throw new ForgeError('FILE_NOT_FOUND', `There is no file or folder "${rel}" in the project.`);
      // fs.rm never follows links, at the top or inside the folder.
      if (stat.isDirectory()) fs.rmSync(entry, { recursive: true });
      else fs.unlinkSync(entry);
      changed(p, rel);
      return rel;
    },

    /** Move a file or folder inside the project; never over something that exists. */
    rename(rawFrom: string, rawTo: string, project: string | undefined): string {
      const p = open(project);
      if (ROOT_ALIASES.has(rawFrom))
        throw new ForgeError('PATH_INVALID', 'The project folder itself cannot be moved.');
      const from = checkRelPath(rawFrom);
      const to = checkRelPath(rawTo);
      const source = resolveLinkParent(p.root, from);
      if (!lstatOrNull(source))
        throw new ForgeError('FILE_NOT_FOUND', `There is no file or folder "${from}" in the project.`);
      if (from === to) return to;
      const target = resolveNew(p.root, to);
      if (target.exists) throw new ForgeError('FILE_EXISTS', `"${to}" already exists.`);
      if (to.startsWith(`${from}/`)) {
        throw new ForgeError('PATH_INVALID', `"${from}" cannot be moved into itself ("${to}").`);
      }
      mkdirParents(target.abs);
      try {
        fs.renameSync(source, target.abs);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // A folder moved into itself through a link, or something that appeared in the meantime.
        if (code === 'EINVAL') throw new ForgeError('PATH_INVALID', `"${from}" cannot be moved into itself.`);
        if (code === 'EEXIST' || code === 'ENOTEMPTY')
          throw new ForgeError('FILE_EXISTS', `"${to}" already exists.`);
        throw err;
      }
      changed(p, from, to);
      return to;
    },

    close: () => watchBot.close(),
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
