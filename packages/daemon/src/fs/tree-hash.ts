import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { timeSlicer } from './time-slice.ts';
import { walk } from './walk.ts';

/** Files up to this size are read synchronously inside the walk's time slices; larger ones async. */
const SYNC_READ_MAX_BYTES = 1024 * 1024;
/** A large file goes into the hash this much at a time, with turns of the event loop between. */
const HASH_CHUNK_BYTES = 1024 * 1024;

/**
 * The digest's format, in one place: `hashTree` feeds it what it reads from a tree, and ExtractBot what
 * it writes, in the same (walk) order, so both give the same digest for the same tree.
 */
export class TreeHasher {
  private readonly hash = createHash('sha256');

  dir(rel: string): void {
    this.hash.update(`d ${rel}\n`);
  }

  link(rel: string, target: string): void {
    this.hash.update(`l ${rel} ${target}\n`);
  }

  /** A file's line; its `size` bytes follow through `bytes`. */
  file(rel: string, executable: boolean, size: number): void {
    this.hash.update(`f ${rel} ${executable ? 'x' : '-'} ${size}\n`);
  }

  bytes(data: Uint8Array): void {
    this.hash.update(data);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/**
 * A tree's digest as computed by whoever wrote it (ExtractBot hashes what it extracts, as it writes),
 * with every path it covers. `hashTree` answers with it instead of reading the tree back when `skip`
 * leaves out none of those paths; the caller vouches that the tree is still as written.
 */
export interface WrittenTree {
  digest: string;
  /** Project-relative, forward slashes. */
  files: readonly string[];
  dirs: readonly string[];
  /** Symbolic links (a walk reports them, never follows them). */
  links?: readonly string[];
}

/** Would a walk with `skip` leave out anything of the written tree (and so hash something else)? */
function skipsAnyOf(tree: WrittenTree, skip: (rel: string, isDir: boolean) => boolean): boolean {
  return (
    tree.dirs.some((rel) => skip(rel, true)) ||
    tree.files.some((rel) => skip(rel, false)) ||
    (tree.links ?? []).some((rel) => skip(rel, false))
  );
}

/**
 * Content hash of a project tree (CacheBot): every folder, every link's target text (never followed)
 * and every regular file's path, execute bit and bytes, depth first in name order. `skip` gets the
 * project-relative path (forward slashes) of each entry, and whether it is a folder; a skipped folder
 * is left out with everything below it.
 *
 * The digest is a SHA-256 of, per entry: `d <rel>\n` for a folder; `l <rel> <target>\n` for a link;
 * `f <rel> <x|-> <size>\n` followed by the bytes for a file (unchanged since the synchronous version,
 * so existing cache keys stay valid). Throws when `root` is not a folder.
 *
 * Never blocks the event loop for long: small files are read synchronously within the walk's time
 * slices (the walk pauses between entries, and its slices count the time spent here); large ones are
 * read asynchronously and hashed a chunk at a time.
 *
 * `written`, when given, is the digest of the tree as it was written (see WrittenTree): it is the
 * answer, without reading anything, unless `skip` leaves out part of it.
 */
export async function hashTree(
  root: string,
  skip: (rel: string, isDir: boolean) => boolean,
  written?: WrittenTree | null,
): Promise<string> {
  const info = await stat(root);
  if (!info.isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, scandir '${root}'`), { code: 'ENOTDIR' });
  }
  if (written && !skipsAnyOf(written, skip)) return written.digest;
  const hash = new TreeHasher();
  for await (const entry of walk(root, { exclude: skip, stat: true })) {
    if (entry.kind === 'dir') {
      hash.dir(entry.rel);
    } else if (entry.kind === 'link') {
      hash.link(entry.rel, readlinkSync(entry.abs));
    } else {
      const exec = ((entry.mode ?? 0) & 0o111) !== 0;
      if ((entry.size ?? 0) <= SYNC_READ_MAX_BYTES) {
        const data = readFileSync(entry.abs);
        hash.file(entry.rel, exec, data.length);
        hash.bytes(data);
      } else {
        const data = await readFile(entry.abs);
        hash.file(entry.rel, exec, data.length);
        const slicer = timeSlicer();
        for (let offset = 0; offset < data.length; offset += HASH_CHUNK_BYTES) {
          hash.bytes(data.subarray(offset, offset + HASH_CHUNK_BYTES));
          await slicer.pause();
        }
      }
    }
  }
  return hash.digest();
}
