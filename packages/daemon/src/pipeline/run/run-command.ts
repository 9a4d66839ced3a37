import { stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { CancelReason } from '@forge/shared';
import { execa } from 'execa';
import {
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_LINE_LENGTH,
  DEFAULT_MAX_OUTPUT_BYTES,
  STREAM_DRAIN_MS,
} from './limits.ts';
import { OutputLimiter, type OutputLine, type OutputStream } from './output-limiter.ts';
import { killProcessGroup, trackGroup } from './process-group.ts';
import { sandboxArgv, sandboxAvailable, type SandboxOptions } from './sandbox.ts';
import { scrubEnv } from './scrub-env.ts';

export type { CancelReason } from '@forge/shared';
export type { OutputLine, OutputStream };

export interface RunCommandOptions {
  /** Program and arguments; never a shell string. */
  argv: readonly string[];
  cwd: string;
  /** Variables added to the scrubbed environment (`FORGE_*` is dropped; `undefined` unsets). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Past this the group is stopped and the outcome is `timed-out`. */
  timeoutMs: number;
  /** Aborting cancels the command; `signal.reason` should be a `CancelReason` (else `user`). */
  signal?: AbortSignal;
  /** Called synchronously for each line, in order per stream. */
  onLine: (line: OutputLine) => void;
  /** Called once the process exists, e.g. to persist its pid (= process group id) for a crash sweep. */
  onSpawn?: (pid: number) => void;
  maxLineLength?: number;
  maxOutputBytes?: number;
  killGraceMs?: number;
  /** Run inside bubblewrap when available (see `sandboxAvailable`); `RunResult.sandboxed` says if it did. */
  sandbox?: boolean | SandboxOptions;
}

export type RunOutcome = 'succeeded' | 'failed' | 'timed-out' | 'cancelled';

export interface RunResult {
  /** Exit code of the process, null when a signal ended it or it never started. */
  exitCode: number | null;
  /** Signal that ended the process (e.g. "SIGTERM"), else null. */
  signal: string | null;
  outcome: RunOutcome;
  /** Why the runner stopped the command (`timeout` for its own timeout); absent if it ran to its end. */
  cancelReason?: CancelReason;
  durationMs: number;
  /** Bytes written to stdout + stderr. */
  outputBytes: number;
  /** Bytes not delivered because `maxOutputBytes` was reached. */
  droppedBytes: number;
  /** Delivered lines cut to `maxLineLength`. */
  truncatedLines: number;
  /** Whether the command ran inside the bubblewrap sandbox. */
  sandboxed: boolean;
  /** Names of the environment variables the command was given (never their values), sorted. */
  envNames: string[];
  /** Why the command could not be started (missing program or cwd, bad sandbox). */
  error?: string;
}

const toCancelReason = (reason: unknown): CancelReason => {
  const parsed = CancelReason.safeParse(reason);
  return parsed.success ? parsed.data : 'user';
};

/**
 * Runs one command for a build stage: its own process group (killed as a whole on timeout, cancel and
 * after the main process exits, so no grandchild outlives it), a scrubbed environment, no stdin, and
 * output delivered line by line within the length and size caps. Resolves once the process has exited
 * and its output is drained; rejects only when `onLine` throws (after the group has been killed).
 */
export async function runCommand(options: RunCommandOptions): Promise<RunResult> {
  const { argv, cwd, timeoutMs, signal, onLine } = options;
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  if (argv.length === 0 || !argv[0]) throw new TypeError('runCommand: argv must name a program');

  const started = performance.now();
  let callbackError: unknown;
  const limiter = new OutputLimiter({
    maxLineLength: options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    deliver: (line) => {
      if (callbackError === undefined) onLine(line);
    },
  });
  const notStarted = (sandboxed: boolean, outcome: RunOutcome, error?: string): RunResult => ({
    exitCode: null,
    signal: null,
    outcome,
    ...(outcome === 'cancelled' ? { cancelReason: toCancelReason(signal?.reason) } : {}),
    durationMs: Math.round(performance.now() - started),
    ...limiter.end(),
    sandboxed,
    envNames: Object.keys(env).sort(),
    ...(error ? { error } : {}),
  });

  const env = scrubEnv(process.env, options.env);
  if (signal?.aborted) return notStarted(false, 'cancelled');

  let command = [...argv];
  let sandboxed = false;
  if (options.sandbox && (await sandboxAvailable())) {
    try {
      command = await sandboxArgv(argv, cwd, env, options.sandbox === true ? {} : options.sandbox);
      // The caller's TMPDIR is read-only in the sandbox; its /tmp is private and writable.
      env.TMPDIR = '/tmp';
      sandboxed = true;
    } catch (error) {
      const message = `Could not prepare the sandbox in ${cwd}: ${(error as Error).message}`;
      onLine({ stream: 'stderr', text: message });
      return notStarted(false, 'failed', message);
    }
  }
  if (signal?.aborted) return notStarted(sandboxed, 'cancelled');

  const subprocess = execa(command[0]!, command.slice(1), {
    cwd,
    env,
    extendEnv: false,
    // setsid(): the command leads a new process group (and session, without a terminal).
    detached: true,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    windowsHide: true,
  });

  const pid = subprocess.pid;
  // Written from event callbacks; an object keeps TypeScript from narrowing the fields to their initial values.
  const state: {
    exited: boolean;
    exitCode: number | null;
    signal: string | null;
    stopReason?: CancelReason;
  } = {
    exited: false,
    exitCode: null,
    signal: null,
  };
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  let drainTimer: ReturnType<typeof setTimeout> | undefined;
  let untrack: (() => void) | undefined;

  const killNow = () => {
    if (pid !== undefined) killProcessGroup(pid, 'SIGKILL');
  };
  const stop = (reason: CancelReason) => {
    if (state.exited || state.stopReason !== undefined || pid === undefined) return;
    state.stopReason = reason;
    killProcessGroup(pid, 'SIGTERM');
    killTimer = setTimeout(killNow, killGraceMs);
  };
  const onAbort = () => stop(toCancelReason(signal?.reason));
  const timeoutTimer = pid === undefined ? undefined : setTimeout(() => stop('timeout'), timeoutMs);

  if (pid !== undefined) {
    untrack = trackGroup(pid);
    signal?.addEventListener('abort', onAbort, { once: true });
    subprocess.once('exit', (code, sig) => {
      state.exited = true;
      state.exitCode = code;
      state.signal = sig;
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      // Whatever the command left behind in its group (a server, `sleep &`) goes with it.
      killNow();
      // Only a process that left the group can still hold our pipes; do not wait for it forever.
      drainTimer = setTimeout(() => {
        subprocess.stdout?.destroy();
        subprocess.stderr?.destroy();
      }, STREAM_DRAIN_MS);
    });
  }

  const write = (stream: OutputStream) => (chunk: Buffer) => {
    if (callbackError !== undefined) return;
    try {
      limiter.write(stream, chunk);
    } catch (error) {
      callbackError = error;
      killNow();
    }
  };
  subprocess.stdout?.on('data', write('stdout'));
  subprocess.stderr?.on('data', write('stderr'));

  try {
    if (pid !== undefined) options.onSpawn?.(pid);
  } catch (error) {
    callbackError ??= error;
    killNow();
  }

  const result = await subprocess;
  clearTimeout(timeoutTimer);
  clearTimeout(killTimer);
  clearTimeout(drainTimer);
  signal?.removeEventListener('abort', onAbort);
  untrack?.();

  let totals;
  try {
    totals = limiter.end();
  } catch (error) {
    callbackError ??= error;
    totals = limiter.end();
  }
  if (callbackError !== undefined) throw callbackError;

  if (pid === undefined) {
    // spawn reports a missing cwd as ENOENT too, which would blame the program.
    const cwdExists = await stat(cwd).then(
      (info) => info.isDirectory(),
      () => false,
    );
    const reason = result.code ?? result.shortMessage ?? 'unknown error';
    const message = cwdExists
      ? `Could not start "${command[0]}" in ${cwd}: ${reason}`
      : `Could not start "${command[0]}": the working directory ${cwd} does not exist`;
    onLine({ stream: 'stderr', text: message });
    return { ...notStarted(sandboxed, 'failed', message), ...totals };
  }

  const { stopReason } = state;
  const outcome: RunOutcome =
    stopReason === 'timeout'
      ? 'timed-out'
      : stopReason !== undefined
        ? 'cancelled'
        : state.exitCode === 0
          ? 'succeeded'
          : 'failed';
  return {
    exitCode: state.exitCode,
    signal: state.signal,
    outcome,
    ...(stopReason !== undefined ? { cancelReason: stopReason } : {}),
    durationMs: Math.round(performance.now() - started),
    ...totals,
    sandboxed,
    envNames: Object.keys(env).sort(),
  };
}
