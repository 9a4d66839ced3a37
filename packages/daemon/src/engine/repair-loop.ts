import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Blueprint, Diagnosis, Repair, StepName, ToolError } from '@forge/shared';
import { builtOutput } from '../capabilities/checks/built-output.ts';
import { detectBlueprint } from '../capabilities/detect/index.ts';
import { REPAIR_HINT } from '../capabilities/diagnose/context.ts';
import { restoreBackup, type InstallMode } from '../capabilities/repair/index.ts';
import type { BuildRun } from './build-run.ts';
import { buildStartedAt, must, Stop, type BuildSource, type EngineContext } from './context.ts';
import { diagnoseFailure } from './diagnose-failure.ts';
import {
  failure,
  runStep,
  withProvided,
  withToolPath,
  type BuildFailure,
  type ProvisionedTools,
  type StepContext,
} from './steps/index.ts';
import type { RepairDone } from './steps/repair.ts';
import { compare, withInstallMode, type TrialRequest } from './steps/verify-repair.ts';
import { withSourceDateEpoch } from '../capabilities/artifacts/build-epoch.ts';

/** Repairs one build makes in place at most: each must move the build forward, and three is enough. */
const MAX_REPAIRS_PER_BUILD = 3;

/** Lockfiles an install may rewrite: a repaired install says when it changed one. */
const LOCKFILES = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'bun.lockb',
];

/** The lockfile of an install folder and a digest of it, or null when there is none. */
function lockfileDigest(dir: string): { file: string; digest: string } | null {
  for (const file of LOCKFILES) {
    try {
      const bytes = fs.readFileSync(path.join(dir, file));
      return { file, digest: crypto.createHash('sha256').update(bytes).digest('hex') };
    } catch {
      // not this one
    }
  }
  return null;
}

/** One try of the steps a repair can fix; what failed, when something did. */
interface FailedAttempt {
  failure: BuildFailure;
  bot: string;
  step: StepName;
}

/** A repair made in place, with the diagnosis it answered and the errors printed then. */
interface MadeRepair {
  done: RepairDone;
  diagnosis: Diagnosis;
  errors?: readonly ToolError[] | undefined;
}

/** Add a repair (made or proposed) to the build's record. */
export function noteRepair(run: BuildRun, repair: Repair): void {
  run.record({ repairs: [...run.snapshot().repairs, repair] });
}

/** A diagnosis whose repair RepairBot found it cannot make: no "run forge fix", and why not. */
function withoutRepair(diagnosis: Diagnosis, reason: string): Diagnosis {
  const { repair: _repair, ...rest } = diagnosis;
  const suggestion = (diagnosis.suggestion ?? '')
    .replace(` ${REPAIR_HINT}`, '')
    .replace(REPAIR_HINT, '')
    .trim();
  return {
    ...rest,
    suggestion: `${suggestion}${suggestion ? ' ' : ''}RepairBot has nothing to change: ${reason}.`,
  };
}

/**
 * RepairBot's repair for a diagnosis: made (apply) or proposed, and recorded on the build; or none,
 * with why (it no longer applies, would change nothing, or could not be made).
 */
async function repairFor(
  ctx: EngineContext,
  run: BuildRun,
  diagnosis: Diagnosis,
  bp: Blueprint,
  apply: boolean,
  installMode?: InstallMode,
  trial?: TrialRequest,
): Promise<{ done: RepairDone; reason?: undefined } | { done: null; reason: string }> {
  const result = await runStep(ctx.env, run, ctx.steps.repair, {
    diagnosis,
    blueprint: bp,
    apply,
    ...(installMode ? { installMode } : {}),
    ...(trial ? { trial } : {}),
  });
  if (!result.ok) {
    if (result.failure.status === 'cancelled') throw new Stop(result.failure, 'RepairBot');
    run.log('RepairBot', 'warn', `The repair could not be made: ${result.failure.message}`);
    return { done: null, reason: result.failure.message };
  }
  if (!result.value) return { done: null, reason: result.detail };
  noteRepair(run, result.value.repair);
  return { done: result.value };
}

/**
 * Take back a repair made in place that did not move the build forward: its files restored from
 * the backup, its journal entry and the build's record marked undone, and the log saying why.
 * Returns the reason, for the diagnosis.
 */
