import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Blueprint, DEFAULT_SETTINGS, type LintReport } from '@forge/shared';
import { homeLayout } from '../../home-layout.ts';
import { runCommand } from '../../capabilities/exec/index.ts';
import { lintProblems, lintStep } from './lint.ts';
import type { RecordPatch, StepContext } from './types.ts';

describe('counting lint problems', () => {
  it.each([
    [['', '✖ 12 problems (3 errors, 9 warnings)', '  3 errors and 0 warnings potentially fixable'], 12],
    [['\u001b[31m\u001b[1m✖ 1 problem (1 error, 0 warnings)\u001b[22m\u001b[39m'], 1],
    [['✔ No ESLint warnings or errors'], 0],
    [['Found 2 warnings and 3 errors.'], 5],
    [['Found 3 errors.'], 3],
    [['Found 2 errors in 1 file.'], 2],
    // Two linters in one script: their counts add up.
    [['✖ 4 problems (4 errors, 0 warnings)', 'Found 1 warning.'], 5],
    [['src/a.js', '  1:7  error  x is never reassigned  prefer-const'], null],
    [[], null],
    // npm echoes the script it runs: that line is not the linter's summary.
    [
      [
        '> node -e "console.log(\'✖ 12 problems (3 errors, 9 warnings)\')"',
        '✖ 12 problems (3 errors, 9 warnings)',
      ],
      12,
    ],
  ])('%j → %s', (lines, count) => {
    expect(lintProblems(lines)).toBe(count);
  });
});

describe('LintBot', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A FORGE_HOME with one project "app" whose package.json has these scripts. */
  function home(scripts: Record<string, string>) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-lint-'));
    dirs.push(dir);
    const layout = homeLayout(dir);
    fs.mkdirSync(layout.projectDir('app'), { recursive: true });
    fs.writeFileSync(
      path.join(layout.projectDir('app'), 'package.json'),
      JSON.stringify({ name: 'app', private: true, scripts }),
    );
    return layout;
  }

  /** A step context that runs commands for real (unsandboxed) and keeps what the step records. */
  function context() {
    const recorded: RecordPatch[] = [];
    const logs: string[] = [];
    const ctx: StepContext = {
      buildId: 'b1-test',
      projectName: 'app',
      signal: new AbortController().signal,
      settings: DEFAULT_SETTINGS,
      build: () => {
        throw new Error('not used');
      },
      log: (_level, message) => logs.push(message),
      output: () => {},
      run: (command) =>
        runCommand({
          argv: command.argv,
          cwd: command.cwd,
          ...(command.env ? { env: command.env } : {}),
          timeoutMs: command.timeoutMs,
          onLine: (line) => command.onLine?.(line),
        }),
      record: (patch) => recorded.push(patch),
    };
    return { ctx, recorded, logs };
  }

  const plan = Blueprint.parse({
    kind: 'static-build',
    framework: 'vite',
    hasPackageJson: true,
    packageManager: 'npm',
    install: null,
    build: ['npm', 'run', 'build'],
    test: null,
    start: null,
    outputDir: 'dist',
    env: {},
    timeoutMs: 60_000,
    decisions: [],
  });

  it('runs the lint script with CI=1 and records a failure without failing the build', async () => {
    const layout = home({
      lint: `node -e "console.log('/app/src/a.js'); console.log('  1:7  error  x is never reassigned  prefer-const'); console.log('✖ 12 problems (3 errors, 9 warnings), CI=' + process.env.CI); process.exit(1)"`,
    });
    const { ctx, recorded, logs } = context();
    const result = await lintStep({ layout }).run(ctx, plan);
    expect(result).toMatchObject({
      ok: true,
      stepStatus: 'failed',
      detail: 'lint failed (exit 1, 12 problems)',
    });
    const report = (result as { value: LintReport }).value;
    expect(report).toMatchObject({ ran: true, passed: false, command: 'npm run lint', problems: 12 });
    expect(report.outputTail).toContain('✖ 12 problems (3 errors, 9 warnings), CI=1');
    expect(report.durationMs).toBeGreaterThan(0);
    expect(recorded).toEqual([{ lint: report }]);
    expect(logs.at(-1)).toBe('npm run lint: lint failed (exit 1, 12 problems) (recorded; the build goes on)');
  }, 60_000);

  it('records a clean lint as passed', async () => {
    const layout = home({ lint: `node -e "console.log('✔ No ESLint warnings or errors')"` });
    const { ctx } = context();
    const result = await lintStep({ layout }).run(ctx, { ...plan, packageManager: 'npm' });
    expect(result).toMatchObject({ ok: true, stepStatus: 'succeeded' });
    expect((result as { value: LintReport }).value).toMatchObject({ ran: true, passed: true, problems: 0 });
  }, 60_000);

  it('skips a project without a lint script', async () => {
    const layout = home({ build: 'vite build' });
    const { ctx, recorded } = context();
    const result = await lintStep({ layout }).run(ctx, plan);
    expect(result).toEqual({
      ok: true,
      value: { ran: false, passed: null, command: null, durationMs: 0, problems: null, outputTail: '' },
      detail: 'no "lint" script',
      stepStatus: 'skipped',
    });
    expect(recorded).toHaveLength(1);
  });
});
