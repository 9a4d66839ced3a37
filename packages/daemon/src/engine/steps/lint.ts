import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  formatCommand,
  formatDuration,
  sanitizeLine,
  type Blueprint,
  type LintReport,
  type StepStatus,
} from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import { runScript } from '../../capabilities/detect/command-line.ts';
import type { Step } from './types.ts';

/** LintBot never waits longer than this, whatever the project's stage timeout. */
export const LINT_TIMEOUT_MS = 3 * 60_000;
/** Lines of lint output kept in the build record. */
export const LINT_TAIL_LINES = 40;

/**
 * The problem count a linter printed, from its summary line: ESLint ("✖ 12 problems (3 errors, 9
 * warnings)"), Next.js ("✔ No ESLint warnings or errors"), oxlint ("Found 2 warnings and 3 errors."),
 * Biome ("Found 3 errors.", "Found 1 warning."), stylelint ("✖ 4 problems (4 errors, 0 warnings)"),
 * tsc ("Found 2 errors in 1 file."). A script that runs several linters prints one summary each:
 * they are added up. Null when nothing printed a count.
 */
export function lintProblems(lines: readonly string[]): number | null {
  let total: number | null = null;
  const add = (n: number) => (total = (total ?? 0) + n);
  for (const raw of lines) {
    const line = sanitizeLine(raw);
    // The package manager's echo of the script ("> eslint .", yarn's "$ eslint .") is not output.
    if (/^\s*[>$] /.test(line)) continue;
    const eslint = /(\d+) problems? \(\d+ errors?, \d+ warnings?\)/.exec(line);
    if (eslint) {
      add(Number(eslint[1]));
      continue;
    }
    if (/\bNo ESLint warnings or errors\b/.test(line)) {
      add(0);
      continue;
    }
    const found = /^\s*Found (\d+) (errors?|warnings?)(?: and (\d+) (errors?|warnings?))?\b/.exec(line);
    if (found) add(Number(found[1]) + (found[3] ? Number(found[3]) : 0));
  }
  return total;
}

/** The app's package.json scripts, or {} when it has none that can be read. */
async function scriptsOf(appDir: string): Promise<Record<string, unknown>> {
  try {
    const pkg = JSON.parse(await readFile(path.join(appDir, 'package.json'), 'utf8')) as unknown;
    const scripts = (pkg as { scripts?: unknown } | null)?.scripts;
    return typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * LintBot: run the project's own `lint` script, as CI does (CI=1), with its package manager, in the
 * app's folder. The result is recorded — passed, the problems counted, the last lines — and never
 * fails the build: a lint failure is the step's status only. No lint script: skipped.
 */
export function lintStep(deps: { layout: HomeLayout }): Step<Blueprint, LintReport> {
  return {
    name: 'lint',
    bot: 'LintBot',
    label: (projectName) => `lint ${projectName}`,
    async run(ctx, bp) {
      const projectDir = deps.layout.projectDir(ctx.projectName);
      const cwd = path.join(projectDir, bp.appDir);
      const scripts = await scriptsOf(cwd);
      if (typeof scripts.lint !== 'string' || !bp.packageManager) {
        const report: LintReport = {
          ran: false,
          passed: null,
          command: null,
          durationMs: 0,
          problems: null,
          outputTail: '',
        };
        ctx.record({ lint: report });
        return { ok: true, value: report, detail: 'no "lint" script', stepStatus: 'skipped' };
      }
      const argv = runScript(bp.packageManager, 'lint');
      const text = formatCommand(argv);
      const tail: string[] = [];
      const lines: string[] = [];
      const result = await ctx.run({
        argv,
        cwd,
        env: { ...bp.env, CI: '1' },
        timeoutMs: Math.min(bp.timeoutMs, LINT_TIMEOUT_MS),
        // An app of a workspace lints with tools installed at the project's root.
        ...(bp.appDir !== '.' ? { writable: [projectDir] } : {}),
        onLine: (line) => {
          tail.push(line.text);
          if (tail.length > LINT_TAIL_LINES) tail.shift();
          // Summary lines are short; a linter's own report can be long, so only those are kept to count.
          if (line.text.length < 300 && /\bproblems?\b|\bFound \d|No ESLint/.test(line.text))
            lines.push(line.text);
        },
      });
      const passed = result.outcome === 'succeeded';
      const problems = lintProblems(lines);
      const report: LintReport = {
        ran: true,
        passed,
        command: text,
        durationMs: result.durationMs,
        problems,
        outputTail: tail.join('\n'),
      };
      ctx.record({ lint: report });
      const counted = problems === null ? '' : `, ${problems} problem${problems === 1 ? '' : 's'}`;
      const took = formatDuration(result.durationMs);
      const detail = passed
        ? `lint passed${counted} (${took})`
        : result.outcome === 'timed-out'
          ? `lint timed out after ${took}`
          : result.outcome === 'cancelled'
            ? 'lint cancelled'
            : `lint failed (${result.error ?? `exit ${result.exitCode ?? result.signal}`}${counted})`;
      const stepStatus: Exclude<StepStatus, 'running'> = passed
        ? 'succeeded'
        : result.outcome === 'timed-out'
          ? 'timed-out'
          : result.outcome === 'cancelled'
            ? 'cancelled'
            : 'failed';
      ctx.log(passed ? 'success' : 'warn', `${text}: ${detail} (recorded; the build goes on)`);
      return { ok: true, value: report, detail, stepStatus };
    },
  };
}
