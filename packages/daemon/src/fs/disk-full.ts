import fs from 'node:fs';
import { ERROR_CATALOGUE } from '@forge/shared';
import { ForgeError } from '../http/forge-error.ts';

/**
 * A full disk, as the system and SQLite say it: out of space (ENOSPC), over a quota (EDQUOT), or
 * SQLite unable to grow its file (SQLITE_FULL). Each is the user's disk, not a bug of Forge: it is
 * answered 507 DISK_FULL and ends a build `failed` with DISK_FULL, never a 500 or INTERNAL.
 */
const DISK_FULL_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** What a command prints when it runs out of space (Node, npm, pnpm, coreutils, Python…). */
const DISK_FULL_LINE = /\bENOSPC\b|no space left on device|\bEDQUOT\b|disk quota exceeded/i;

/** Below this many free bytes the disk counts as full when a command failed without saying why. */
const NEARLY_FULL_BYTES = 1024 * 1024;

/** Whether `err` (or an error it wraps as `cause`) is the disk being full. */
export function isDiskFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (e instanceof ForgeError) return e.code === 'DISK_FULL';
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The system's code for it (ENOSPC, EDQUOT, SQLITE_FULL), for the message. */
function codeOf(err: unknown): string {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return 'ENOSPC';
}

/** "<what> failed: the disk … is full (ENOSPC). Free space on it (…), then try again." */
export function diskFullMessage(what: string, err?: unknown): string {
  const { message, hint } = ERROR_CATALOGUE.DISK_FULL;
  const full = `${message.charAt(0).toLowerCase()}${message.slice(1).replace(/\.$/, '')}`;
  return `${what} failed: ${full} (${codeOf(err)}). ${hint ?? ''}`.trim();
}

/** The 507 DISK_FULL answer for `err` when it is the disk being full, else `err` unchanged. */
export function asDiskFull(err: unknown, what: string): unknown {
  if (!isDiskFull(err) || err instanceof ForgeError) return err;
  return new ForgeError('DISK_FULL', diskFullMessage(what, err));
}

/** Whether a line of a command's output says it ran out of space. */
export const saysDiskFull = (text: string): boolean => DISK_FULL_LINE.test(text);

/** Whether the file system holding `dir` has (almost) no space left for an unprivileged writer. */
export function diskNearlyFull(dir: string): boolean {
  try {
    const s = fs.statfsSync(dir);
    return s.bavail * s.bsize < NEARLY_FULL_BYTES;
  } catch {
    return false;
  }
}

/**
 * Watches a command's output for running out of space: a failed install or build whose output says
 * so, or that leaves the disk (almost) full, failed for the disk, not for the project's code.
 */
export class DiskFullWatch {
  #said = false;

  /** Give it every output line. */
  readonly onLine = (line: { text: string }): void => {
    if (!this.#said && saysDiskFull(line.text)) this.#said = true;
  };

  /** Whether the command ran out of space writing somewhere on the file system of `dir`. */
  full(dir: string): boolean {
    return this.#said || diskNearlyFull(dir);
  }
}