async function undoInPlace(
  ctx: EngineContext,
  run: BuildRun,
  done: RepairDone,
  after: Diagnosis,
): Promise<string> {
  const why = `${done.plan.code} was made and undone: the ${after.code} it answered was still there after it (${after.summary})`;
  if (done.backupDir) await restoreBackup(done.backupDir, ctx.layout.projectDir(run.projectName));
  const at = new Date().toISOString();
  const summary = `${done.repair.summary} (undone: it did not move the build forward)`;
  if (ctx.journal.get(done.repair.id)) ctx.journal.update(done.repair.id, { status: 'undone', summary, at });
  run.record({
    repairs: run
      .snapshot()
      .repairs.map((r) => (r.id === done.repair.id ? { ...r, status: 'undone' as const, summary, at } : r)),
  });
  run.log('RepairBot', 'warn', `Undid ${done.repair.id}: ${why}.`);
  return why;
}

/**
 * One try of install, build and (a server app) its start. Each step's failure is returned, not
 * thrown: the caller diagnoses it and may repair and try again.
 */
async function attempt(
  ctx: EngineContext,
  run: BuildRun,
  bp: Blueprint,
  installMode: InstallMode | undefined,
  history: Promise<void>,
): Promise<FailedAttempt | null> {
  const { env, steps } = ctx;
  const projectDir = ctx.layout.projectDir(run.projectName);
  if (bp.install) {
    const installDir = path.join(projectDir, bp.installDir);
    const before = installMode ? lockfileDigest(installDir) : null;
    const r = await runStep(env, run, steps.install, installMode ? withInstallMode(bp, installMode) : bp);
    if (!r.ok) return { failure: r.failure, bot: steps.install.bot, step: 'install' };
    const after = installMode ? lockfileDigest(installDir) : null;
    if (after && after.digest !== before?.digest) {
      run.log(
        'RepairBot',
        'info',
        `The lockfile ${path.posix.join(bp.installDir === '.' ? '' : bp.installDir, after.file)} changed: it now matches package.json (the original is kept for undo).`,
      );
    }
  }
  // The repository of the upload, made while the install ran, is there before any script reads it.
  await history;
  if (bp.build) {
    const r = await runStep(env, run, steps.build, bp);
    if (!r.ok) return { failure: r.failure, bot: steps.build.bot, step: 'build' };
    if (bp.kind !== 'server') {
      // A static build without a site to serve fails here, inside the repair loop, so a repair
      // (an outputDir in the forge config) can answer it; the build's own check runs after.
      const output = await builtOutput({ projectDir, blueprint: bp, since: buildStartedAt(run) });
      if (!output.ok) {
        return { failure: failure('failed', output.code, output.message), bot: 'BuildBot', step: 'build' };
      }
    }
  }
  if (bp.kind === 'server') {
    // A server app is "built" once it answers: start it before declaring success.
    const r = await runStep(env, run, steps.preview, {
      blueprint: bp,
      root: path.join(projectDir, bp.appDir),
    });
    if (!r.ok) return { failure: r.failure, bot: steps.preview.bot, step: 'preview' };
  }
  return null;
}

/**
 * Install, build and (a server app) start, with ScanBot and RepairBot behind them: a failure is
 * diagnosed; with autoRepair on, the repair that fits is made and the steps run again — once per
 * kind of repair; with it off, the repair is proposed and the build fails with its diagnosis.
 * Returns the plan the build ended with, and whether a repair changed the project.
 */
