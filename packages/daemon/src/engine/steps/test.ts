import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import {
  formatCommand,
  formatDuration,
  formatTestCounts,
  plural,
  TEST_REPORT_PLACEHOLDER,
  writeDuration,
  type Blueprint,
  type StepStatus,
  type TestCounts,
  type TestReport,
} from '@forge/shared';
import {
  readTestResults,
  reportName,
  type TestResults,
} from '../../capabilities/test-results/read-results.ts';
import type { HomeLayout } from '../../home-layout.ts';
import { browserWrapper, findBrowser } from './test-browser.ts';
import type { Step } from './types.ts';

/** TestBot never waits longer than this, whatever the project's stage timeout. */
export const TEST_TIMEOUT_MS = 5 * 60_000;
/** Lines of test output kept in the build record (and the JUnit report). */
export const TEST_TAIL_LINES = 60;

/** Why a runner will not end by itself: it watches (or waits for a key), or its browser is missing. */
export interface Stall {
  kind: 'watch' | 'browser';
  /** What the runner printed that says so, in words. */
  reason: string;
  /** The switch that skips this tool's download at install, when the plan may have set it. */
  skippedBy?: string;
}

/**
 * Output that means a test runner will not end on its own. Only these stop a runner early: one that
 * prints nothing for a long time is left to its timeout, since slow suites are silent too. The watch
 * patterns are anchored the way runners print them (a line of its own, or its end), so a test called
 * "press q to quit closes the dialog" is not one.
 */
const STALLS: ReadonlyArray<{ pattern: RegExp; stall: (m: RegExpExecArray) => Stall }> = [
  {
    pattern: /^\s*Watch Usage\b/,
    stall: () => ({ kind: 'watch', reason: 'Jest entered watch mode ("Watch Usage")' }),
  },
  {
    pattern: /^\s*(?:›\s*)?(press (?:q to quit|h to show help))\b/i,
    stall: (m) => ({ kind: 'watch', reason: `the runner waits for a key press ("${m[1]}")` }),
  },
  {
    pattern: /\b((?:waiting|watching) for (?:file )?changes)(?:\s*(?:\.{1,3}|…))?\s*$/i,
    stall: (m) => ({ kind: 'watch', reason: `the runner watches for changes ("${m[1]}")` }),
  },
  {
    pattern: /^\s*Watch mode enabled\b/i,
    stall: () => ({ kind: 'watch', reason: 'the runner watches for changes ("Watch mode enabled")' }),
  },
  {
    pattern: /\bNo binary for (\S+) browser\b/,
    stall: (m) => ({ kind: 'browser', reason: `Karma found no binary for ${m[1]}` }),
  },
  {
    pattern: /\bCannot start (\S*Chrom\S*)/i,
    stall: (m) => ({ kind: 'browser', reason: `Karma cannot start ${m[1]}` }),
  },
  {
    pattern: /\bCan ?not find the binary\b/i,
    stall: () => ({ kind: 'browser', reason: 'the runner cannot find the browser binary' }),
  },
  {
    pattern: /\bset "?CHROME_BIN"? env/i,
    stall: () => ({ kind: 'browser', reason: 'the runner asks for CHROME_BIN: it found no Chrome' }),
  },
  {
    pattern: /\bspawn \S*chrom\S* ENOENT\b|\bENOENT: no such file or directory\b.*chrom/i,
    stall: () => ({ kind: 'browser', reason: 'Chrome is not where the runner looked (ENOENT)' }),
  },
  {
    pattern: /\bCould not find (?:Chrome|Chromium|expected browser)\b/i,
    stall: (m) => ({
      kind: 'browser',
      reason: `the runner says "${m[0]}"`,
      skippedBy: 'PUPPETEER_SKIP_DOWNLOAD',
    }),
  },
  {
    pattern: /\bRunning as root without --no-sandbox is not supported\b/,
    stall: () => ({ kind: 'browser', reason: 'Chrome refuses to run as root without --no-sandbox' }),
  },
  {
    pattern: /\bExecutable doesn't exist at \S*ms-playwright/,
    stall: () => ({
      kind: 'browser',
      reason: "Playwright's browser is not installed",
      skippedBy: 'PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD',
    }),
  },
  {
    pattern:
      /\bThe cypress npm package is installed, but the Cypress binary is missing\b|\bNo version of Cypress is installed in\b/,
    stall: () => ({
      kind: 'browser',
      reason: "Cypress's test runner binary is not installed",
      skippedBy: 'CYPRESS_INSTALL_BINARY',
    }),
  },
];

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** The stall a line of test output shows, if any (colour and cursor codes aside). */
export function recogniseStall(line: string): Stall | null {
  const text = line.replace(ANSI, '');
  for (const { pattern, stall } of STALLS) {
    const match = pattern.exec(text);
    if (match) return stall(match);
  }
  return null;
}

