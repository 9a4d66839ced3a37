import { z } from 'zod';
import { BUILD_STATUSES } from './build-statuses.ts';
import { ErrorCodeSchema } from '../errors.ts';
import { Blueprint } from './blueprint.ts';
import { LogEntry } from './log.ts';
import { Stage } from './stage.ts';
import { Diagnosis, Repair } from './assistants.ts';
import { TestCaseResult, TestCounts, TestsPolicy, TestsVerdict } from './tests-verdict.ts';

export * from './build-statuses.ts';

export const BuildStatus = z.enum(BUILD_STATUSES);
export type BuildStatus = z.infer<typeof BuildStatus>;

/** Why a build was cancelled. */
export const CancelReason = z.enum(['user', 'superseded', 'timeout', 'shutdown']);
export type CancelReason = z.infer<typeof CancelReason>;

/** One stage the build entered (docs/product.md#build-states), with its time. */
export const StageEvent = z.object({ stage: Stage, at: z.string() });
export type StageEvent = z.infer<typeof StageEvent>;

export const STEP_NAMES = [
  'extract',
  'detect',
  /** DependencyBot fetching the package manager the project asks for (only when it is not Node's npm). */
  'toolchain',
  'install',
  'build',
  'test',
  'check',
  'optimize',
  'preview',
  /** LintBot running the project's own lint script after a successful build (never fails it). */
  'lint',
  /** ScanBot reading a failed step's output and the project. */
  'diagnose',
  /** RepairBot making a repair before the failed step runs again. */
  'repair',
] as const;
export const StepName = z.enum(STEP_NAMES);
export type StepName = z.infer<typeof StepName>;

