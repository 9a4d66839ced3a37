import type { DaemonState } from '@forge/shared';
import { CliError } from '../output.ts';
import type { ForgePaths } from './paths.ts';
import { isPidAlive, waitFor } from './process.ts';
import { probeDaemon, removeStateFile } from './state.ts';

/** The daemon promises a graceful stop within 10 s (SHUTDOWN_GRACE_MS); we give it a little more. */
export const STOP_TIMEOUT_MS = 12_000;
const KILL_WAIT_MS = 3_000;

export type StopResult =
  | { kind: 'not-running'; stale?: { pid: number | null } }
  | { kind: 'stopped'; state: DaemonState; forced: boolean };

/** SIGTERM the daemon named by the state file, wait for it, SIGKILL it if it will not go. */
export async function stopDaemon(paths: ForgePaths, token?: string): Promise<StopResult> {
  const probe = await probeDaemon(paths.stateFile, token);
  if (probe.status === 'stopped')
    return { kind: 'not-running', ...(probe.stale ? { stale: { pid: probe.stale.pid } } : {}) };
  const { state } = probe;
  const gone = () => !isPidAlive(state.pid);
  signal(state.pid, 'SIGTERM');
  let forced = false;
  if (!(await waitFor(gone, { timeoutMs: STOP_TIMEOUT_MS }))) {
    forced = true;
    signal(state.pid, 'SIGKILL');
    if (!(await waitFor(gone, { timeoutMs: KILL_WAIT_MS }))) {
      throw new CliError(`The Forge daemon (pid ${state.pid}) did not stop, even after SIGKILL.`, {
        hint: 'Check whether this user may signal that process.',
      });
    }
  }
  // A graceful daemon removes its own state file; a killed one cannot.
  await removeStateFile(paths.stateFile, state.pid);
  return { kind: 'stopped', state, forced };
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}
