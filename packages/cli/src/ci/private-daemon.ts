import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAEMON_LOG_FILE, LOG_DIR } from '@forge/shared';
import { formatLogLine, readLastLines } from '../daemon/logs.ts';
import { STOP_TIMEOUT_MS } from '../daemon/stop.ts';
import { CliError, EXIT } from '../output.ts';

/** Variables that would point the private daemon (or our client of it) somewhere else. */
const SCRUBBED_ENV = [
  'FORGE_URL',
  'BOT_SERVICE_URL',
  'FORGE_HOST',
  'FORGE_PORT',
  'FORGE_TOKEN',
  'FORGE_AUTOSTART',
];
/** Lines of the daemon's stderr kept for an error message. */
const STDERR_LINES = 20;
const KILL_WAIT_MS = 3_000;
/**
 * How long forge ci waits for its own daemon to say it listens. Longer than an interactive `forge
 * daemon start` (15 s): this daemon is our child, watched for its exit, and a busy CI runner can take
 * tens of seconds to start a process; the bound only catches a daemon that hangs without exiting.
 */
export const PRIVATE_START_TIMEOUT_MS = 120_000;

/** forge ci's own daemon: in a temporary FORGE_HOME, on a free loopback port, with a random token. */
export interface PrivateDaemon {
  url: string;
  pid: number;
  /** The temporary FORGE_HOME, removed by `stop`. */
  home: string;
  token: string;
  /**
   * SIGTERM (the daemon stops its builds and previews within 10 s), SIGKILL if it has not exited by
   * then, then the home is removed. Safe to call more than once; `force` skips the grace period.
   */
  stop(options?: { force?: boolean }): Promise<void>;
}

export interface PrivateDaemonInput {
  /** The daemon's built entry (daemon/paths.ts daemonEntry). */
  entry: string;
  env: NodeJS.ProcessEnv;
  /** Aborts the start (Ctrl+C): the daemon is stopped and the promise rejects with the reason. */
  signal?: AbortSignal;
  /** How long to wait for it to listen (PRIVATE_START_TIMEOUT_MS). */
  startTimeoutMs?: number;
}

/**
 * Start a daemon only this forge ci uses: a child in our process group (a CI runner that kills the
 * job's group takes it too), its FORGE_HOME a fresh temporary folder (the user's home and config are
 * never touched: it also runs in that folder, so no .forgerc of the working directory applies), port
 * 0 on 127.0.0.1, and a random access token so no other local process can drive it. Resolves once
 * it prints its URL (it has written its state file and listens).
 */
export async function startPrivateDaemon(input: PrivateDaemonInput): Promise<PrivateDaemon> {
  const home = mkdtempSync(join(tmpdir(), 'forge-ci-'));
  const token = randomBytes(24).toString('base64url');
  const env: NodeJS.ProcessEnv = { ...input.env };
  for (const name of SCRUBBED_ENV) delete env[name];
  Object.assign(env, { FORGE_HOME: home, FORGE_TOKEN: token });

  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [input.entry, 'run', '--port', '0', '--host', '127.0.0.1'], {
      cwd: home,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (err) {
    rmSync(home, { recursive: true, force: true });
    throw new CliError(`Could not start a private Forge daemon: ${(err as Error).message}`, {
      exitCode: EXIT.unreachable,
    });
  }

  // A spawn that failed (ENOENT, EACCES) emits 'error' and may never emit 'exit'.
  let spawnFailed = false;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => {
      spawnFailed = true;
      resolve();
    });
  });
  const isRunning = () => !spawnFailed && child.exitCode === null && child.signalCode === null;

  const stderrTail: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderrTail.push(...chunk.split('\n').filter(Boolean));
    stderrTail.splice(0, Math.max(0, stderrTail.length - STDERR_LINES));
  });

  // Whatever way this process ends (an uncaught error included), the daemon and its home go with it.
  const onExit = () => {
    if (isRunning()) child.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  };
  process.on('exit', onExit);

  let stopping: Promise<void> | undefined;
  const stop = ({ force = false }: { force?: boolean } = {}): Promise<void> => {
    if (force && isRunning()) child.kill('SIGKILL');
    stopping ??= (async () => {
      if (isRunning()) {
        child.kill('SIGTERM');
        if (!(await within(exited, STOP_TIMEOUT_MS))) {
          child.kill('SIGKILL');
          await within(exited, KILL_WAIT_MS);
        }
      }
      await rm(home, { recursive: true, force: true, maxRetries: 3 });
      process.off('exit', onExit);
    })();
    return stopping;
  };

  const details = () => {
    const lines = stderrTail.length > 0 ? ['--- daemon stderr ---', ...stderrTail] : [];
    const log = readLastLines(join(home, LOG_DIR, DAEMON_LOG_FILE), STDERR_LINES).lines;
    if (log.length > 0) lines.push('--- daemon log ---', ...log.map(formatLogLine));
    return lines;
  };

  try {
    const url = await readyUrl(child, input.signal, input.startTimeoutMs ?? PRIVATE_START_TIMEOUT_MS);
    return { url, pid: child.pid!, home, token, stop };
  } catch (err) {
    const lines = details();
    await stop();
    if (input.signal?.aborted) throw input.signal.reason;
    throw new CliError(`The private Forge daemon did not start: ${(err as Error).message}`, {
      exitCode: EXIT.unreachable,
      details: lines,
      hint: 'Check that the daemon is built (`pnpm build`) and that 127.0.0.1 accepts connections.',
    });
  }
}

/** The URL of "Forge is running at <url>" on the daemon's stdout; rejects if it exits or stalls first. */
function readyUrl(child: ChildProcess, signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const done = (fn: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      // Keep draining: a full pipe would block the daemon.
      child.stdout?.resume();
      fn();
    };
    const onData = (chunk: string) => {
      seen += chunk;
      const match = /Forge is running at (\S+)/.exec(seen);
      if (match) done(() => resolve(match[1]!));
    };
    const onExit = (code: number | null, sig: NodeJS.Signals | null) =>
      done(() => reject(new Error(sig ? `it was killed by ${sig}` : `it exited with code ${code}`)));
    const onError = (err: Error) => done(() => reject(err));
    const onAbort = () => done(() => reject(signal?.reason));
    const timer = setTimeout(
      () => done(() => reject(new Error(`it did not answer within ${timeoutMs / 1000} s`))),
      timeoutMs,
    );
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Whether `promise` settles within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
