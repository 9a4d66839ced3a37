import {
  errorHint,
  formatBytes,
  formatDuration,
  isFinished,
  LOCAL_WORKER,
  plural,
  stageLabel,
  testsPolicyOf,
  testsVerdict,
  verdictFails,
  type Build,
  type BuildStatus,
  type CliBuildResult,
  type CliResultError,
  type StageEvent,
  type TestsPolicy,
  type TestsVerdict,
} from '@forge/shared';
import { EXIT, type ExitCode } from '../output.ts';
import { formatTable } from '../table.ts';
import { sanitize, type Tone } from '../terminal.ts';
import { assistantRows, failureRows, formatLocation, logCommand, PRIMARY_MARK } from './failure.ts';
import { statusTone } from './status-tone.ts';

export { statusTone };

/**
 * The build's own error when it did not succeed: the record's (BUILD_FAILED, STAGE_TIMEOUT,
 * CANCELLED, ARCHIVE_*, …) with the first error line the tool printed and where it points, or one
 * said in its place for a record that carries none; with the catalogue's hint on what to do and the
 * command that prints the whole log.
 */
export function buildError(build: Build): CliResultError | undefined {
  const error = recordError(build);
  if (!error) return undefined;
  const hint = build.error?.hint ?? errorHint(error.code);
  return { ...error, ...(hint ? { hint } : {}), logCommand: logCommand(build.id) };
}

function recordError(build: Build): CliResultError | undefined {
  if (build.status === 'succeeded' || !isFinished(build.status)) return undefined;
  if (build.error) {
    const { code, message, firstLine, location, probableCause, errors, errorCount } = build.error;
    return {
      code,
      message,
      ...(firstLine ? { firstLine } : {}),
      ...(location ? { location: formatLocation(location) } : {}),
      ...(probableCause ? { probableCause } : {}),
      ...(errors?.length ? { errors, errorCount: errorCount ?? errors.length } : {}),
    };
  }
  switch (build.status) {
    case 'cancelled':
      return {
        code: 'CANCELLED',
        message: `The build was cancelled${build.cancelReason ? ` (${build.cancelReason})` : ''}.`,
      };
    case 'timed-out':
      return { code: 'STAGE_TIMEOUT', message: 'A stage of the build ran past its timeout.' };
    case 'interrupted':
      return { code: 'BUILD_INTERRUPTED', message: 'The daemon stopped while the build was running.' };
    default:
      return { code: 'BUILD_FAILED', message: 'The build failed.' };
  }
}

/**
 * The --json document of a followed build (`forge upload|build --wait --json`, `forge ci --json`):
 * exactly one on stdout. `error` is the build's own unless the wait ended first (`waitError`);
 * `diagnosis` is ScanBot's reading of a failure (when it made one), `repairs` what RepairBot made
 * during the build or proposes for it (always there, empty when none).
 */
export function toBuildResult(
  build: Build,
  waitError?: CliResultError,
  policy?: TestsPolicy,
): CliBuildResult {
  const tests = verdictOf(build, policy);
  const durations: CliBuildResult['durations'] = {};
  for (const step of build.steps) {
    if (step.durationMs !== null) durations[step.name] = (durations[step.name] ?? 0) + step.durationMs;
  }
  const error = waitError ?? buildError(build) ?? testsError(build, tests);
  return {
    projectName: build.projectName,
    buildId: build.id,
    status: build.status,
    stage: build.stage,
    durations,
    cacheHit: build.cacheHit,
    previewUrl: build.previewUrl,
    ...(error ? { error } : {}),
    ...(build.diagnosis ? { diagnosis: build.diagnosis } : {}),
    ...(tests ? { tests } : {}),
    ...(policy ? { testsPolicy: policy } : {}),
    repairs: (build.repairs ?? []).map(({ id, code, summary, files, status, verification }) => ({
      id,
      code,
      summary,
      files,
      status,
      ...(verification ? { verification } : {}),
    })),
  };
}

/**
 * The build's tests verdict as this command applies it: the record's (the daemon's, with the
 * policy of --tests or the forge config), or for a record without one (a build that failed after
 * its tests ran, an older daemon) the same reading of it; `flag` is the command's --tests, which
 * wins for the exit code.
 */
