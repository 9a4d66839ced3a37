/**
 * Process groups: every command is spawned detached (setsid), so its pid is also the id of a group
 * holding the command and every descendant that did not leave it. Signalling `-pgid` reaches them all.
 */

/**
 * Sends `signal` to every process of the group. Returns false when the group is already gone (ESRCH)
 * or not ours to signal (EPERM); both mean there is nothing left we could stop.
 */
export function killProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) {
    // -1 would signal every process we may signal; 0 our own group. Never.
    throw new RangeError(`refusing to signal process group ${pgid}`);
  }
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH' || code === 'EPERM') return false;
    throw error;
  }
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/**
 * Remembers a running group so that, if the daemon exits without stopping its commands (a crash, an
 * unexpected `process.exit`), they are killed with it instead of living on. A SIGKILLed daemon cannot
 * run this; the caller persists pids (`onSpawn`) for a sweep at the next start.
 */
export function trackGroup(pgid: number): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) killProcessGroup(group, 'SIGKILL');
    });
  }
  liveGroups.add(pgid);
  return () => liveGroups.delete(pgid);
}