/** The command asks for Chrome itself (`--browsers=ChromeHeadless`): without one it cannot run at all. */
export const needsChrome = (argv: readonly string[]): boolean =>
  argv.some((arg) => /^--browsers=.*Chrom/i.test(arg));

const NO_BROWSER =
  'this machine has no Chrome or Chromium (install chromium, or set CHROME_BIN in the forge config env)';
const RUN_ONCE =
  'run it once, as CI does (vitest run, jest --ci, ng test --watch=false, karma start --single-run)';

/** Node's test runner writes JUnit from these releases on (Node 20.13, 21.3 and later). */
const NODE_JUNIT = '^20.13.0 || >=21.3.0';

/** The largest report TestBot reads (a report past it is named, not read). */
const MAX_REPORT_BYTES = 32 * 1024 * 1024;

/** The test command with the report's arguments and environment, when its cases can be read here. */
function withReporter(
  bp: Blueprint,
  env: Record<string, string>,
  report: string,
): { argv: string[]; env: Record<string, string> } | { skip: string } {
  const plan = bp.testResults!;
  if (plan.runner === 'node') {
    const version = bp.node?.resolved?.version ?? process.versions.node;
    if (!semver.satisfies(version, NODE_JUNIT)) {
      return { skip: `Node ${version} has no JUnit test reporter (Node 20.13 and later do)` };
    }
  }
  const fill = (text: string) => text.replaceAll(TEST_REPORT_PLACEHOLDER, report);
  const added = Object.fromEntries(Object.entries(plan.env).map(([k, v]) => [k, fill(v)]));
  // NODE_OPTIONS the project sets itself stays, after ours.
  if (added.NODE_OPTIONS && env.NODE_OPTIONS)
    added.NODE_OPTIONS = `${added.NODE_OPTIONS} ${env.NODE_OPTIONS}`;
  return { argv: [...bp.test!, ...plan.args.map(fill)], env: { ...env, ...added } };
}

/** The cases the runner wrote to `report`, or why there are none to read. */
async function readReport(
  bp: Blueprint,
  report: string,
  cwd: string,
): Promise<{ results: TestResults; source: string } | { note: string }> {
  const plan = bp.testResults!;
  const name = reportName(plan);
  const info = await stat(report).catch(() => null);
  if (!info) return { note: `the runner wrote no ${name}` };
  if (info.size > MAX_REPORT_BYTES) return { note: `${name} is over ${MAX_REPORT_BYTES / 1024 / 1024} MB` };
  try {
    const results = readTestResults(plan, await readFile(report, 'utf8'), cwd);
    if (results.counts.total === 0) return { note: `${name} lists no test case` };
    return { results, source: name };
  } catch (err) {
    return { note: `${name} could not be read: ${(err as Error).message}` };
  }
}

/** "3 failed, 12 passed" when the cases were read; else how the command ended. */
function outcomeText(passed: boolean, counts: TestCounts | undefined, exit: string): string {
  if (counts) return formatTestCounts(counts);
  return passed ? 'passed' : `failed (${exit})`;
}

