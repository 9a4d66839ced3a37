import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MB } from '@forge/shared';
import { isWithin } from '../../fs/contain.ts';

/** No file is read past this: detection only needs the head of a config, and uploads are untrusted. */
export const MAX_READ_BYTES = 1 * MB;

/** What a bounded read returns. */
export interface FileText {
  text: string;
  /** The file was larger than the cap and only its head was read. */
  truncated: boolean;
  /** The file's full size in bytes. */
  size: number;
}

/** A file detection refused to read, so the plan can say why it was not used. */
export interface SkippedFile {
  file: string;
  reason: string;
}

/**
 * Read-only view of an extracted project that never leaves it: every path is resolved after following
 * links and must still be inside the project's real root; only regular files are read, and at most
 * `maxBytes` of each. Results are cached, since detection asks about the same few files repeatedly.
 */
export interface ProjectFiles {
  readonly root: string;
  /** A regular file inside the project (links are followed only while they stay inside). */
  isFile(rel: string): Promise<boolean>;
  /** The first of `rels` that is a file, in order. */
  firstFile(rels: readonly string[]): Promise<string | null>;
  /** UTF-8 text of a file (BOM stripped), or null when it is absent, not a file, or outside. */
  read(rel: string, maxBytes?: number): Promise<FileText | null>;
  /**
   * Names of the folders directly inside `rel` ("." for the root), sorted: real folders only (a linked
   * folder is not listed, so a scan can neither leave the project nor loop), without dot-folders and
   * node_modules. [] when `rel` is not a folder inside the project.
   */
  listDirs(rel: string): Promise<string[]>;
  /**
   * Names of the regular files directly inside `rel` ("." for the root), sorted, at most
   * MAX_LISTED_DIRS of them (links are not listed). [] when `rel` is not a folder inside the project.
   */
  listFiles(rel: string): Promise<string[]>;
  /** Files that exist but were not followed (links out of the project). */
  readonly skipped: readonly SkippedFile[];
  /** For one folder of a project (projectFolder): the whole project, and this folder's path in it. */
  readonly parent?: { files: ProjectFiles; dir: string };
}

/** At most this many folders are listed from one folder: detection looks for apps, not at every file. */
export const MAX_LISTED_DIRS = 200;

/** Callers pass fixed or normalised relative names; anything else is a bug, never project input. */
function checkRelative(rel: string): void {
  if (path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) {
    throw new Error(`Detection may only read project-relative paths, got "${rel}"`);
  }
}

const isListedDir = (e: Dirent): boolean =>
  e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules';
const isListedFile = (e: Dirent): boolean => e.isFile();

const errCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

/** Open the project folder for detection. Throws when the folder itself does not exist. */
export async function openProject(projectDir: string): Promise<ProjectFiles> {
  const realRoot = await fs.realpath(projectDir);
  const rootStat = await fs.stat(realRoot);
  if (!rootStat.isDirectory()) throw new Error(`Project folder is not a directory: ${projectDir}`);

  const skipped: SkippedFile[] = [];
  const resolved = new Map<string, Promise<{ real: string; size: number } | null>>();

  const resolveFile = (rel: string): Promise<{ real: string; size: number } | null> => {
    let pending = resolved.get(rel);
    if (!pending) {
      pending = (async () => {
        checkRelative(rel);
        let real: string;
        try {
          real = await fs.realpath(path.join(realRoot, rel));
        } catch (err) {
          const code = errCode(err);
          if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'EACCES') return null;
          throw err;
        }
        if (!isWithin(realRoot, real)) {
          skipped.push({
            file: rel,
            reason: 'it is a link to a place outside the project, which is not followed',
          });
          return null;
        }
        // stat before open: opening a FIFO or device would block or read forever.
        const st = await fs.stat(real).catch(() => null);
        return st?.isFile() ? { real, size: st.size } : null;
      })();
      resolved.set(rel, pending);
    }
    return pending;
  };

  const read = async (rel: string, maxBytes = MAX_READ_BYTES): Promise<FileText | null> => {
    const file = await resolveFile(rel);
    if (!file) return null;
    const handle = await fs.open(file.real, 'r');
    try {
      const want = Math.min(file.size, maxBytes);
      const buffer = Buffer.alloc(want);
      let filled = 0;
      while (filled < want) {
        const { bytesRead } = await handle.read(buffer, filled, want - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      const text = buffer
        .subarray(0, filled)
        .toString('utf8')
        .replace(/^\uFEFF/, '');
      return { text, truncated: file.size > maxBytes, size: file.size };
    } finally {
      await handle.close();
    }
  };

  const listed = new Map<string, Promise<string[]>>();
  const listEntries = (rel: string, keep: (entry: Dirent) => boolean): Promise<string[]> => {
    const key = `${keep === isListedDir ? 'd' : 'f'}:${rel}`;
    let pending = listed.get(key);
    if (!pending) {
      pending = (async () => {
        checkRelative(rel);
        let real: string;
        try {
          real = await fs.realpath(path.join(realRoot, rel));
        } catch {
          return [];
        }
        if (!isWithin(realRoot, real)) return [];
        const entries = await fs.readdir(real, { withFileTypes: true }).catch(() => []);
        return entries
          .filter(keep)
          .map((e) => e.name)
          .sort()
          .slice(0, MAX_LISTED_DIRS);
      })();
      listed.set(key, pending);
    }
    return pending;
  };

  return {
    root: realRoot,
    skipped,
    listDirs: (rel) => listEntries(rel, isListedDir),
    listFiles: (rel) => listEntries(rel, isListedFile),
    isFile: async (rel) => (await resolveFile(rel)) !== null,
    firstFile: async (rels) => {
      for (const rel of rels) if (await resolveFile(rel)) return rel;
      return null;
    },
    read,
  };
}

/**
 * The same project seen from one of its folders (`apps/web`): paths are relative to that folder, and
 * containment, caching and the read cap are the project's, so a link from the folder to elsewhere in
 * the project is followed and one out of the project is not.
 */
export function projectFolder(files: ProjectFiles, dir: string): ProjectFiles {
  if (dir === '.') return files;
  const inDir = (rel: string): string => {
    checkRelative(rel);
    return rel === '.' ? dir : path.posix.join(dir, rel);
  };
  const prefix = `${dir}/`;
  return {
    root: path.join(files.root, dir),
    parent: { files, dir },
    isFile: async (rel) => files.isFile(inDir(rel)),
    firstFile: async (rels) => {
      for (const rel of rels) if (await files.isFile(inDir(rel))) return rel;
      return null;
    },
    read: async (rel, maxBytes) => files.read(inDir(rel), maxBytes),
    listDirs: async (rel) => files.listDirs(inDir(rel)),
    listFiles: async (rel) => files.listFiles(inDir(rel)),
    get skipped() {
      return files.skipped
        .filter((s) => s.file.startsWith(prefix))
        .map((s) => ({ ...s, file: s.file.slice(prefix.length) }));
    },
  };
}
