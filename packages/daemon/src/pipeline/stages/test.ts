import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  formatCommand,
  formatDuration,
  type Blueprint,
  type StepStatus,
  type TestReport,
} from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import { browserWrapper, findBrowser } from './test-browser.ts';
import type { Stage } from './types.ts';

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

/**
 * TestBot: run the project's tests as CI runs them (CI=true; CHROME_BIN when the machine has a
 * browser), while the preview is already up. The result is recorded; it never fails the build. A
 * runner that says it watches for changes, waits for a key or has no browser is stopped at once, with
 * the reason in the step and the report, instead of holding the step until its timeout.
 */
export function testStage(deps: { layout: HomeLayout }): Stage<Blueprint, TestReport> {
  return {
    step: 'test',
    bot: 'TestBot',
    label: (projectName) => `test ${projectName}`,
    async run(ctx, bp) {
      const argv = bp.test!;
      const text = formatCommand(argv);
      const env: Record<string, string> = { ...bp.env, CI: 'true' };
      let scratch: string | null = null;
      // What CHROME_BIN runs, for the reason when a runner cannot start it anyway.
      let browser: string | null = env.CHROME_BIN ?? null;
      if (env.CHROME_BIN === undefined) {
        browser = await findBrowser(env.PATH ?? process.env.PATH);
        if (browser) {
          await mkdir(deps.layout.tmpDir, { recursive: true });
          scratch = await mkdtemp(path.join(deps.layout.tmpDir, 'test-browser-'));
          env.CHROME_BIN = await browserWrapper(scratch, browser);
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

      const tail: string[] = [];
      const stop = new AbortController();
      // Set from the output callback; an object keeps TypeScript from narrowing it to its first value.
      const seen: { stall: Stall | null } = { stall: null };
      const result = await ctx
        .run({
          argv,
          cwd: path.join(deps.layout.projectDir(ctx.projectName), bp.appDir),
          env,
          timeoutMs: Math.min(bp.timeoutMs, TEST_TIMEOUT_MS),
          signal: stop.signal,
          // The wrapper's folder must be there inside the sandbox too, and an app of a workspace
          // resolves its packages through the whole project (the root's node_modules, packages/*).
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
        : null;
      const passed = stopped ? null : result.outcome === 'succeeded';
      const report: TestReport = {
        ran: true,
        passed,
        command: text,
        durationMs: result.durationMs,
        outputTail: tail.join('\n'),
        ...(reason ? { reason } : {}),
      };
      ctx.record({ test: report });
      const detail = stopped
        ? stopped.kind === 'browser'
          ? `skipped: ${reason}`
          : reason!
        : passed
          ? 'tests passed'
          : result.outcome === 'timed-out'
            ? 'tests timed out'
            : `tests failed (exit ${result.exitCode ?? result.signal})`;
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
      return { ok: true, value: report, detail, stepStatus };
    },
  };
}
