import fs from 'node:fs';
import path from 'node:path';
import { DAEMON_STATE_FILE, DaemonState, routes } from '@forge/shared';
import { writeFileAtomic } from '../fs/atomic-write.ts';
import { homeLayout } from '../home-layout.ts';

export const stateFilePath = (home: string): string => path.join(home, DAEMON_STATE_FILE);

/**
 * Written atomically (temporary in FORGE_HOME/tmp, then rename), so readers never see half a file and
 * a kill -9 mid-write leaves no `daemon.json.<n>` beside it.
 */
export async function writeStateFile(home: string, state: DaemonState): Promise<void> {
  await writeFileAtomic(stateFilePath(home), `${JSON.stringify(DaemonState.parse(state), null, 2)}\n`, {
    mode: 0o600,
    scratchDir: homeLayout(home).tmpDir,
  });
}

/** The state file, or null when it is missing or unreadable. */
export function readStateFile(home: string): DaemonState | null {
  try {
    const parsed = DaemonState.safeParse(JSON.parse(fs.readFileSync(stateFilePath(home), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Remove the state file if it still describes this process (never another daemon's). */
export function removeStateFile(home: string, pid: number): void {
  if (readStateFile(home)?.pid !== pid) return;
  fs.rmSync(stateFilePath(home), { force: true });
}

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Does something answer HTTP at url/api/health? Any answer counts (a token-protected daemon says 401). */
export async function healthAnswers(url: string, timeoutMs = 1_500): Promise<boolean> {
  try {
    const res = await fetch(new URL(routes.health.path, url), { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