/** A command a step ran, as recorded with the debugMode setting on. */
export const StepCommand = z.object({
  /** The full command line, as a person would type it. */
  command: z.string(),
  /** Working directory it ran in. */
  cwd: z.string(),
  /** Names of the environment variables it saw (never their values). */
  envNames: z.array(z.string()),
  /** Whether it ran inside the bubblewrap sandbox. */
  sandboxed: z.boolean(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  durationMs: z.number().nonnegative(),
});
export type StepCommand = z.infer<typeof StepCommand>;

/** What debugMode adds to a step's record: its timings and every command it ran. */
export const StepDebug = z.object({
  /** Milliseconds the step waited for a free fleet slot before it ran. */
  queuedMs: z.number().nonnegative(),
  commands: z.array(StepCommand),
});
export type StepDebug = z.infer<typeof StepDebug>;

export const STEP_STATUSES = [
  'running',
  'succeeded',
  'failed',
  'skipped',
  'timed-out',
  'cancelled',
  'cached',
] as const;
export const StepStatus = z.enum(STEP_STATUSES);
export type StepStatus = z.infer<typeof StepStatus>;

/** One job of the pipeline, run by one bot. */
export const BuildStep = z.object({
  name: StepName,
  botName: z.string(),
  status: StepStatus,
  startedAt: z.string(),
  durationMs: z.number().nonnegative().nullable(),
  /** One line on what happened, e.g. "npm ci: reused node_modules (lockfile unchanged)". */
  detail: z.string().nullable(),
  /** 1 for the first run of this step in the build, 2 for a retry after a repair, … */
  attempt: z.number().int().min(1).default(1),
  /** Commands, environment names and timings; recorded only while debugMode is on. */
  debug: StepDebug.nullable().default(null),
});
export type BuildStep = z.infer<typeof BuildStep>;

/** TestBot's result: recorded, never fails the build. */
export const TestReport = z.object({
  ran: z.boolean(),
  passed: z.boolean().nullable(),
  command: z.string().nullable(),
  durationMs: z.number().nonnegative(),
  /** Last lines of output, for the JUnit report and a quick look. */
  outputTail: z.string(),
  /** Why TestBot stopped or skipped the runner (watch mode, no browser), when it did. */
  reason: z.string().optional(),
  /** The project's test cases as read from its runner's report (at most MAX_TEST_CASES). */
  cases: z.array(TestCaseResult).optional(),
  /** Counts of all its cases (also those past the kept ones); absent when none could be read. */
  counts: TestCounts.optional(),
  /** How the cases were read ("Vitest's JUnit report"), or why they could not be. */
  casesSource: z.string().optional(),
});
export type TestReport = z.infer<typeof TestReport>;

/** LintBot's run of the project's lint script: recorded, never fails the build. */
export const LintReport = z.object({
  ran: z.boolean(),
  passed: z.boolean().nullable(),
  command: z.string().nullable(),
  durationMs: z.number().nonnegative(),
  /** Problems the linter counted, when it printed a count. */
  problems: z.number().int().nonnegative().nullable(),
  outputTail: z.string(),
});
export type LintReport = z.infer<typeof LintReport>;

/** UiBot's check of the output. */
export const UiCheck = z.object({
  ok: z.boolean(),
  hasIndexHtml: z.boolean(),
  /** Local assets referenced by HTML that do not exist. */
  missingAssets: z.array(z.string()),
});
export type UiCheck = z.infer<typeof UiCheck>;

/** OptimizationBot's bundle report. */
export const BundleReport = z.object({
  totalBytes: z.number().nonnegative(),
  totalGzipBytes: z.number().nonnegative(),
  files: z.array(
    z.object({ path: z.string(), bytes: z.number(), gzipBytes: z.number(), flagged: z.boolean() }),
  ),
  /** Files above this size are flagged. */
  thresholdBytes: z.number(),
});
export type BundleReport = z.infer<typeof BundleReport>;

/** At most this many paths of each list are kept in the record; the counts say how many there were. */
export const MAX_EXTRACT_REPORT_ITEMS = 100;

/** ExtractBot's account of an upload: what it wrote that is not a plain file, and what it left out. */
export const ExtractReport = z.object({
  /** The single top folder stripped from every path ("myapp"), or null. */
  strippedPrefix: z.string().nullable(),
  /** What never reached the disk, as archive paths: "__MACOSX/", "a/.git/", an installed "node_modules/". */
  leftOut: z.array(z.string()),
  leftOutCount: z.number().int().nonnegative(),
  /** Symbolic links written as links: their project path and target (it leads inside the project). */
  links: z.array(z.object({ path: z.string(), target: z.string() })),
  linkCount: z.number().int().nonnegative(),
  /** Symbolic links left out one by one (outside, absolute, dangling, looping…), each with why. */
  linksLeftOut: z.array(z.object({ path: z.string(), target: z.string().nullable(), reason: z.string() })),
  linksLeftOutCount: z.number().int().nonnegative(),
});
export type ExtractReport = z.infer<typeof ExtractReport>;

/** Errors listed one by one on a failed build; the rest are only counted (BuildError.errorCount). */
export const MAX_LISTED_TOOL_ERRORS = 50;

/** One error a tool printed in the failing step's output (tsc, Vite/Rollup, esbuild, webpack, Babel, ESLint). */
export const ToolError = z.object({
  /** Project-relative file it points at (never a path outside the project); absent when the tool named none. */
  file: z.string().optional(),
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
  /** The tool's own code for it: "TS2322", "UNRESOLVED_IMPORT", "no-undef"… */
  code: z.string().optional(),
  message: z.string(),
  /** Which tool printed it: "tsc", "vite", "esbuild", "webpack", "babel", "eslint", "angular", "turbopack". */
  tool: z.string(),
  /** The error the build's firstLine (and its diagnosis) names: shown first and highlighted. */
  primary: z.boolean().optional(),
});
export type ToolError = z.infer<typeof ToolError>;

/** Why a build did not succeed: a code of the error catalogue (its hint says what to do) and what happened. */
export const BuildError = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  /** The first error line the failing tool printed (shown first everywhere a failure is shown). */
  firstLine: z.string().optional(),
  /** Where that error points, when the tool printed a place: project-relative file, line, column. */
  location: z
    .object({
      file: z.string(),
      line: z.number().int().positive(),
      column: z.number().int().positive().optional(),
    })
    .optional(),
  /** The last lines of the failing command's output (at most 20), for a failure that says little. */
  tail: z.array(z.string()).optional(),
  /** A likely cause Forge knew of before the failure (e.g. the project asks for another Node). */
  probableCause: z.string().optional(),
  /** Every distinct error the failing step's tools printed, in the order printed (at most MAX_LISTED_TOOL_ERRORS). */
  errors: z.array(ToolError).optional(),
  /** How many distinct errors were printed in all (more than `errors` holds when the list was cut). */
  errorCount: z.number().int().nonnegative().optional(),
  /** What to do about this failure, when it is more precise than the catalogue's hint for its code. */
  hint: z.string().optional(),
});
export type BuildError = z.infer<typeof BuildError>;

