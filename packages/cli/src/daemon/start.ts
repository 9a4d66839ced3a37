import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DaemonState, HealthResponse } from '@forge/shared';
import { CliError } from '../output.ts';
import { formatLogLine, readLastLines } from './logs.ts';
import type { ForgePaths } from './paths.ts';
import { delay, isPidAlive, waitFor } from './process.ts';
import { probeDaemon, removeStateFile, type DaemonProbe } from './state.ts';

/** How long `forge daemon start` waits for daemon.json and /api/health. */
export const START_TIMEOUT_MS = 15_000;
/** Grace for a daemon that missed the start deadline before it is killed. */
const ABANDON_GRACE_MS = 2_000;
/** Lines of each log shown when the daemon dies while starting. */
const TAIL_LINES = 20;

export interface ListenOptions {
  port?: number;
  host?: string;
}

export interface StartContext {
  paths: ForgePaths;
  entry: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  token?: string;
  /** Told when a state file of a dead daemon was found and removed. */
  onStale?: (pid: number | null) => void;
}

export type StartResult =
  | { kind: 'started'; state: DaemonState; health: HealthResponse | null }
  /** `responsive: false`: its pid lives but /api/health does not answer. */
  | { kind: 'already-running'; state: DaemonState; responsive: boolean };

/** `run` arguments for the daemon entry. */
export function runArgs(opts: ListenOptions & { dev?: boolean }): string[] {
  return [
    'run',
    ...(opts.port === undefined ? [] : ['--port', String(opts.port)]),
    ...(opts.host === undefined ? [] : ['--host', opts.host]),
    ...(opts.dev ? ['--dev'] : []),
  ];
}

/**
 * Start the daemon detached and wait until it is live (state file with a live pid AND /api/health
 * answers). Under a start lock, so concurrent `forge` commands that autostart share one daemon.
 */
export async function startDaemon(ctx: StartContext, opts: ListenOptions): Promise<StartResult> {
  return withStartLock(ctx.paths.startLock, async () => {
    const probe = await probeDaemon(ctx.paths.stateFile, ctx.token);
    if (probe.status === 'running' || probe.status === 'unresponsive') {
      return { kind: 'already-running', state: probe.state, responsive: probe.status === 'running' };
    }
    if (probe.stale) ctx.onStale?.(probe.stale.pid);
    return spawnAndWait(ctx, opts);
  });
}

async function spawnAndWait(ctx: StartContext, opts: ListenOptions): Promise<StartResult> {
  mkdirSync(dirname(ctx.paths.stderrFile), { recursive: true });
  const stderrFd = openSync(ctx.paths.stderrFile, 'w');
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let spawnError: Error | undefined;
  const child = (() => {
    try {
      // Detached: its own session, so the terminal's Ctrl+C and this process exiting leave it running.
      return spawn(process.execPath, [ctx.entry, ...runArgs(opts)], {
        detached: true,
        stdio: ['ignore', 'ignore', stderrFd],
        env: ctx.env,
        cwd: ctx.cwd,
        windowsHide: true,
      });
    } finally {
      closeSync(stderrFd);
    }
  })();
  const ended = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
    child.once('error', (err) => {
      spawnError = err;
      resolve();
    });
  });

  let last: DaemonProbe = { status: 'stopped' };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && !exited && !spawnError) {
    last = await probeDaemon(ctx.paths.stateFile, ctx.token);
    if (last.status === 'running') {
      child.unref();
      return { kind: 'started', state: last.state, health: last.health };
    }
    await Promise.race([delay(100), ended]);
  }

  if (spawnError) throw new CliError(`Could not start the Forge daemon: ${spawnError.message}`);
  if (exited) {
    const how = exited.signal ? `was killed by ${exited.signal}` : `exited with code ${exited.code}`;
    throw new CliError(`The Forge daemon ${how} before it was ready.`, {
      details: startupTail(ctx.paths),
      hint: 'See `forge daemon logs` for the whole log.',
    });
  }
  // Still alive but never became ready: do not leave a half-started daemon behind.
  child.kill('SIGTERM');
  if (!(await waitFor(() => exited !== undefined, { timeoutMs: ABANDON_GRACE_MS }))) child.kill('SIGKILL');
  if (child.pid !== undefined) await removeStateFile(ctx.paths.stateFile, child.pid);
  throw new CliError(
    `The Forge daemon did not answer within ${START_TIMEOUT_MS / 1000} s${last.status === 'unresponsive' ? ` at ${last.state.url}` : ''}; it was stopped.`,
    { details: startupTail(ctx.paths), hint: 'See `forge daemon logs` for the whole log.' },
  );
}

/** The last lines of the daemon's stderr and of its log, for a start that failed. */
function startupTail(paths: ForgePaths): string[] {
  const out: string[] = [];
  const stderr = readLastLines(paths.stderrFile, TAIL_LINES).lines;
  if (stderr.length > 0) out.push(`--- daemon stderr (${paths.stderrFile}) ---`, ...stderr);
  const log = readLastLines(paths.logFile, TAIL_LINES).lines;
  if (log.length > 0) out.push(`--- last lines of ${paths.logFile} ---`, ...log.map(formatLogLine));
  if (out.length === 0) out.push(`(nothing in ${paths.logFile} or ${paths.stderrFile})`);
  return out;
}

/** How long a second `forge` waits for another one's start to finish before giving up on the lock. */
const LOCK_WAIT_MS = START_TIMEOUT_MS + ABANDON_GRACE_MS + 3_000;

/**
 * Run `fn` holding an exclusive lock file (O_EXCL), holding our pid. A lock whose holder is dead is
 * taken over; a live holder is waited for, after which `fn` sees the daemon it started.
 */
async function withStartLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(lockFile), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number.parseInt(readFileSafe(lockFile), 10);
    if (!Number.isInteger(holder) || holder <= 0 || !isPidAlive(holder)) {
      rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new CliError(
        `Another forge process (pid ${holder}) is starting the daemon and has not finished.`,
        {
          hint: `If it is stuck, stop it, remove ${lockFile}, and try again.`,
        },
      );
    }
    await delay(100);
  }
  try {
    return await fn();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
