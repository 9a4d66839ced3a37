import { performance } from 'node:perf_hooks';
import {
  formatCommand,
  formatDuration,
  type Settings,
  type StepCommand,
  type StepStatus,
} from '@forge/shared';
import type { Fleet } from '../fleet/fleet.ts';
import type { BuildRun } from '../build-run.ts';
import type { BuildRepo } from '../build-repo.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { diskFullMessage, isDiskFull } from '../../fs/disk-full.ts';
import type { Logger } from '../../logging/logger.ts';
import { runCommand, type RunResult } from '../../capabilities/exec/index.ts';
import { failure, type Step, type StepContext, type StepResult } from './types.ts';

/** What the engine gives every step it runs. */
export interface StepEnv {
  fleet: Fleet;
  repo: Pick<BuildRepo, 'addPid' | 'removePid'>;
  /** Run commands inside bubblewrap when the machine has it. */
  sandbox: boolean;
  settings: () => Settings;
  logger: Logger;
  /** The writable home a project's commands get (HOME, XDG_*), or none: the daemon's, read-only. */
  home?: (projectName: string) => string;
  /** FORGE_HOME/caches: the package managers' caches every command with a home uses. */
  caches?: string;
}

const cancelled = (run: BuildRun): StepResult<never> => ({
  ok: false,
  failure: failure('cancelled', 'CANCELLED', `The build was cancelled (${run.cancelReason ?? 'user'}).`),
});

/** A thrown error as the step's failure: catalogue errors keep their code, anything else is INTERNAL. */
function thrownFailure(err: unknown, run: BuildRun, env: StepEnv, step: string): StepResult<never> {
  if (run.signal.aborted) return cancelled(run);
  if (err instanceof ForgeError) {
    const details = err.details === undefined ? {} : { details: err.details };
    return {
      ok: false,
      failure: { ...failure('failed', err.code, err.message), ...details },
      detail: err.message,
    };
  }
  if (isDiskFull(err)) {
    const message = diskFullMessage(`The ${step} step`, err);
    return { ok: false, failure: failure('failed', 'DISK_FULL', message), detail: message };
  }
  env.logger.error({ err, buildId: run.id, step }, 'a build step crashed');
  const message = `Forge failed inside the ${step} step: ${(err as Error).message}`;
  return { ok: false, failure: failure('failed', 'INTERNAL', message), detail: message };
}

const stepStatusOf = (result: StepResult<unknown>): Exclude<StepStatus, 'running'> =>
  result.ok ? (result.stepStatus ?? 'succeeded') : result.failure.status;

/**
 * Run one step of a build as a job of its bot: wait for a fleet slot (cancellable), record the
 * step (attempt, time, outcome, detail; with debugMode its commands, environment names, directory
 * and timings, in the record and the log), run it with a context bound to the build, and turn
 * anything thrown into a failure with a catalogue code. Never throws; the caller decides what the
 * result means for the build (go on, repair and run it again, or end).
 */
