import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** A regular file found by `walkFiles`. */
export interface WalkedFile {
  /** Path relative to the walked root, with forward slashes. */
  rel: string;
  abs: string;
  /** Present when the walk was asked to `stat`. */
  size?: number;
  mtimeMs?: number;
  mode?: number;
}

/** A symbolic link found (never followed) by `walkFiles`. */
export interface WalkedLink {
  rel: string;
  abs: string;
}

export interface WalkOptions {
  /** Return true to leave a file out, or a directory with everything below it. */
  exclude?: (relPath: string, isDir: boolean) => boolean;
  /** lstat every file for size, mtime and mode (costs one syscall per file). */
  stat?: boolean;
  /** Stop after this many entries (files + links + directories); `truncated` then says so. */
  maxEntries?: number;
}

export interface WalkResult {
  files: WalkedFile[];
  links: WalkedLink[];
  /** True when `maxEntries` cut the walk short. */
  truncated: boolean;
}

/** lstat calls in flight at once: enough to keep the thread pool busy without queueing thousands. */
const STAT_BATCH = 128;

/** lstat()s `batch` (a few at a time) into `into`, in order; files gone meanwhile are dropped. */
async function statInto(batch: WalkedFile[], into: WalkedFile[]): Promise<void> {
  for (let i = 0; i < batch.length; i += STAT_BATCH) {
    const slice = batch.slice(i, i + STAT_BATCH);
    const stats = await Promise.all(
      slice.map((file) =>
        lstat(file.abs).catch((error: NodeJS.ErrnoException) => {
          // Deleted between readdir and lstat: it is simply not there any more.
          if (error.code === 'ENOENT') return null;
          throw error;
        }),
      ),
    );
    slice.forEach((file, index) => {
      const info = stats[index];
      if (!info?.isFile()) return;
      file.size = info.size;
      file.mtimeMs = info.mtimeMs;
      file.mode = info.mode;
      into.push(file);
    });
  }
}

/**
 * Lists the regular files below `root` depth first, each folder's entries in name order (deterministic
 * output for ZIPs and reports). Symbolic links are reported but never followed, so a link to `/` or a link loop cannot
 * drag the walk outside the tree or make it endless; sockets, FIFOs and devices are skipped. A missing
 * root gives an empty result rather than an error: "no output" is for the caller to judge.
 */
export async function walkFiles(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const { exclude, maxEntries = Number.POSITIVE_INFINITY } = options;
  const files: WalkedFile[] = [];
  const links: WalkedLink[] = [];
  let seen = 0;
  let truncated = false;

  const visit = async (dirAbs: string, dirRel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dirAbs, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The root (or a folder) vanished or is not a folder: nothing to list there.
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw error;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // Files wait here until the next folder (or the end), so the whole list comes out in path order.
    let pending: WalkedFile[] = [];
    const flush = async () => {
      const batch = pending;
      pending = [];
      if (options.stat) await statInto(batch, files);
      else files.push(...batch);
    };
    for (const entry of entries) {
      if (seen >= maxEntries) {
        truncated = true;
        break;
      }
      seen += 1;
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      const abs = path.join(dirAbs, entry.name);
      if (entry.isSymbolicLink()) {
        if (!exclude?.(rel, false)) links.push({ rel, abs });
      } else if (entry.isDirectory()) {
        if (exclude?.(rel, true)) continue;
        await flush();
        await visit(abs, rel);
        if (truncated) break;
      } else if (entry.isFile()) {
        if (!exclude?.(rel, false)) pending.push({ rel, abs });
      }
    }
    await flush();
  };

  await visit(root, '');
  return { files, links, truncated };
}
