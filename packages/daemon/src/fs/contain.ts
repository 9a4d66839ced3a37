import fs from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Path containment, decided in one place. Everything that must keep a path inside a folder (the file
 * API, previews, detection, output checks, build moves) asks here.
 *
 * The lexical helpers compare absolute paths as given: pass real paths (links resolved) when links
 * matter, or use the `real*` helpers, which resolve them. A target is outside exactly when the path
 * from the root to it starts with a whole `..` segment or is absolute (another drive on Windows).
 * A name that merely begins with two dots (`..cache`, `...`) is an ordinary name, inside.
 */

const UP = `..${path.sep}`;

/**
 * The path of `target` relative to `root` with forward slashes ("" for the root itself), or null
 * when `target` is outside `root`. Both absolute; compared lexically (see the file comment).
 */
export function relativeWithin(root: string, target: string): string | null {
  const rel = path.relative(root, target);
  if (rel === '..' || rel.startsWith(UP) || path.isAbsolute(rel)) return null;
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/** Is `target` the root itself or inside it? Lexical: both absolute, links not resolved. */
export function isWithin(root: string, target: string): boolean {
  return relativeWithin(root, target) !== null;
}

/** Is `target` strictly inside `root` (not the root itself)? Lexical, like `isWithin`. */
export function isStrictlyWithin(root: string, target: string): boolean {
  const rel = relativeWithin(root, target);
  return rel !== null && rel !== '';
}

/** Errors that mean "nothing (reachable) is there": missing, a file used as a folder, a link loop. */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);
const isAbsent = (error: unknown): boolean => ABSENT.has((error as NodeJS.ErrnoException).code ?? '');

/**
 * The real path of `target` (every link followed) when it exists and stays within `realRoot`
 * (which must itself be a real path: `fs.realpath` it once), else null. Never throws for a missing
 * target, a dangling link or a link loop; other errors (EACCES…) are thrown.
 */
export async function realWithin(realRoot: string, target: string): Promise<string | null> {
  let real: string;
  try {
    real = await realpath(target);
  } catch (error) {
    if (isAbsent(error)) return null;
    throw error;
  }
  return isWithin(realRoot, real) ? real : null;
}

/**
 * `realWithin`, synchronous: for code that is synchronous already, and for hot paths where one
 * realpath(3) on a local disk (microseconds) costs less than a thread-pool round trip.
 */
export function realWithinSync(realRoot: string, target: string): string | null {
  let real: string;
  try {
    real = fs.realpathSync.native(target);
  } catch (error) {
    if (isAbsent(error)) return null;
    throw error;
  }
  return isWithin(realRoot, real) ? real : null;
}

/**
 * Is `child`, links followed, strictly inside `parent`, links followed? False when either does not
 * exist. (The drop-in for the build engine's `isInside(parent, child)`.)
 */
export function isInsideReal(parent: string, child: string): boolean {
  let realParent: string;
  try {
    realParent = fs.realpathSync(parent);
  } catch (error) {
    if (isAbsent(error)) return false;
    throw error;
  }
  const real = realWithinSync(realParent, child);
  return real !== null && real !== realParent;
}
