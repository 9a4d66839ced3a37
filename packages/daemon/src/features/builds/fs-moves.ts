import fs from 'node:fs';
import path from 'node:path';
import { removeInBackground } from '../../pipeline/extract/index.ts';

/**
 * Replace `target` with `source` by renames only (O(1), same file system): the old target is moved
 * aside into `scratch` and removed in the background, off the hot path (mass deletes are slow here).
 */
export function swapDir(source: string, target: string, scratch: string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.mkdirSync(scratch, { recursive: true });
  let aside: string | null = null;
  if (fs.existsSync(target)) {
    aside = path.join(
      scratch,
      `${path.basename(target)}.old-${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    );
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
  const aside = path.join(
    scratch,
    `${path.basename(dir)}.old-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  );
  fs.renameSync(dir, aside);
  removeInBackground(aside);
}

/** Is `child` (after resolving links) inside `parent` (and not equal to it)? */
export function isInside(parent: string, child: string): boolean {
  let real: string;
  try {
    real = fs.realpathSync(child);
  } catch {
    return false;
  }
  const base = fs.realpathSync(parent);
  const rel = path.relative(base, real);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Project-relative paths (forward slashes) of every regular file under `dir`, sorted. */
export function listFilesRel(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (skip(r)) continue;
      if (e.isDirectory()) walk(path.join(abs, e.name), r);
      else if (e.isFile()) out.push(r);
    }
  };
  if (fs.existsSync(dir)) walk(dir, '');
  return out.sort();
}