export function verdictOf(build: Build, flag?: TestsPolicy): TestsVerdict | undefined {
  const verdict = testsVerdict(build);
  if (!verdict || !flag || flag === verdict.policy) return verdict;
  return { ...verdict, policy: flag, policySource: 'option' };
}

/** The policy a command applies: its --tests, else the build's (the forge config's, else required). */
export const appliedPolicy = (build: Build, flag: TestsPolicy | undefined): TestsPolicy =>
  flag ?? testsPolicyOf(build).policy;

/** A build that succeeded with tests its policy requires failing: TESTS_FAILED (exit 7). */
function testsError(build: Build, tests: TestsVerdict | undefined): CliResultError | undefined {
  if (build.status !== 'succeeded' || !verdictFails(tests)) return undefined;
  return {
    code: 'TESTS_FAILED',
    message: `The build succeeded, but its tests failed: ${tests!.summary}.`,
    hint: 'Pass --tests optional (or set "tests": "optional" in the forge config) to report failing tests without failing the run.',
    logCommand: logCommand(build.id),
  };
}

/**
 * Exit code of a finished build: 0 succeeded, 1 failed (or interrupted by a daemon restart),
 * 4 timed out, 5 cancelled; 7 succeeded with failing tests its policy requires (`tests`: verdictOf).
 */
export function buildExitCode(status: BuildStatus, tests?: TestsVerdict): ExitCode {
  switch (status) {
    case 'succeeded':
      return verdictFails(tests) ? EXIT.testsFailed : EXIT.ok;
    case 'timed-out':
      return EXIT.timedOut;
    case 'cancelled':
      return EXIT.cancelled;
    default:
      return EXIT.failure;
  }
}

const stageTone = (stage: string): Tone | undefined =>
  stage === 'build-failed' || stage === 'build-timeout'
    ? 'bad'
    : stage === 'build-success' || stage === 'no-build-needed' || stage === 'integration-available'
      ? 'good'
      : undefined;

/** Milliseconds from the build's creation to `at`, by the daemon's clock; null if either is unreadable. */
export function elapsedSince(createdAt: string, at: string): number | null {
  const ms = Date.parse(at) - Date.parse(createdAt);
  return Number.isNaN(ms) ? null : Math.max(0, ms);
}

/** A stage transition: `  +1.2s  Building` (time since the build was created). */
export function formatStageLine(event: StageEvent, build: Pick<Build, 'createdAt'>, paint: Paint): string {
  const ms = elapsedSince(build.createdAt, event.at);
  const time = ms === null ? '' : `+${formatDuration(ms)}`;
  return `  ${paint('dim', time.padStart(7))}  ${paint(stageTone(event.stage), stageLabel(event.stage))}`;
}

type Paint = (tone: Tone | undefined, text: string) => string;

const FACT_TONE: Record<string, Tone | undefined> = {
  error: 'bad',
  [PRIMARY_MARK]: 'bad',
  diagnosis: 'warn',
  repaired: 'good',
};

const VERDICT_TONE: Record<TestsVerdict['status'], (v: TestsVerdict) => Tone | undefined> = {
  passed: () => 'good',
  failed: (v) => (verdictFails(v) ? 'bad' : 'warn'),
  none: () => undefined,
  skipped: () => undefined,
};

/**
 * "failed: 1 failed, 2 passed (npm test) in 1.2s · required (default) → exit 7": the tests' verdict
 * in one line (`took`: how long they ran, when they did).
 */
export function verdictLine(v: TestsVerdict, took = ''): string {
  const policy =
    v.policySource === 'option'
      ? `--tests ${v.policy}`
      : v.policySource === 'config'
        ? `"tests": "${v.policy}" (forge config)`
        : `${v.policy} (default)`;
  const effect = verdictFails(v) ? ' → exit 7' : v.status === 'failed' ? ' → reported only' : '';
  const summary = v.summary.startsWith(v.status)
    ? sanitize(v.summary)
    : `${v.status}: ${sanitize(v.summary)}`;
  // Without tests, or skipped by the policy itself, the policy has nothing to add.
  return v.status === 'none' || v.policy === 'skip' ? summary : `${summary}${took} · ${policy}${effect}`;
}

