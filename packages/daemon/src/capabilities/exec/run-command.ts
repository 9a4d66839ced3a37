import { access, constants, mkdir, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
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
import {
  createCommandCgroup,
  limitedArgv,
  limitMessage,
  resourceLimits,
  type ResourceLimits,
} from './resource-limits.ts';
import { sandboxArgv, sandboxAvailable, type SandboxOptions } from './sandbox.ts';
import { scrubEnv } from './scrub-env.ts';
import { forgeCaches, homeEnv } from './build-home.ts';
import { watchDiskWrites } from './disk-watch.ts';
import { formatBytes } from '@forge/shared';

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
  /**
   * A writable home of the command's own (HOME, XDG_*: created if missing, writable in the sandbox),
   * with the package-manager caches pinned where the daemon keeps them (build-home.ts). Without it
   * the command sees the daemon's HOME, read-only in the sandbox.
   */
  home?: string;
  /** With `home`: FORGE_HOME/caches, where the package managers' caches are pinned (build-home.ts). */
  caches?: string;
  /** Run inside bubblewrap when available (see `sandboxAvailable`); `RunResult.sandboxed` says if it did. */
  sandbox?: boolean | SandboxOptions;
  /**
   * Kernel limits (cgroup memory and processes when the daemon may create cgroups, file size always)
   * and the cap on bytes written to disk; default `resourceLimits()`, false for none.
   */
  limits?: ResourceLimits | false;
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
  /**
   * Why the command could not be started (missing program or cwd, bad sandbox), or which limit
   * stopped it ("used more than its memory limit of 2 GB…"), worded to follow the command's name.
   */
  error?: string;
}

/** How programs report EFBIG: Node's error code, C's strerror. */
const FILE_TOO_LARGE = /\bEFBIG\b|File too large/;

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
  /** A write failed at the file-size rlimit (SIGXFSZ is ignored, so the program says EFBIG itself). */
  let fileTooLarge = false;
  const limiter = new OutputLimiter({
    maxLineLength: options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    deliver: (line) => {
      if (!fileTooLarge && FILE_TOO_LARGE.test(line.text)) fileTooLarge = true;
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

  const env = scrubEnv(
    process.env,
    options.home ? { ...homeEnv(options.home, options.caches), ...options.env } : options.env,
  );
  if (signal?.aborted) return notStarted(false, 'cancelled');
  if (options.home) await mkdir(options.home, { recursive: true });
  // Bound writable in the sandbox, so they must exist first.
  if (options.home && options.caches) {
    await Promise.all(Object.values(forgeCaches(options.caches)).map((d) => mkdir(d, { recursive: true })));
  }

  let command = [...argv];
  let sandboxed = false;
  if (options.sandbox && (await sandboxAvailable())) {
    try {
      const given = options.sandbox === true ? {} : options.sandbox;
      const sandbox = options.home
        ? { ...given, writable: [...(given.writable ?? []), options.home] }
        : given;
      command = await sandboxArgv(argv, cwd, env, sandbox);
      // The caller's TMPDIR is read-only in the sandbox; its /tmp is private and writable.
      env.TMPDIR = '/tmp';
      sandboxed = true;
    } catch (error) {
      const message = `Could not prepare the sandbox in ${cwd}: ${(error as Error).message}`;
      onLine({ stream: 'stderr', text: message });
      return notStarted(false, 'failed', message);
    }
  }
  const limits = options.limits ?? resourceLimits();
  // The wrapper is a shell: a program that does not exist would be its error, not spawn's clear ENOENT.
  const limited = limits && (await canExec(command[0]!, env.PATH, cwd)) ? limits : false;
  const cgroup = limited ? await createCommandCgroup(limited) : null;
  if (limited) command = limitedArgv(command, limited, cgroup);
  // Checked after the last await before the spawn: an abort during those awaits has already fired,
  // and the listener added below would never hear it.
  if (signal?.aborted) {
    await cgroup?.remove();
    return notStarted(sandboxed, 'cancelled');
  }

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
    /** A limit the runner itself enforces (bytes written) stopped the command. */
    limitError?: string;
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
  const stopWatchingDisk =
    limited && pid !== undefined
      ? watchDiskWrites([cwd, ...sandboxWritable(options.sandbox)], limited.writtenBytes, (bytes) => {
          if (state.exited || state.stopReason !== undefined) return;
          state.limitError = `wrote ${formatBytes(bytes)} to disk, more than its limit of ${formatBytes(limited.writtenBytes)}, and was stopped`;
          killNow();
          try {
            onLine({ stream: 'stderr', text: `[forge] the command ${state.limitError}` });
          } catch (error) {
            callbackError ??= error;
          }
        })
      : undefined;
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
  stopWatchingDisk?.();
  // What the kernel counted, then whatever is still in the cgroup (even outside the group) is killed.
  const events = cgroup ? await cgroup.events() : { oomKills: 0, forksRefused: 0 };
  await cgroup?.remove();
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

  const { stopReason, limitError } = state;
  const hit = limited ? limitMessage(limited, { ...events, fileTooLarge }, state.signal) : null;
  if (hit && callbackError === undefined) onLine({ stream: 'stderr', text: hit.line });
  const error = limitError ?? (stopReason === undefined ? hit?.error : undefined);
  const outcome: RunOutcome =
    // A command whose forks or memory the kernel refused did not do its job, even if it exited 0.
    limitError !== undefined || (stopReason === undefined && (events.oomKills > 0 || events.forksRefused > 0))
      ? 'failed'
      : stopReason === 'timeout'
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
    ...(error && outcome === 'failed' ? { error } : {}),
  };
}

const sandboxWritable = (sandbox: RunCommandOptions['sandbox']): readonly string[] =>
  typeof sandbox === 'object' ? (sandbox.writable ?? []) : [];

/** Whether `program` names an executable file, as spawn would find it (a path, or a PATH lookup). */
async function canExec(program: string, path: string | undefined, cwd: string): Promise<boolean> {
  const candidates = program.includes('/')
    ? [isAbsolute(program) ? program : join(cwd, program)]
    : (path ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, program));
  for (const file of candidates) {
    try {
      await access(file, constants.X_OK);
      if ((await stat(file)).isFile()) return true;
    } catch {
      /* next */
    }
  }
  return false;
}