/**
 * TestBot: run the project's tests as CI runs them (CI=true; CHROME_BIN when the machine has a
 * browser), while the preview is already up, with the runner's machine-readable reporter beside its
 * usual one when the plan found how (detect/test-results.ts), so the build holds the project's own
 * test cases. The result is recorded; it never fails the build (its verdict is the tests' own,
 * features/builds/test-verdict.ts). A runner that says it watches for changes, waits for a key or has
 * no browser is stopped at once, with the reason in the step and the report, instead of holding the
 * step until its timeout.
 */
export function testStep(deps: { layout: HomeLayout }): Step<Blueprint, TestReport> {
  return {
    name: 'test',
    bot: 'TestBot',
    label: (projectName) => `test ${projectName}`,
    async run(ctx, bp) {
      let argv = bp.test!;
      const text = formatCommand(argv);
      let env: Record<string, string> = { ...bp.env, CI: 'true' };
      const cwd = path.join(deps.layout.projectDir(ctx.projectName), bp.appDir);
      let scratch: string | null = null;
      const scratchDir = async (): Promise<string> => {
        if (scratch) return scratch;
        await mkdir(deps.layout.tmpDir, { recursive: true });
        scratch = await mkdtemp(path.join(deps.layout.tmpDir, 'test-'));
        return scratch;
      };
      // What CHROME_BIN runs, for the reason when a runner cannot start it anyway.
      let browser: string | null = env.CHROME_BIN ?? null;
      if (env.CHROME_BIN === undefined) {
        browser = await findBrowser(env.PATH ?? process.env.PATH);
        if (browser) {
          env.CHROME_BIN = await browserWrapper(await scratchDir(), browser);
          ctx.log('info', `CHROME_BIN: ${browser} (headless, --no-sandbox)`);
        } else if (needsChrome(argv)) {
          const reason = `${text} runs its tests in Chrome, and ${NO_BROWSER}`;
          const report: TestReport = {
            ran: false,
            passed: null,
            command: text,
            durationMs: 0,
            outputTail: '',
            reason,
          };
          ctx.record({ test: report });
          ctx.log('warn', `Tests skipped: ${reason} (recorded; the build goes on)`);
          return { ok: true, value: report, detail: `skipped: ${reason}`, stepStatus: 'skipped' };
        }
      }

      // The runner's own report of its cases, beside its usual output.
      let report: string | null = null;
      let casesNote: string | null = null;
      if (bp.testResults) {
        const file = path.join(
          await scratchDir(),
          bp.testResults.format === 'jest-json' ? 'results.json' : 'junit.xml',
        );
        const added = withReporter(bp, env, file);
        if ('skip' in added) casesNote = added.skip;
        else {
          ({ argv, env } = added);
          report = file;
        }
      }

      const tail: string[] = [];
      const stop = new AbortController();
      // Set from the output callback; an object keeps TypeScript from narrowing it to its first value.
      const seen: { stall: Stall | null } = { stall: null };
      let read: Awaited<ReturnType<typeof readReport>> | null = null;
      const result = await ctx
        .run({
          argv,
          cwd,
          env,
          timeoutMs: Math.min(bp.timeoutMs, TEST_TIMEOUT_MS),
          signal: stop.signal,
          // The scratch folder (browser wrapper, report) must be there inside the sandbox too, and an
          // app of a workspace resolves its packages through the whole project (the root's
          // node_modules, packages/*).
          ...(scratch || bp.appDir !== '.'
            ? {
                writable: [
                  ...(scratch ? [scratch] : []),
                  ...(bp.appDir !== '.' ? [deps.layout.projectDir(ctx.projectName)] : []),
                ],
              }
            : {}),
          onLine: (line) => {
            tail.push(line.text);
            if (tail.length > TEST_TAIL_LINES) tail.shift();
            if (seen.stall) return;
            seen.stall = recogniseStall(line.text);
            if (seen.stall) stop.abort(seen.stall);
          },
        })
        .then(async (r) => {
          if (report) read = await readReport(bp, report, cwd);
          return r;
        })
        .finally(() => (scratch ? rm(scratch, { recursive: true, force: true }) : undefined));
      const after = formatDuration(result.durationMs);
      // The build's own cancel is the engine's business; only our stop is reported here.
      const stopped = ctx.signal.aborted ? null : seen.stall;
      const skipped =
        stopped?.skippedBy && bp.env[stopped.skippedBy] !== undefined ? stopped.skippedBy : null;
      const reason = stopped
        ? stopped.kind === 'browser'
          ? `stopped after ${after}: ${stopped.reason}; ${
              skipped
                ? `the install skipped its download (${skipped}=${bp.env[skipped]}, the plan's binaryDownload decision): building does not need it`
                : browser
                  ? `CHROME_BIN runs ${browser}`
                  : NO_BROWSER
            }`
          : `stopped after ${after}: ${stopped.reason} and would never end; ${RUN_ONCE}`
        : result.outcome === 'timed-out'
          ? `timed out after ${writeDuration(Math.min(bp.timeoutMs, TEST_TIMEOUT_MS))}, before the runner said how its tests ended`
          : null;
      const passed = stopped ? null : result.outcome === 'succeeded';
      const got = read as Awaited<ReturnType<typeof readReport>> | null;
      const results = got && 'results' in got ? got.results : null;
      if (got && 'note' in got) casesNote = got.note;
      const report_: TestReport = {
        ran: true,
        passed,
        command: text,
        durationMs: result.durationMs,
        outputTail: tail.join('\n'),
        ...(reason ? { reason } : {}),
        ...(results ? { cases: results.cases, counts: results.counts } : {}),
        ...(results && got && 'source' in got
          ? { casesSource: got.source }
          : casesNote
            ? { casesSource: `no cases read: ${casesNote}` }
            : {}),
      };
      ctx.record({ test: report_ });
      if (results) logCases(ctx, results, (got as { source: string }).source);
      else if (casesNote)
        ctx.log('info', `Test cases not read: ${casesNote}; the output tail stands for them.`);
      const exit = result.exitCode !== null ? `exit ${result.exitCode}` : String(result.signal);
      const detail = stopped
        ? stopped.kind === 'browser'
          ? `skipped: ${reason}`
          : reason!
        : passed
          ? results
            ? `tests passed: ${formatTestCounts(results.counts)}`
            : 'tests passed'
          : result.outcome === 'timed-out'
            ? 'tests timed out'
            : results
              ? `tests failed: ${outcomeText(false, results.counts, exit)}`
              : `tests failed (${exit})`;
      const stepStatus: Exclude<StepStatus, 'running'> = stopped
        ? stopped.kind === 'browser'
          ? 'skipped'
          : 'failed'
        : passed
          ? 'succeeded'
          : result.outcome === 'timed-out'
            ? 'timed-out'
            : 'failed';
      ctx.log(passed ? 'success' : 'warn', `${text}: ${detail} (recorded; the build goes on)`);
      return {
        ok: true,
        value: report_,
        detail,
        stepStatus,
        summary:
          stepStatus === 'skipped'
            ? 'tests skipped'
            : stopped
              ? 'ran tests: stopped (the runner would never end)'
              : result.outcome === 'timed-out'
                ? 'ran tests: timed out'
                : `ran tests: ${outcomeText(passed === true, results?.counts, exit)}`,
      };
    },
  };
}

/** The cases read, in the build's log: the count, and each failure with its message. */
function logCases(
  ctx: Parameters<Step<Blueprint, TestReport>['run']>[0],
  results: TestResults,
  source: string,
) {
  const { counts } = results;
  ctx.log('info', `Read ${plural(counts.total, 'test case')} from ${source}: ${formatTestCounts(counts)}.`);
  for (const c of results.cases.filter((c) => c.status === 'failed' || c.status === 'error').slice(0, 20)) {
    const where = c.classname ? `${c.classname} › ` : '';
    ctx.log('warn', `✖ ${where}${c.name}${c.message ? `: ${c.message}` : ''}`);
  }
}
