import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { removeInBackground } from './background-removal.ts';

/** Temporary files of writeFileAtomic in the scratch folder: `write-<hex>`. */
export const ATOMIC_WRITE_PREFIX = 'write-';

export interface AtomicWriteOptions {
  /**
   * Where the temporary copy is written: FORGE_HOME/tmp, on the same file system as the target, and
   * swept at every start. A kill -9 mid-write then leaves the temporary there, never a stray
   * `file.txt.123456` beside the user's file (as writing the temporary next to the target would).
   */
  scratchDir: string;
  /** Mode of the file (an existing file keeps its own: pass it). Default 0o666 less the umask. */
  mode?: number | undefined;
}

/**
 * Replace `target` with `data` so that any reader, and anything left after a kill -9, sees the old
 * content or the new one byte for byte: written whole to a temporary, flushed to disk, then renamed
 * over the target (rename is atomic on one file system). When the scratch folder is on another file
 * system (a project folder linked elsewhere), the temporary goes beside the target instead.
 * On failure (a full disk) the temporary is removed and the error, with its code, is thrown.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions,
): Promise<void> {
  fs.mkdirSync(options.scratchDir, { recursive: true });
  const name = `${ATOMIC_WRITE_PREFIX}${randomBytes(8).toString('hex')}`;
  const temp = path.join(options.scratchDir, name);
  try {
    await writeFlushed(temp, data, options.mode);
    try {
      await rename(temp, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await rm(temp, { force: true });
      const beside = path.join(path.dirname(target), `.${path.basename(target)}.${name}`);
      try {
        await writeFlushed(beside, data, options.mode);
        await rename(beside, target);
      } catch (inner) {
        await rm(beside, { force: true });
        throw inner;
      }
    }
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

async function writeFlushed(
  file: string,
  data: string | Uint8Array,
  mode: number | undefined,
): Promise<void> {
  // wx: a fresh name, never someone else's file.
  const handle = await open(file, 'wx', mode ?? 0o666);
  try {
    await handle.writeFile(data);
    // open() applies the umask; an existing file's mode is kept exactly.
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * At start, before any work: everything in the scratch folder is what a killed daemon left (half
 * received uploads, extraction staging, temporaries of atomic writes, folders moved aside to be
 * deleted); nothing there outlives the process that made it. Each entry is removed in the
 * background, so a large leftover never delays the start. Returns how many were scheduled.
 */
export function sweepScratch(scratchDir: string): number {
  let names: string[];
  try {
    names = fs.readdirSync(scratchDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  for (const name of names) removeInBackground(path.join(scratchDir, name));
  return names.length;
}