/** A build record (GET /api/builds/:id). Exists in the store from the first byte of the upload. */
export const Build = z.object({
  id: z.string(),
  projectName: z.string(),
  status: BuildStatus,
  /** Current (or last) stage (docs/product.md#build-states). */
  stage: Stage,
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  durationMs: z.number().nonnegative().nullable(),
  cacheHit: z.boolean(),
  noCache: z.boolean(),
  /** Content hash of the extracted tree + plan. */
  sourceHash: z.string().nullable(),
  /** What the upload's extraction kept and left out (null until extracted, and for builds of a stored source). */
  extraction: ExtractReport.nullable().default(null),
  blueprint: Blueprint.nullable(),
  stages: z.array(StageEvent),
  steps: z.array(BuildStep),
  test: TestReport.nullable(),
  uiCheck: UiCheck.nullable(),
  bundle: BundleReport.nullable(),
  previewUrl: z.string().nullable(),
  cancelReason: CancelReason.nullable(),
  error: BuildError.nullable(),
  /** ScanBot's reading of why it failed (failed and timed-out builds). */
  diagnosis: Diagnosis.nullable().default(null),
  /** Repairs RepairBot made during this build, or proposed for it (autoRepair off). */
  repairs: z.array(Repair).default([]),
  lint: LintReport.nullable().default(null),
  /** Stored log lines, and whether the per-build cap cut some. */
  logCount: z.number().int().nonnegative(),
  logTruncated: z.boolean(),
  /**
   * Where it ran: "local" (the daemon itself) or the name of the `forge worker` that took it; null
   * while it waits for its turn (docs/scale-out.md).
   */
  worker: z.string().nullable().default(null),
  /** The test policy asked for with this build (--tests); null: the forge config's, else required. */
  testsOption: TestsPolicy.nullable().default(null),
  /** What the tests say of a build that succeeded, with counts (null until it ends, and for builds that failed). */
  verdict: TestsVerdict.nullable().default(null),
});
export type Build = z.infer<typeof Build>;

export const BuildsQuery = z.object({
  project: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});
export const BuildIdParams = z.object({ id: z.string().min(1) });
/**
 * A project-relative app folder of a repository of several ("apps/web"), or "." for the project root
 * itself: no absolute path, no "..", forward slashes. Empty or null: Forge picks.
 */
export const AppDir = z
  .string()
  .max(200)
  .regex(
    /^(?:\.\/?|(?!\/)(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9@._\-/ ]*)$/,
    'must be a folder inside the project, such as apps/web, or "." for the project root',
  );

export const StartBuildBody = z.object({
  projectName: z.string().min(1),
  noCache: z.boolean().optional(),
  /** Build this app of a repository of several from now on (null or "": let Forge pick). */
  app: AppDir.nullable().optional(),
  /** What the tests mean for this build's verdict (default: the forge config's, else required). */
  tests: TestsPolicy.optional(),
});
export const BuildLogsQuery = z.object({
  /** Only entries after this sequence number (for following). */
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});
export const BuildLogsResponse = z.object({
  entries: z.array(LogEntry.extend({ seq: z.number().int() })),
  truncated: z.boolean(),
  /** Sequence number to pass as `after` next time. */
  next: z.number().int(),
});
export type BuildLogsResponse = z.infer<typeof BuildLogsResponse>;

/** A project known to the daemon. */
export const Project = z.object({
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastBuild: Build.pick({ id: true, status: true, stage: true, createdAt: true, cacheHit: true }).nullable(),
  hasArtifact: z.boolean(),
});
export type Project = z.infer<typeof Project>;
export const ProjectParams = z.object({ name: z.string().min(1) });

/**
 * The project an answer is about when a request names none: the one the user last chose (an
 * accepted upload, the web's project selector, `forge use`). A background rebuild never changes it.
 */
export const CurrentProject = z.object({
  /** The chosen project, or null while no project has been uploaded. */
  name: z.string().nullable(),
});
export type CurrentProject = z.infer<typeof CurrentProject>;
/** Choose the current project (it must exist). */
export const CurrentProjectBody = z.object({ name: z.string().min(1) });

/** Every bot with its live state (GET /api/bots). */
export const BotInfo = z.object({
  name: z.string(),
  category: z.string(),
  status: z.string(),
  description: z.string(),
  /** What it is doing now, e.g. "build app#12". */
  currentJob: z.string().nullable(),
  jobsRun: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  /** What it last did, for its card ("Scanned app: 3 issues"), when it has done anything. */
  lastJob: z
    .object({ label: z.string(), ok: z.boolean(), at: z.string(), summary: z.string().nullable() })
    .nullable()
    .default(null),
});
export type BotInfo = z.infer<typeof BotInfo>;
