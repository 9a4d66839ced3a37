import { z } from 'zod';
import { BuildStatus, StepName, ToolError } from './builds.ts';
import { Stage } from './stage.ts';
import { Diagnosis, Repair } from './assistants.ts';
import { TestsPolicy, TestsVerdict } from './tests-verdict.ts';

/**
 * The one JSON document `forge upload|build --wait --json` and `forge ci --json` print on stdout,
 * whatever happened: a build result, a refused upload, or an error before any build was followed.
 * `status` tells them apart; a CI script reads `.status` and `.error.code`.
 */

/**
 * Codes the CLI itself puts in `error.code` (every other code comes from the daemon: the error
 * catalogue, or a build record's error such as BUILD_FAILED, STAGE_TIMEOUT, CANCELLED).
 */
export const CLI_ERROR_CODES = {
  /** `--timeout` elapsed before the build finished (exit 4); the build status says whether it was cancelled. */
  WAIT_TIMEOUT: 'WAIT_TIMEOUT',
  /** Ctrl+C (SIGINT) or SIGTERM stopped forge while it waited (exit 130). */
  WAIT_INTERRUPTED: 'WAIT_INTERRUPTED',
  /** No daemon answered, or forge ci could not start its private one (exit 3). */
  DAEMON_UNREACHABLE: 'DAEMON_UNREACHABLE',
  /** The command line, or a file named on it, is wrong (exit 2). */
  USAGE: 'USAGE',
  /** The daemon answered something this forge does not understand (exit 1). */
  PROTOCOL_ERROR: 'PROTOCOL_ERROR',
  /** Anything else that went wrong in forge (exit 1). */
  UNEXPECTED: 'UNEXPECTED',
  /** The build succeeded and the project's tests failed, with tests required (exit 7). */
  TESTS_FAILED: 'TESTS_FAILED',
  /** forge verify: the signature, the statement or the artifact's digest does not check out (exit 1). */
  VERIFY_FAILED: 'VERIFY_FAILED',
  /** forge verify: no provenance statement beside the artifact nor given with --statement (exit 2). */
  STATEMENT_NOT_FOUND: 'STATEMENT_NOT_FOUND',
  /** forge verify --rebuild: the rebuilt artifact differs from the statement's subject (exit 8). */
  REBUILD_DIFFERS: 'REBUILD_DIFFERS',
} as const;

/** What went wrong: a stable code and a sentence for people. */
export const CliResultError = z.object({
  /** A daemon error code (ARCHIVE_PATH_TRAVERSAL, BUILD_FAILED, STAGE_TIMEOUT, …) or a CLI_ERROR_CODES one. */
  code: z.string(),
  message: z.string(),
  /** What to do about it, when there is advice. */
  hint: z.string().optional(),
  /** The first error line the failing tool printed, with its place when it gave one. */
  firstLine: z.string().optional(),
  /** "src/App.tsx:12:5": where the first error points, relative to the project root. */
  location: z.string().optional(),
  /** A likely cause Forge knew of before the failure (e.g. the project asks for another Node). */
  probableCause: z.string().optional(),
  /** The command that prints the whole log, e.g. "forge logs b_123". */
  logCommand: z.string().optional(),
  /** Every distinct error the failing tools printed (the build record's error.errors), the primary first-flagged. */
  errors: z.array(ToolError).optional(),
  /** How many distinct errors were printed in all (more than `errors` holds when the list was cut). */
  errorCount: z.number().int().nonnegative().optional(),
});
export type CliResultError = z.infer<typeof CliResultError>;

/** Files `forge ci` wrote (absent for the other commands). */
const ciFiles = {
  /** Absolute path of the build output ZIP written with `-o`; null when none was written (the build did not succeed). */
  artifact: z.string().nullable().optional(),
  /** forge ci --provenance: the signed statement, the SBOM and the public key written beside the artifact. */
  provenance: z
    .object({ statement: z.string(), sbom: z.string(), publicKey: z.string() })
    .nullable()
    .optional(),
  /** Absolute path of the JUnit report written with `--junit`. */
  junit: z.string().optional(),
};

/** A build that was followed: to its end, or until --timeout or Ctrl+C stopped the wait. */
export const CliBuildResult = z.object({
  projectName: z.string(),
  buildId: z.string(),
  /** The build's status when forge stopped following it: `running` or `queued` after a wait that timed out or was interrupted. */
  status: BuildStatus,
  /** The last stage the build reached (docs/product.md#build-states). */
  stage: Stage,
  /** Milliseconds per pipeline step that ran (extract, detect, install, build, test, check, optimize, preview). */
  durations: z.partialRecord(StepName, z.number().nonnegative()),
  /** The output was reused from an identical earlier build. */
  cacheHit: z.boolean(),
  /** Address of the live preview; null when none is served. */
  previewUrl: z.string().nullable(),
  /**
   * Present whenever the build did not succeed, or the wait ended first: the build's own error
   * (BUILD_FAILED, STAGE_TIMEOUT, CANCELLED, …), or WAIT_TIMEOUT / WAIT_INTERRUPTED; and
   * TESTS_FAILED for a build that succeeded with failing tests the policy requires.
   */
  error: CliResultError.optional(),
  /** ScanBot's reading of the failure: code, summary, file/line (relative to the project root), suggestion. */
  diagnosis: Diagnosis.optional(),
  /** Repairs RepairBot made during the build (or proposed: `forge fix <buildId>` applies them). */
  repairs: z
    .array(
      Repair.pick({ id: true, code: true, summary: true, files: true, status: true, verification: true }),
    )
    .optional(),
  /** What the project's tests say, with counts when known (absent when the build never reached its tests). */
  tests: TestsVerdict.optional(),
  /** Whether that verdict decided the exit code (--tests, else the forge config's "tests", else required). */
  testsPolicy: TestsPolicy.optional(),
  ...ciFiles,
});
export type CliBuildResult = z.infer<typeof CliBuildResult>;

/** The archive was refused (exit 6): by forge's own checks, or by the daemon (any 4xx answer to the upload). */
export const CliRefusedResult = z.object({
  status: z.literal('refused'),
  /** The ZIP as named on the command line. */
  file: z.string().optional(),
  /** INVALID_FILE_TYPE, FILE_TOO_LARGE, ARCHIVE_*, BLUEPRINT_*, … */
  error: CliResultError,
  ...ciFiles,
});
export type CliRefusedResult = z.infer<typeof CliRefusedResult>;

/** Something other than the build went wrong (daemon unreachable, unknown project, …); no build result. */
export const CliErrorResult = z.object({
  status: z.literal('error'),
  projectName: z.string().optional(),
  buildId: z.string().optional(),
  error: CliResultError,
  ...ciFiles,
});
export type CliErrorResult = z.infer<typeof CliErrorResult>;

/** The `--json` document of the commands that follow builds. */
export const CliResult = z.discriminatedUnion('status', [CliBuildResult, CliRefusedResult, CliErrorResult]);
export type CliResult = z.infer<typeof CliResult>;
