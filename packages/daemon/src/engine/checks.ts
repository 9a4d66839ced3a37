import fs from 'node:fs';
import path from 'node:path';
import { testsPolicyOf, type Blueprint } from '@forge/shared';
import type { BuildRun } from './build-run.ts';
import { stillWanted, type EngineContext } from './context.ts';
import { checkStep, optimizeStep, runStep, type StepResult } from './steps/index.ts';

/** Whether the app's package.json has a "lint" script for LintBot to run (no job at all otherwise). */
function hasLintScript(appDir: string, bp: Blueprint): boolean {
  if (!bp.hasPackageJson || !bp.packageManager) return false;
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(appDir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, unknown>;
    };
    return typeof manifest.scripts?.lint === 'string';
  } catch {
    return false;
  }
}

/**
 * The checks of a built project: TestBot, LintBot, UiBot and OptimizationBot, side by side with bot
 * orchestration on, else one after another. A check never fails the build; only a cancel stops it here.
 */
export async function runChecks(
  ctx: EngineContext,
  run: BuildRun,
  bp: Blueprint,
  outputDir: string | null,
  skip?: (rel: string) => boolean,
): Promise<void> {
  const { env, steps } = ctx;
  const jobs: Array<() => Promise<StepResult<unknown>>> = [];
  const tests = testsPolicyOf({ testsOption: run.snapshot().testsOption, blueprint: bp });
  if (bp.test && tests.policy === 'skip') {
    const why = tests.source === 'option' ? '--tests skip' : '"tests": "skip" in the forge config';
    run.beginStep('test', 'TestBot').finish('skipped', `skipped (${why})`, null);
    run.log('TestBot', 'info', `Tests not run (${why}).`);
  } else if (bp.test) jobs.push(() => runStep(env, run, steps.test, bp));
  // LintBot: the project's own lint script, when it has one (recorded, never failing the build).
  if (hasLintScript(path.join(ctx.layout.projectDir(run.projectName), bp.appDir), bp)) {
    jobs.push(() => runStep(env, run, steps.lint, bp));
  }
  if (outputDir) {
    jobs.push(() => runStep(env, run, checkStep, { outputDir }));
    jobs.push(() => runStep(env, run, optimizeStep, { outputDir, ...(skip ? { skip } : {}) }));
  }
  if (ctx.settings().botOrchestration) await Promise.all(jobs.map((job) => job()));
  else for (const job of jobs) await job();
  stillWanted(run);
}
