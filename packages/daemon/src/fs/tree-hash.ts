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
 */
export async function hashTree(
  root: string,
  skip: (rel: string, isDir: boolean) => boolean,
): Promise<string> {
  const info = await stat(root);
  if (!info.isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, scandir '${root}'`), { code: 'ENOTDIR' });
  }
  const hash = createHash('sha256');
  for await (const entry of walk(root, { exclude: skip, stat: true })) {
    if (entry.kind === 'dir') {
      hash.update(`d ${entry.rel}\n`);
    } else if (entry.kind === 'link') {
      hash.update(`l ${entry.rel} ${readlinkSync(entry.abs)}\n`);
    } else {
      const exec = ((entry.mode ?? 0) & 0o111) !== 0 ? 'x' : '-';
      if ((entry.size ?? 0) <= SYNC_READ_MAX_BYTES) {
        const data = readFileSync(entry.abs);
        hash.update(`f ${entry.rel} ${exec} ${data.length}\n`);
        hash.update(data);
      } else {
        const data = await readFile(entry.abs);
        hash.update(`f ${entry.rel} ${exec} ${data.length}\n`);
        const slicer = timeSlicer();
        for (let offset = 0; offset < data.length; offset += HASH_CHUNK_BYTES) {
          hash.update(data.subarray(offset, offset + HASH_CHUNK_BYTES));
          await slicer.pause();
        }
      }
    }
  }
  return hash.digest('hex');
}
