import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_BUILDER_BOTS,
  formatDuration,
  testsPolicyOf,
  type Blueprint,
  type Build,
} from '@forge/shared';
import { swapDir } from '../fs/moves.ts';
import type { WrittenTree } from '../fs/tree-hash.ts';
import { builtOutput } from '../capabilities/checks/built-output.ts';
import { gitSnapshot } from '../capabilities/exec/git-snapshot.ts';
import { withSourceDateEpoch } from '../capabilities/artifacts/build-epoch.ts';
import type { BuildRun } from './build-run.ts';
import {
  buildStartedAt,
  dropUpload,
  must,
  stillWanted,
  Stop,
  type BuildSource,
  type EngineContext,
} from './context.ts';
import { noteBuiltInRepairs } from './built-in-repairs.ts';
import { runChecks } from './checks.ts';
import { complete } from './endings.ts';
import { makeWithRepairs } from './repair-loop.ts';
import { sourceHash } from './source-hash.ts';
import { cacheStep, failure, runStep } from './steps/index.ts';

/**
 * The build left the planned folder without a site and wrote one elsewhere: serve that, and say so in
 * the log and in the plan (a decision with the index.html it found as evidence).
 */
function recordFoundOutput(
  run: BuildRun,
  bp: Blueprint,
  dir: string,
  found: { why: string; index: string },
): Blueprint {
  const planned = bp.outputDir ?? 'dist';
  const rule = `found after the build: "${planned}" held no site it wrote, and ${found.index} was written by this build (${found.why})`;
  run.log('BuildBot', 'warn', `The output is "${dir}", not the planned "${planned}": ${rule}.`);
  const next: Blueprint = {
    ...bp,
    outputDir: dir,
    decisions: [...bp.decisions, { field: 'outputDir', value: dir, file: found.index, rule }],
  };
  const recorded = run.snapshot().blueprint;
  if (recorded) {
    run.record({
      blueprint: { ...recorded, outputDir: dir, decisions: [...recorded.decisions, next.decisions.at(-1)!] },
    });
  }
  return next;
}

/** The build's git repository of the uploaded files (gitSnapshot in the plan); never fails the build. */
async function snapshotHistory(run: BuildRun, projectDir: string): Promise<void> {
  const snapshot = await gitSnapshot(projectDir, run.signal).catch(
    (err: unknown) => ({ made: false, reason: (err as Error).message }) as const,
  );
  if (snapshot.made) {
    run.log(
      'BuildBot',
      'info',
      `git: a repository of the uploaded files for scripts that read their history: commit ${snapshot.commit.slice(0, 12)} on main by Forge (${snapshot.files} files, dated ${snapshot.date.toISOString()} by the newest file), made in ${formatDuration(snapshot.durationMs)}.`,
    );
  } else if (!run.signal.aborted) {
    run.log('BuildBot', 'warn', `git: no repository of the uploaded files: ${snapshot.reason}.`);
  }
}

/** A static output's preview failing leaves the build a success: the output is there to download. */
async function previewOutput(ctx: EngineContext, run: BuildRun, bp: Blueprint, root: string): Promise<void> {
  const result = await runStep(ctx.env, run, ctx.steps.preview, { blueprint: bp, root });
  stillWanted(run);
  if (!result.ok) {
    run.log(
      'PreviewBot',
      'warn',
      `${result.failure.message} The build output is ready to download and integrate without a preview.`,
    );
  }
}

/** Refused: BlueprintBot found nothing to build (another stack's tool, when named, fetched first). */
async function notBuildable(ctx: EngineContext, run: BuildRun, bp: Blueprint): Promise<never> {
  if (bp.runtime) await must(ctx, run, ctx.steps.toolchain, bp);
  const why =
    bp.decisions.find((d) => d.field === 'kind')?.rule ?? 'no build script, start script or index.html';
  throw new Stop(
    {
      ...failure('failed', 'PROJECT_NOT_BUILDABLE', `Forge does not know how to build this project: ${why}.`),
      ...(bp.runtime
        ? {
            hint: `Name the commands in forge.config.json ("install", "build", "start" or "outputDir"): Forge runs them with ${bp.runtime.tool}.`,
          }
        : {}),
    },
    'BlueprintBot',
    { step: 'detect' },
  );
}

/**
 * The output this build may serve instead of building (CacheBot): the project's stored output when
 * its source and plan hash the same, unless that output's tests were skipped and this build's count.
 */