export async function makeWithRepairs(
  ctx: EngineContext,
  run: BuildRun,
  plan: Blueprint,
  source: BuildSource,
  history: Promise<void>,
): Promise<{ bp: Blueprint; repaired: boolean }> {
  const { steps } = ctx;
  let bp = plan;
  let tools: ProvisionedTools | null = null;
  if (bp.toolchain || bp.node || bp.runtime) {
    // Every command from here on runs with the provided Node and package manager first on PATH
    // (another stack: its tool's environment, a Python virtual environment first on PATH).
    tools = await must(ctx, run, steps.toolchain, bp);
    bp = withToolPath(withProvided(bp, tools), tools.path, tools.env);
  }
  // The Node the toolchain was provided for: a repair that declares another (engines.node) has
  // DependencyBot provide again before the steps run again.
  let providedFor = plan.node?.wanted ?? null;
  const replan = async (): Promise<Blueprint> => {
    const read = await must(ctx, run, steps.detect, undefined);
    if (read.node && read.node.wanted !== providedFor) {
      tools = await must(ctx, run, steps.toolchain, read);
      providedFor = read.node.wanted;
    }
    const next = withProvided(read, tools);
    // The new plan is recorded as read: it keeps the versions provided for this build.
    if (tools) run.record({ blueprint: next });
    return withToolPath(withSourceDateEpoch(next), tools?.path ?? [], tools?.env);
  };
  // The plan of a scratch copy, read the same way, with this build's toolchain.
  const planOfCopy = async (dir: string, stepCtx: StepContext): Promise<Blueprint> => {
    const app = ctx.repo.project(run.projectName)?.app ?? undefined;
    const read = await detectBlueprint(dir, app ? { app } : {});
    let copyTools = tools;
    if (read.node && read.node.wanted !== providedFor) {
      // The copy asks for another Node: provided for the trial alone (the build's plan keeps its own).
      const provided = await steps.toolchain.run({ ...stepCtx, record: () => {} }, read);
      if (!provided.ok) throw new Error(provided.failure.message);
      copyTools = provided.value;
    }
    return withToolPath(withProvided(read, copyTools), copyTools?.path ?? []);
  };
  // The repairs made in place, each with the diagnosis it answered: the next failure is compared
  // with that one, so a repair that did not move the build forward is undone.
  const made: MadeRepair[] = [];
  let installMode: InstallMode | undefined;
  let repaired = false;
  if (source.fix) {
    const { done, reason } = await repairFor(ctx, run, source.fix.diagnosis, bp, true);
    source.fix.onApplied(done ? [done.repair] : [], reason);
    if (!done) {
      // Building again would only fail the same way: say so instead.
      const message = `RepairBot has nothing to change for ${source.fix.diagnosis.repair ?? source.fix.diagnosis.code}: ${reason}. The project was not built again; it would fail the same way.`;
      throw new Stop(failure('failed', 'NOTHING_TO_FIX', message), 'RepairBot', { diagnosis: null });
    }
    made.push({ done, diagnosis: source.fix.diagnosis });
    installMode = done.plan.install;
    repaired = true;
    bp = await replan();
  }
  for (;;) {
    const failed = await attempt(ctx, run, bp, installMode, history);
    if (!failed) return { bp, repaired };
    if (failed.failure.status === 'cancelled') throw new Stop(failed.failure, failed.bot);
    const diagnosis = await diagnoseFailure(ctx, run, failed, bp);
    const code = diagnosis?.repair;
    const stop = new Stop(failed.failure, failed.bot, { step: failed.step, diagnosis });
    /** The build ends with this failure, and a diagnosis that no longer offers a repair. */
    const endsWithout = (why: string) =>
      new Stop(failed.failure, failed.bot, { step: failed.step, diagnosis: withoutRepair(diagnosis!, why) });
    const last = made.at(-1);
    const errors = failed.failure.evidence?.errors;
    if (last && diagnosis && compare(last, { diagnosis, errors }).status === 'fails') {
      // The repair changed the project and the build fails just as before: it is taken back.
      throw endsWithout(await undoInPlace(ctx, run, last.done, diagnosis));
    }
    if (!diagnosis || !code) throw stop;
    if (made.length >= MAX_REPAIRS_PER_BUILD) {
      const why = `RepairBot made ${made.length} repairs in this build (${made.map((m) => m.done.plan.code).join(', ')}) and stops there`;
      run.log('RepairBot', 'warn', `${why}: ${code} is left for you to apply with forge fix.`);
      throw endsWithout(why);
    }
    const auto = ctx.settings().autoRepair;
    // A proposal is tried on a scratch copy of the project before it is shown (or dropped).
    const trial: TrialRequest = { step: failed.step, diagnosis, errors, replan: planOfCopy };
    const { done, reason } = await repairFor(
      ctx,
      run,
      diagnosis,
      bp,
      auto,
      installMode,
      auto ? undefined : trial,
    );
    if (!done) {
      // Nothing a repair can change: the build ends here, and its diagnosis no longer offers one.
      run.log('RepairBot', 'warn', `Nothing to repair: ${reason}. Not building again into the same failure.`);
      throw endsWithout(reason);
    }
    if (!auto) throw stop;
    made.push({ done, diagnosis, errors });
    repaired = true;
    installMode = done.plan.install ?? installMode;
    run.log('RepairBot', 'info', `Running the ${failed.step} step again after the repair.`);
    bp = await replan();
  }
}