/**
 * The end of `--wait` on stderr: status, the worker that ran it, time, cache hit, every step with its bot and duration, the
 * reports of TestBot, UiBot and OptimizationBot, the preview URL and the error if any (its first
 * error line with file:line first, then the message, the hint and `forge logs <id>`).
 */
export function formatBuildSummary(build: Build, paint: Paint, flag?: TestsPolicy): string[] {
  // Only a `forge worker` is worth naming: "local" is what every build says without scale-out.
  const where = build.worker === null || build.worker === LOCAL_WORKER ? '' : ` on ${sanitize(build.worker)}`;
  const took = build.durationMs === null ? '' : ` in ${formatDuration(build.durationMs)}`;
  const cache = build.cacheHit ? ' (cache hit)' : '';
  const lines = [
    `${paint(statusTone(build.status), `Build ${build.status}`)}: ${sanitize(build.projectName)}, build ${build.id}${where}${took}${cache}`,
  ];
  if (build.steps.length > 0) {
    const rows = build.steps.map((step) => [
      step.name,
      step.botName,
      step.durationMs === null ? '-' : formatDuration(step.durationMs),
      { text: step.status, tone: statusTone(step.status === 'cached' ? 'succeeded' : step.status) },
      sanitize(step.detail ?? ''),
    ]);
    lines.push(...formatTable(['STEP', 'BOT', 'TIME', 'RESULT', 'DETAIL'], rows, paint).map((l) => `  ${l}`));
  }
  const facts: [string, string][] = [];
  const tests = verdictOf(build, flag);
  if (tests) {
    const took = build.test?.ran ? ` in ${formatDuration(build.test.durationMs)}` : '';
    facts.push(['tests', verdictLine(tests, took)]);
  }
  if (build.uiCheck) {
    const missing = build.uiCheck.missingAssets;
    facts.push([
      'ui check',
      build.uiCheck.ok
        ? 'ok'
        : !build.uiCheck.hasIndexHtml
          ? 'no index.html in the output'
          : `missing assets: ${missing.map(sanitize).join(', ')}`,
    ]);
  }
  if (build.bundle) {
    const flagged = build.bundle.files.filter((f) => f.flagged).length;
    facts.push([
      'output',
      `${plural(build.bundle.files.length, 'file')}, ${formatBytes(build.bundle.totalBytes)} (gzip ${formatBytes(build.bundle.totalGzipBytes)})` +
        (flagged > 0 ? `; ${flagged} over ${formatBytes(build.bundle.thresholdBytes)}` : ''),
    ]);
  }
  if (build.cancelReason) facts.push(['cancelled', build.cancelReason]);
  if (build.error) {
    // The first error line comes first, then what Forge says of it, then where the whole log is.
    facts.push(...failureRows(build.error));
    // ScanBot's reading (the diagnosis, file:line, what to do) and RepairBot's repairs, made or proposed.
    facts.push(...assistantRows(build));
    const hint = build.error.hint ?? errorHint(build.error.code);
    if (hint) facts.push(['hint', hint]);
    const cut = build.logTruncated ? ` (stored log truncated at ${build.logCount} lines)` : '';
    facts.push(['log', `${logCommand(build.id)}${cut}`]);
  } else {
    // A build that succeeded after RepairBot's repairs says what was changed.
    facts.push(...assistantRows(build));
    if (build.logTruncated) facts.push(['log', `truncated at ${build.logCount} lines`]);
  }
  if (build.previewUrl) facts.push(['preview', build.previewUrl]);
  const width = Math.max(0, ...facts.map(([k]) => k.length));
  const tone = (k: string): Tone | undefined =>
    k === 'tests' && tests ? VERDICT_TONE[tests.status](tests) : FACT_TONE[k];
  for (const [k, v] of facts) lines.push(`  ${k.padEnd(width)}  ${paint(tone(k), v)}`);
  return lines;
}
