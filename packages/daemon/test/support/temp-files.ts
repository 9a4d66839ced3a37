/** Helpers for the runner's tests (not shipped: nothing outside tests imports this file). */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function makeTempDir(
  prefix = 'forge-run-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes a node script and returns the argv that runs it. */
export async function nodeScript(dir: string, name: string, source: string): Promise<string[]> {
  const file = join(dir, name);
  await writeFile(file, source);
  return [process.execPath, file];
}

/**
 * Whether a process is running. A zombie counts as gone: it holds no resources, and orphans killed
 * here may stay zombies when the machine's pid 1 does not reap them.
 */
export async function isRunning(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Polls `check` until it is true or `timeoutMs` passes; returns its last value. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 2_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Pids of running (non-zombie) processes whose command line contains `marker`. */
export async function pidsWithArg(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0').join(' ');
      if (cmdline.includes(marker) && (await isRunning(Number(entry)))) pids.push(Number(entry));
    } catch {
      // Exited while we looked.
    }
  }
  return pids;
}

/** Kills leftovers of a failed test by pid; never by name. */
export function killQuietly(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
