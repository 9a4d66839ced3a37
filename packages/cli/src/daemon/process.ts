import { readFileSync } from 'node:fs';

/**
 * Whether `pid` is a live process. A zombie counts as dead: a daemon killed with -9 stays a zombie
 * until its parent reaps it, and a detached daemon's parent (init in a container) may never do so.
 */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 3, after the parenthesised command name (which may itself contain spaces or parens).
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * Whether a live pid still looks like a Forge daemon, so a pid reused by an unrelated process after
 * a crash or reboot is never signalled. Only Linux can tell; elsewhere we trust the state file.
 */
export function looksLikeForgeDaemon(pid: number): boolean {
  if (process.platform !== 'linux') return true;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return /daemon|forge/i.test(cmdline);
  } catch {
    return true;
  }
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Poll `check` every `intervalMs` until it is true or `timeoutMs` passes; resolves with the last answer. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  { timeoutMs, intervalMs = 100 }: { timeoutMs: number; intervalMs?: number },
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await delay(intervalMs);
  }
}
