import fs from 'node:fs';
import path from 'node:path';
import { removeInBackground } from './background-removal.ts';

/** A free name for `dir` moved aside into `scratch`. */
const asideName = (scratch: string, dir: string): string =>
  path.join(
    scratch,
    `${path.basename(dir)}.old-${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
  );

/**
 * Replace `target` with `source` by renames only (O(1), same file system): the old target is moved
 * aside into `scratch` and removed in the background, off the hot path (mass deletes are slow here).
 */
export function swapDir(source: string, target: string, scratch: string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.mkdirSync(scratch, { recursive: true });
  let aside: string | null = null;
  if (fs.existsSync(target)) {
    aside = asideName(scratch, target);
    fs.renameSync(target, aside);
  }
  try {
    fs.renameSync(source, target);
  } catch (err) {
    if (aside) fs.renameSync(aside, target);
    throw err;
  }
  if (aside) removeInBackground(aside);
}

/** Move `dir` out of the way and delete it in the background; no-op when it does not exist. */
export function discardDir(dir: string, scratch: string): void {
  if (!fs.existsSync(dir)) return;
  fs.mkdirSync(scratch, { recursive: true });
  const aside = asideName(scratch, dir);
  fs.renameSync(dir, aside);
  removeInBackground(aside);
}