export async function runStep<I, O>(
  env: StepEnv,
  run: BuildRun,
  step: Step<I, O>,
  input: I,
): Promise<StepResult<O>> {
  if (run.signal.aborted) return cancelled(run);
  const settings = env.settings();
  const debug = settings.debugMode;
  const requested = performance.now();
  const job = { label: step.label(run.projectName, input), projectName: run.projectName, buildId: run.id };
  try {
    return await env.fleet.run(
      step.bot,
      job,
      async () => {
        const queuedMs = Math.round(performance.now() - requested);
        const started = run.beginStep(step.name, step.bot);
        const commands: StepCommand[] = [];
        const ctx = stepContext(env, run, step.bot, settings, commands);
        let result: StepResult<O>;
        try {
          result = await step.run(ctx, input);
        } catch (err) {
          result = thrownFailure(err, run, env, step.name);
        }
        // A step that returned while the build was being cancelled did not finish its job.
        if (run.signal.aborted && result.ok) result = cancelled(run);
        const detail = result.ok ? result.detail : (result.detail ?? result.failure.message);
        const recorded = started.finish(stepStatusOf(result), detail, debug ? { queuedMs, commands } : null);
        if (debug) {
          run.log(
            step.bot,
            'info',
            `[debug] ${step.name} (attempt ${started.attempt}) ${recorded.status} in ${formatDuration(recorded.durationMs ?? 0)}, after waiting ${formatDuration(queuedMs)} for a fleet slot`,
          );
        }
        return result;
      },
      {
        signal: run.signal,
        // A cancelled job is not the bot's failure: it stays out of its error count and "Fix". Nor is
        // a step that did its job and found the project wanting (tests that fail, an output check
        // that finds a missing asset: `ok` with a failed step): that is the project's result, which
        // the build's record and verdict carry, and the bot stays healthy.
        failed: (r) => !r.ok && r.failure.status !== 'cancelled',
        summary: (r) => (r.ok ? (r.summary ?? null) : null),
      },
    );
  } catch (err) {
    // Cancelled while waiting for a slot, or the fleet itself failed.
    return thrownFailure(err, run, env, step.name);
  }
}

function stepContext(
  env: StepEnv,
  run: BuildRun,
  bot: string,
  settings: Settings,
  commands: StepCommand[],
): StepContext {
  return {
    buildId: run.id,
    projectName: run.projectName,
    signal: run.signal,
    settings,
    build: () => run.snapshot(),
    log: (level, message) => run.log(bot, level, message),
    output: (stream, text) => run.output(bot, stream, text),
    record: (patch) => run.record(patch),
    async run(command): Promise<RunResult> {
      const text = formatCommand(command.argv);
      run.log(bot, 'info', `$ ${text}`);
      let spawned = 0;
      const result = await runCommand({
        argv: command.argv,
        cwd: command.cwd,
        ...(command.env ? { env: command.env } : {}),
        timeoutMs: command.timeoutMs,
        ...(env.home ? { home: env.home(run.projectName) } : {}),
        ...(env.caches ? { caches: env.caches } : {}),
        // The build's cancel always stops it; a step may also stop its own command.
        signal: command.signal ? AbortSignal.any([run.signal, command.signal]) : run.signal,
        sandbox:
          env.sandbox && (command.writable || command.linkedRoot)
            ? {
                ...(command.writable ? { writable: command.writable } : {}),
                ...(command.linkedRoot ? { linkedRoot: command.linkedRoot } : {}),
              }
            : env.sandbox,
        onLine: (line) => {
          if (!command.quiet) run.output(bot, line.stream, line.text);
          command.onLine?.(line);
        },
        onSpawn: (pid) => env.repo.addPid(run.id, (spawned = pid)),
      }).finally(() => {
        if (!spawned) return;
        try {
          env.repo.removePid(run.id, spawned);
        } catch (err) {
          // The command has ended either way (disk full: SQLITE_FULL); its result decides the step.
          env.logger.warn({ err, buildId: run.id, pid: spawned }, 'could not forget a finished command');
        }
      });
      if (settings.debugMode) {
        const entry: StepCommand = {
          command: text,
          cwd: command.cwd,
          envNames: result.envNames,
          sandboxed: result.sandboxed,
          exitCode: result.exitCode,
          signal: result.signal,
          durationMs: result.durationMs,
        };
        commands.push(entry);
        run.log(
          bot,
          'info',
          `[debug] ${text} — in ${entry.cwd}${entry.sandboxed ? ' (sandboxed)' : ''}; environment: ${entry.envNames.join(' ')}; ` +
            `${result.outcome}${entry.exitCode !== null ? ` (exit ${entry.exitCode})` : entry.signal ? ` (${entry.signal})` : ''} after ${formatDuration(entry.durationMs)}`,
        );
      }
      return result;
    },
  };
}
