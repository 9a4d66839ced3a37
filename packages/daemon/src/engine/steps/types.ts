import type { Build, BuildError, ErrorCode, LogLevel, Settings, StepName, StepStatus } from '@forge/shared';
import type { RunCommandOptions, RunResult } from '../../capabilities/exec/index.ts';
import type { OutputEvidence } from '../../capabilities/tool-output/first-error.ts';
import { diskFullMessage, type DiskFullWatch } from '../../fs/disk-full.ts';

/** How a step that could not do its job ends the build: a final status and a catalogue code. */
export interface BuildFailure {
  status: 'failed' | 'timed-out' | 'cancelled';
  code: ErrorCode;
  message: string;
  /** Structured details for an HTTP answer (the archive entry at fault, the config field…). */
  details?: unknown;
  /** What the failing command printed that explains it: its first error line, where it points, its last lines. */
  evidence?: Pick<BuildError, 'firstLine' | 'location' | 'tail' | 'errors' | 'errorCount'>;
  /** What to do, when it is more precise than the catalogue's hint (the command that installs a tool). */
  hint?: string;
}

/**
 * What a step returns. `ok: true` lets the build go on — even when the step itself did not pass
 * (tests that fail, an output check that finds a missing asset: `stepStatus` says so, the build
 * does not stop). `ok: false` ends the build with `failure`, unless the engine repairs and retries.
 */
export type StepResult<O> =
  | {
      ok: true;
      value: O;
      detail: string;
      stepStatus?: Exclude<StepStatus, 'running'>;
      /** What the bot's card says it last did ("ran tests: 3 failed"); default: nothing. */
      summary?: string;
    }
  | { ok: false; failure: BuildFailure; detail?: string };

/** A command a step runs: what runCommand takes, less what the context supplies. */
export type StepCommandOptions = Pick<RunCommandOptions, 'argv' | 'cwd' | 'env' | 'timeoutMs'> & {
  /** Also called with each line (the build's log gets every line anyway). */
  onLine?: RunCommandOptions['onLine'];
  /** Folders the command may write besides its cwd when sandboxed (e.g. Forge's shared install store). */
  writable?: readonly string[];
  /** Sandboxed: cwd and the `writable` folders inside this one share one mount, so hard links between them work. */
  linkedRoot?: string;
  /** Stops this command early (the step's own reason, e.g. a test runner waiting for input); the build goes on. */
  signal?: AbortSignal;
  /** Its output is an answer for the step (a version list): given to onLine, kept out of the build's log. */
  quiet?: boolean;
};

/**
 * Everything a step may do to its build, and nothing more: it cannot change the build's status
 * or stage (only the engine moves the build along its machine), it records its own fields.
 */
export interface StepContext {
  readonly buildId: string;
  readonly projectName: string;
  /** Aborted when the build is cancelled (reason: user, superseded, timeout, shutdown). */
  readonly signal: AbortSignal;
  /** The settings as they were when the step started. */
  readonly settings: Settings;
  /** The build record as it is now (a copy). */
  build(): Build;
  /** A line from the step's bot, stored with the build and streamed. */
  log(level: LogLevel, message: string): void;
  /** A line of output of something the step runs itself (a server app), stored and streamed. */
  output(stream: 'stdout' | 'stderr', text: string): void;
  /**
   * Run a command as this step's bot: own process group, scrubbed environment, sandbox when the
   * machine has one, cancelled with the build, output stored and streamed, its pid kept for a crash
   * sweep, and (debugMode) recorded with its environment names, directory and timing.
   */
  run(command: StepCommandOptions): Promise<RunResult>;
  /** Record fields of the build that this step produced (blueprint, reports, preview URL…). */
  record(patch: RecordPatch): void;
}

/** The fields of a build record a step may write. */
export type RecordPatch = Partial<
  Pick<
    Build,
    | 'blueprint'
    | 'extraction'
    | 'sourceHash'
    | 'cacheHit'
    | 'test'
    | 'uiCheck'
    | 'bundle'
    | 'previewUrl'
    | 'lint'
    | 'diagnosis'
    | 'repairs'
    | 'worker'
    | 'testsOption'
    | 'verdict'
  >
>;

/**
 * Steps whose `failed` is the project's result, not the bot's (their step returns `ok` with a
 * failed step: tests that fail, an output check that finds a missing asset, lint errors). runStep
 * knows it from the result itself; a coordinator that sees only a worker's step statuses reads it
 * here, so TestBot's card stays healthy whichever machine ran the tests.
 */
export const PROJECT_RESULT_STEPS: ReadonlySet<StepName> = new Set<StepName>(['test', 'check', 'lint']);

/** One step of the pipeline: a unit with one signature, run by one named bot. */
export interface Step<I, O> {
  /** The step it records (extract, detect, install, build, test, check, optimize, preview). */
  readonly name: StepName;
  /** The bot of the fleet that runs it. */
  readonly bot: string;
  /** What the bot card shows while it runs, e.g. "build app". */
  label(projectName: string, input: I): string;
  run(ctx: StepContext, input: I): Promise<StepResult<O>>;
}

/**
 * A failed command that ran out of space (its output says so, or the disk holding `dir` is full):
 * the step's failure becomes DISK_FULL, saying what to free, instead of INSTALL_FAILED/BUILD_FAILED.
 */
export function diskFullFailure(
  failed: BuildFailure | null,
  command: string,
  space: DiskFullWatch,
  dir: string,
): BuildFailure | null {
  if (failed?.status !== 'failed' || !space.full(dir)) return null;
  const { evidence } = failed;
  return { ...failure('failed', 'DISK_FULL', diskFullMessage(command)), ...(evidence ? { evidence } : {}) };
}

export const failure = (status: BuildFailure['status'], code: ErrorCode, message: string): BuildFailure => ({
  status,
  code,
  message,
});

/**
 * A command's end as a step failure (for install and build), or null when it succeeded. Given the
 * command's `output` (an OutputEvidence fed its lines), a failure or timeout carries its first error
 * line, where it points and its last lines, so "npm run build exited with code 1" is never all a
 * person gets.
 */
export function commandFailure(
  result: RunResult,
  command: string,
  code: 'INSTALL_FAILED' | 'BUILD_FAILED',
  output?: Pick<OutputEvidence, 'evidence'>,
): BuildFailure | null {
  const explained = (f: BuildFailure): BuildFailure => {
    const evidence = output?.evidence();
    return evidence && (evidence.firstLine || evidence.tail?.length) ? { ...f, evidence } : f;
  };
  switch (result.outcome) {
    case 'succeeded':
      return null;
    case 'timed-out':
      return explained(
        failure('timed-out', 'STAGE_TIMEOUT', `${command} ran past its time limit and was stopped.`),
      );
    case 'cancelled':
      return failure('cancelled', 'CANCELLED', `${command} was cancelled.`);
    case 'failed': {
      const why =
        result.error ??
        (result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`);
      return explained(failure('failed', code, `${command} ${why}`));
    }
  }
}