function storedOutput(ctx: EngineContext, run: BuildRun, bp: Blueprint, hash: string): Build | null {
  const project = ctx.repo.project(run.projectName);
  const stored =
    bp.kind === 'static-build' &&
    !run.snapshot().noCache &&
    project?.output?.hash === hash &&
    fs.existsSync(ctx.layout.outputDir(run.projectName))
      ? ctx.repo.get(project.output.buildId)
      : null;
  // An output built with its tests skipped has no test report to carry over: a build whose
  // tests count builds again, so that its verdict is its tests' and not a blank.
  const untested =
    stored &&
    bp.test &&
    !stored.test &&
    testsPolicyOf({ testsOption: run.snapshot().testsOption, blueprint: bp }).policy !== 'skip';
  if (untested) {
    run.log(
      'CacheBot',
      'info',
      `Same source and plan as build ${stored.id}, but its tests were skipped: building again to run them.`,
    );
  }
  return untested ? null : stored;
}

/**
 * The flow of one build, as a straight line of `run.to` moves: bots assigned, the upload extracted,
 * the plan made (the upload's answer), then a plain static site served, a stored output reused, or
 * the project made (repair loop) and its output kept, previewed and checked, and the build
 * completed. A step that cannot do its job throws a Stop, which pipeline.ts turns into the ending.
 */
export async function runSteps(ctx: EngineContext, run: BuildRun, source: BuildSource): Promise<void> {
  const { layout, steps } = ctx;
  const name = run.projectName;
  const projectDir = layout.projectDir(name);
  run.record({ worker: ctx.workerName });
  run.to({ status: 'running', stage: 'bot-assignment' });
  run.assignBots(DEFAULT_BUILDER_BOTS);
  let written: WrittenTree | null = null;
  let droppedModules: string[] = [];
  if (source.kind === 'upload') {
    run.to({ status: 'running', stage: 'extraction' });
    const extracted = await must(ctx, run, steps.extract, { zipPath: source.zipPath });
    written = extracted.tree;
    droppedModules = extracted.dropped.filter((d) => /(^|\/)node_modules\/?$/i.test(d));
    await dropUpload(source);
    run.to({ status: 'running', stage: 'extraction-complete' });
  }
  const plan = await must(ctx, run, steps.detect, undefined);
  run.plan({ kind: 'planned', blueprint: plan });
  let bp = withSourceDateEpoch(plan);
  noteBuiltInRepairs(run, bp, droppedModules);
  if (bp.kind === 'unknown') return notBuildable(ctx, run, bp);

  let hash = await sourceHash(projectDir, bp, written);
  run.record({ sourceHash: hash });
  stillWanted(run);

  if (bp.kind === 'static') {
    run.to({ status: 'running', stage: 'no-build-needed' });
    run.log('BlueprintBot', 'info', 'Plain static site: nothing to install or build.');
    const dotfiles = (rel: string) => rel.startsWith('.');
    // The preview is up as soon as the site is; tests and checks report while it is served.
    await previewOutput(ctx, run, bp, projectDir);
    await runChecks(ctx, run, bp, projectDir, dotfiles);
    return complete(ctx, run, projectDir, hash, bp);
  }

  const outputStore = layout.outputDir(name);
  const earlier = storedOutput(ctx, run, bp, hash);
  if (earlier) {
    await must(ctx, run, cacheStep, { earlier });
    run.to({ status: 'running', stage: 'build-success' });
    await previewOutput(ctx, run, bp, outputStore);
    return complete(ctx, run, outputStore, hash, bp);
  }

  run.to({ status: 'running', stage: 'build-start' });
  // Made beside the toolchain and the install, off the build's critical path (docs/performance.md).
  const history = bp.gitSnapshot ? snapshotHistory(run, projectDir) : Promise.resolve();
  const made = await makeWithRepairs(ctx, run, bp, source, history);
  bp = made.bp;
  if (made.repaired) {
    // The source changed: the output is stored under the repaired tree's hash, so uploading the
    // broken archive again builds (and repairs) again instead of serving this output for it.
    hash = await sourceHash(projectDir, bp);
    run.record({ sourceHash: hash });
  }

  if (bp.kind === 'server') {
    run.to({ status: 'running', stage: 'build-success' });
    await runChecks(ctx, run, bp, null);
    return complete(ctx, run, projectDir, hash, bp);
  }

  const output = await builtOutput({ projectDir, blueprint: bp, since: buildStartedAt(run) });
  if (!output.ok) {
    throw new Stop(failure('failed', output.code, output.message), 'BuildBot', { step: 'build' });
  }
  if (output.found) bp = recordFoundOutput(run, bp, output.dir, output.found);
  // Keep the output outside the source tree: re-uploads replace the source, previews keep serving.
  swapDir(path.join(projectDir, output.dir), outputStore, layout.tmpDir);
  run.to({ status: 'running', stage: 'build-success' });
  // The preview is up as soon as the output is; tests and checks report while it is served.
  await previewOutput(ctx, run, bp, outputStore);
  await runChecks(ctx, run, bp, outputStore);
  return complete(ctx, run, outputStore, hash, bp);
}
