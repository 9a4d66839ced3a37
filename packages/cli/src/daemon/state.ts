import { readFileSync, rmSync } from 'node:fs';
import type { DaemonState, HealthResponse } from '@forge/shared';
import { send } from '../http/send.ts';
import { DAEMON_STATE_SCHEMA, ROUTES } from '../protocol/protocol.precomputed.ts';
import { safeParse } from '../protocol/safe-parse.ts';
import { isPidAlive, looksLikeForgeDaemon } from './process.ts';

/** How long one /api/health probe may take before the daemon counts as not answering. */
export const HEALTH_TIMEOUT_MS = 2_000;

export type StateFile =
  { kind: 'missing' } | { kind: 'invalid'; reason: string } | { kind: 'ok'; state: DaemonState };

export async function readStateFile(file: string): Promise<StateFile> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'invalid', reason: (err as Error).message };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'not JSON' };
  }
  const parsed = await safeParse(DAEMON_STATE_SCHEMA, json, (shared) => shared.DaemonState);
  return parsed.success
    ? { kind: 'ok', state: parsed.data as DaemonState }
    : { kind: 'invalid', reason: 'unexpected shape' };
}

/** Remove the state file, but only if it still names `pid` (a new daemon may have replaced it). */
export async function removeStateFile(file: string, pid?: number): Promise<void> {
  if (pid !== undefined) {
    const current = await readStateFile(file);
    if (current.kind === 'ok' && current.state.pid !== pid) return;
  }
  rmSync(file, { force: true });
}

export type Health = { answered: true; health: HealthResponse | null } | { answered: false };

/**
 * GET /api/health. Any HTTP answer means a daemon is listening (a 401 from a token-protected daemon
 * is still an answer); only a parsed 200 gives version and uptime.
 */
export async function checkHealth(baseUrl: string, token?: string): Promise<Health> {
  let res;
  try {
    res = await send({
      url: `${baseUrl.replace(/\/+$/, '')}${ROUTES.health.path}`,
      method: 'GET',
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
  } catch {
    return { answered: false };
  }
  if (res.status < 200 || res.status > 299) return { answered: true, health: null };
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    return { answered: true, health: null };
  }
  const { response } = ROUTES.health;
  const parsed = await safeParse(
    typeof response === 'object' ? response : null,
    json,
    (s) => s.HealthResponse,
  );
  return { answered: true, health: parsed.success ? (parsed.data as HealthResponse) : null };
}

/** What the state file and the process table say about the local daemon. */
export type DaemonProbe =
  | { status: 'running'; state: DaemonState; health: HealthResponse | null }
  /** `stale`: a state file was left behind by a daemon that is gone; the probe removed it. */
  | { status: 'stopped'; stale?: { pid: number | null; reason: string } }
  /** The pid lives but /api/health does not answer: hung, or still starting. */
  | { status: 'unresponsive'; state: DaemonState };

/** Liveness = the pid is alive AND /api/health answers. A state file of a dead pid is removed. */
export async function probeDaemon(stateFile: string, token?: string): Promise<DaemonProbe> {
  const file = await readStateFile(stateFile);
  if (file.kind === 'missing') return { status: 'stopped' };
  if (file.kind === 'invalid') {
    await removeStateFile(stateFile);
    return { status: 'stopped', stale: { pid: null, reason: `unreadable state file (${file.reason})` } };
  }
  const { state } = file;
  if (!isPidAlive(state.pid) || !looksLikeForgeDaemon(state.pid)) {
    await removeStateFile(stateFile, state.pid);
    return { status: 'stopped', stale: { pid: state.pid, reason: 'process is gone' } };
  }
  const health = await checkHealth(state.url, token);
  if (!health.answered) return { status: 'unresponsive', state };
  return { status: 'running', state, health: health.health };
}
