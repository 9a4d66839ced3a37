import crypto from 'node:crypto';
import fs from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  DEFAULT_BUILDER_BOTS,
  FORGE_VERSION,
  formatDuration,
  testsPolicyOf,
  testsVerdict,
  type Blueprint,
  type Build,
  type Diagnosis,
  type ErrorCode,
  type Repair,
  type RepairCode,
  type ServerMessage,
  type Settings,
  type StepName,
  type ToolError,
} from '@forge/shared';
import type { Logger } from '../logging/logger.ts';
import type { Fleet } from './fleet/fleet.ts';
import type { HomeLayout } from '../home-layout.ts';
import { swapDir } from '../fs/moves.ts';
import { diskFullMessage, isDiskFull } from '../fs/disk-full.ts';
import { isInstalledNodeModules } from '../capabilities/extract/install-trees.ts';
import { hashTree, type WrittenTree } from '../fs/tree-hash.ts';
import { listFiles } from '../fs/walk.ts';
import {
  buildStage,
  cacheStage,
  checkStage,
  detectStage,
  extractStage,
  failure,
  installStage,
  optimizeStage,
  previewStage,
  runStage,
  testStage,
  toolchainStage,
  withProvided,
  type BuildFailure,
  type ProvisionedTools,
  type Stage,
  type StageContext,
  type StageEnv,
  type StageResult,
} from './stages/index.ts';
import { builtOutput } from '../capabilities/checks/built-output.ts';
import { diagnoseStage } from './stages/diagnose.ts';
import { lintStage } from './stages/lint.ts';
import { gitSnapshot } from '../capabilities/exec/git-snapshot.ts';
import { repairStage, type RepairDone } from './stages/repair.ts';
import { restoreBackup, type InstallMode } from '../capabilities/repair/index.ts';
import { compare, withInstallMode, type TrialRequest } from './stages/verify-repair.ts';
import { detectBlueprint } from '../capabilities/detect/index.ts';
import { REPAIR_HINT } from '../capabilities/diagnose/context.ts';
import { pathWith } from '../capabilities/toolchains/index.ts';
import type { RepairJournal } from '../capabilities/repair/journal.ts';
import type { PreviewRegistry } from '../capabilities/preview/preview-registry.ts';
import type { Slots } from './fleet/slots.ts';
import type { BuildRun } from './build-run.ts';
import type { BuildRepo } from './build-repo.ts';
import { recordArtifact } from '../capabilities/artifacts/record.ts';
import { pruneHistory } from './artifact-history.ts';
import { keepFailedSource } from '../capabilities/artifacts/failed-source.ts';
import { loadSigningKey, type SigningKey } from '../capabilities/artifacts/signing.ts';
import { withSourceDateEpoch } from '../capabilities/artifacts/build-epoch.ts';

export interface PipelineDeps {
  layout: HomeLayout;
  repo: BuildRepo;
  fleet: Fleet;
  previews: PreviewRegistry;
  logger: Logger;
  settings: () => Settings;
  /** Run commands inside bubblewrap when the machine has it. */
  sandbox: boolean;
  broadcast: (message: ServerMessage) => void;
  lane: Slots;
  /** RepairBot's journal: repairs made during builds, with the files they changed saved for undo. */
  journal: RepairJournal;
  /** What builds this engine runs record as where they ran: "local", or a `forge worker`'s name. */
  workerName: string;
}

/** `forge fix`: the repair proposed for an earlier build, made first by the build that applies it. */
export interface FixRequest {
  diagnosis: Diagnosis;
  /**
   * Told once what was made; nothing, with why, when the repair no longer applies or would change
   * nothing (the build then stops without running the project's commands again).
   */
  onApplied(repairs: Repair[], nothingBecause?: string): void;
}

/** Where a build's source comes from: an upload to extract, or the project's files as they are. */
export type BuildSource =
  { kind: 'upload'; zipPath: string; fix?: FixRequest } | { kind: 'rebuild'; fix?: FixRequest };

/** What an upload can answer once it is known: planned, waiting for its turn, or refused. */
export type PlanOutcome =
  { kind: 'planned'; blueprint: Blueprint } | { kind: 'queued' } | { kind: 'refused'; failure: BuildFailure };

/**
 * Source hash for CacheBot: the uploaded tree (not its installs or outputs) plus the plan. `written`
 * is ExtractBot's digest of the tree it just wrote: used instead of reading the tree back when the
 * skip below leaves out none of it.
 */
export async function sourceHash(
  projectDir: string,
  blueprint: Blueprint,
  written?: WrittenTree | null,
): Promise<string> {
  const out =
    blueprint.kind === 'static-build' && blueprint.outputDir ? blueprint.outputDir.replace(/\/+$/, '') : null;
  // Installs are left out, a committed fixture's node_modules is not (capabilities/extract/install-trees.ts).
  const installs = [blueprint.installDir, blueprint.appDir];
  const tree = await hashTree(
    projectDir,
    (rel) => isInstalledNodeModules(projectDir, rel, installs) || rel === '.git' || rel === out,
    written,
  );
  // The plan as its commands get it: the recorded plan (made before SOURCE_DATE_EPOCH is added) and
  // the running one hash the same, so CacheBot's checks agree with the build's own.
  const { decisions: _decisions, ...plan } = withSourceDateEpoch(blueprint);
  return crypto.createHash('sha256').update(tree).update(JSON.stringify(plan)).digest('hex');
}

/**
 * The plan with the provided toolchains first on PATH for every command, in the order given: Node's
 * bin before the package manager's, so its shims (#!/usr/bin/env node) run on that Node.
 */
export function withToolPath(
  bp: Blueprint,
  binDirs: readonly string[],
  toolEnv: Readonly<Record<string, string>> = {},
): Blueprint {
  if (binDirs.length === 0 && Object.keys(toolEnv).length === 0) return bp;
  return {
    ...bp,
    env: {
      ...bp.env,
      ...toolEnv,
      ...(binDirs.length > 0 ? { PATH: pathWith(binDirs, bp.env.PATH ?? process.env.PATH ?? '') } : {}),
    },
  };
}

/** Failures of the project's own commands that a Node the project does not accept would explain. */
const NODE_SENSITIVE = new Set(['INSTALL_FAILED', 'BUILD_FAILED', 'PREVIEW_FAILED', 'STAGE_TIMEOUT']);

/**
 * "Probably the cause": the plan said up front that this machine's Node is not what the project asks
 * for, and the build ran on it anyway. Never when DependencyBot provided a Node in the range.
 */
export function probableCauseOf(bp: Blueprint | null | undefined, code: string): string | null {
  const node = bp?.node;
  if (!node || node.satisfied !== false || node.resolved || !NODE_SENSITIVE.has(code)) return null;
  return (
    `This was probably caused by the Node version: the project asks for Node ${node.wanted} (${node.file}) ` +
    `and this machine runs Node ${node.current}.`
  );
}

/** The uploaded archive, once the build no longer needs it (extracted, or ended before). */
const dropUpload = (source: BuildSource): Promise<void> =>
  source.kind === 'upload' ? rm(source.zipPath, { force: true }).catch(() => {}) : Promise.resolve();

/** A build ended early by one of its steps (or by a cancel): how it ends. */
class Stop {
  constructor(
    readonly failure: BuildFailure,
    readonly bot: string,
    /** The step that failed (ScanBot reads its output), and ScanBot's reading when it was made already. */
    readonly context: { step?: StepName; diagnosis?: Diagnosis | null } = {},
  ) {}
}

/** Build outcomes ScanBot diagnoses: a project's own commands or plan failing, not refusals or cancels. */
const DIAGNOSED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INSTALL_FAILED',
  'BUILD_FAILED',
  'OUTPUT_MISSING',
  'OUTPUT_NO_INDEX',
  'PREVIEW_FAILED',
  'STAGE_TIMEOUT',
  'TOOLCHAIN_UNAVAILABLE',
  'PROJECT_NOT_BUILDABLE',
  'BLUEPRINT_INVALID_PACKAGE_JSON',
]);

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

/** When the last build step started (ms), to tell what the build wrote; null when there was none. */
function buildStartedAt(run: BuildRun): number | null {
  const step = run.snapshot().steps.findLast((s) => s.name === 'build');
  const at = step ? Date.parse(step.startedAt) : Number.NaN;
  return Number.isNaN(at) ? null : at;
}

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

/** One try of the steps a repair can fix; what failed, when something did. */
interface FailedAttempt {
  failure: BuildFailure;
  bot: string;
  step: StepName;
}

/**
 * The build engine: one build from its slot to its end, as a straight line of stages. Every stage
 * is a unit `(ctx, input) => result` run by `runStage` (timed, recorded, cancellable, never
 * throwing); the build moves along its machine only through `run.to()`. A step's failure ends the
 * build with that step's catalogue code — the one place where a result becomes an ending, so a
 * repair can later run the failed stage again instead (its step gets the next attempt number).
 */
export function createPipeline(deps: PipelineDeps) {
  const { layout, repo, logger } = deps;
  const env: StageEnv = {
    fleet: deps.fleet,
    repo,
    sandbox: deps.sandbox,
    settings: deps.settings,
    logger,
    home: (name) => layout.buildHome(name),
    caches: layout.cachesDir,
  };
  const stages = {
    extract: extractStage({ layout, logger }),
    detect: detectStage({ layout, repo }),
    toolchain: toolchainStage({ layout, logger }),
    install: installStage({ layout }),
    build: buildStage({ layout }),
    test: testStage({ layout }),
    preview: previewStage({
      previews: deps.previews,
      repo,
      sandbox: deps.sandbox,
      home: (name) => layout.buildHome(name),
      caches: layout.cachesDir,
    }),
    diagnose: diagnoseStage({ layout, repo }),
    repair: repairStage({ layout, journal: deps.journal, sandbox: deps.sandbox }),
    lint: lintStage({ layout }),
  };

  /** This installation's provenance key, read (or made) on the first build that records an artifact. */
  let signingKey: SigningKey | null = null;

  /** Run a stage; a failure stops the build (thrown as Stop, caught once in `run`). */
  async function must<I, O>(run: BuildRun, stage: Stage<I, O>, input: I): Promise<O> {
    const result = await runStage(env, run, stage, input);
    if (!result.ok) throw new Stop(result.failure, stage.bot, { step: stage.step });
    return result.value;
  }

  /** Add a repair (made or proposed) to the build's record. */
  function noteRepair(run: BuildRun, repair: Repair): void {
    run.record({ repairs: [...run.snapshot().repairs, repair] });
  }

  /** ScanBot's reading of a failure, or null when it could not make one (its step says why). */
  async function diagnoseFailure(
    run: BuildRun,
    failed: { failure: BuildFailure; bot: string; step: StepName | null },
    bp: Blueprint | null,
  ): Promise<Diagnosis | null> {
    const { failure: f } = failed;
    if (f.status === 'cancelled' || !DIAGNOSED.has(f.code) || run.signal.aborted) return null;
    const probableCause = probableCauseOf(bp ?? run.snapshot().blueprint, f.code);
    const result = await runStage(env, run, stages.diagnose, {
      step: failed.step,
      bot: failed.bot,
      status: f.status,
      error: {
        code: f.code,
        message: f.message,
        ...(f.evidence ?? {}),
        ...(probableCause ? { probableCause } : {}),
      },
      blueprint: bp ?? run.snapshot().blueprint,
    });
    return result.ok ? result.value : null;
  }

  /**
   * RepairBot's repair for a diagnosis: made (apply) or proposed, and recorded on the build; or none,
   * with why (it no longer applies, would change nothing, or could not be made).
   */
  async function repairFor(
    run: BuildRun,
    diagnosis: Diagnosis,
    bp: Blueprint,
    apply: boolean,
    installMode?: InstallMode,
    trial?: TrialRequest,
  ): Promise<{ done: RepairDone; reason?: undefined } | { done: null; reason: string }> {
    const result = await runStage(env, run, stages.repair, {
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
  async function undoInPlace(run: BuildRun, done: RepairDone, after: Diagnosis): Promise<string> {
    const why = `${done.plan.code} was made and undone: the ${after.code} it answered was still there after it (${after.summary})`;
    if (done.backupDir) await restoreBackup(done.backupDir, layout.projectDir(run.projectName));
    const at = new Date().toISOString();
    const summary = `${done.repair.summary} (undone: it did not move the build forward)`;
    if (deps.journal.get(done.repair.id))
      deps.journal.update(done.repair.id, { status: 'undone', summary, at });
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
    run: BuildRun,
    bp: Blueprint,
    installMode: InstallMode | undefined,
    history: Promise<void>,
  ): Promise<FailedAttempt | null> {
    const projectDir = layout.projectDir(run.projectName);
    if (bp.install) {
      const installDir = path.join(projectDir, bp.installDir);
      const before = installMode ? lockfileDigest(installDir) : null;
      const r = await runStage(env, run, stages.install, installMode ? withInstallMode(bp, installMode) : bp);
      if (!r.ok) return { failure: r.failure, bot: stages.install.bot, step: 'install' };
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
      const r = await runStage(env, run, stages.build, bp);
      if (!r.ok) return { failure: r.failure, bot: stages.build.bot, step: 'build' };
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
      const r = await runStage(env, run, stages.preview, {
        blueprint: bp,
        root: path.join(projectDir, bp.appDir),
      });
      if (!r.ok) return { failure: r.failure, bot: stages.preview.bot, step: 'preview' };
    }
    return null;
  }

  /**
   * Install, build and (a server app) start, with ScanBot and RepairBot behind them: a failure is
   * diagnosed; with autoRepair on, the repair that fits is made and the steps run again — once per
   * kind of repair; with it off, the repair is proposed and the build fails with its diagnosis.
   * Returns the plan the build ended with, and whether a repair changed the project.
   */
  async function makeWithRepairs(
    run: BuildRun,
    plan: Blueprint,
    source: BuildSource,
    history: Promise<void>,
  ): Promise<{ bp: Blueprint; repaired: boolean }> {
    let bp = plan;
    let tools: ProvisionedTools | null = null;
    if (bp.toolchain || bp.node || bp.runtime) {
      // Every command from here on runs with the provided Node and package manager first on PATH
      // (another stack: its tool's environment, a Python virtual environment first on PATH).
      tools = await must(run, stages.toolchain, bp);
      bp = withToolPath(withProvided(bp, tools), tools.path, tools.env);
    }
    // The Node the toolchain was provided for: a repair that declares another (engines.node) has
    // DependencyBot provide again before the steps run again.
    let providedFor = plan.node?.wanted ?? null;
    const replan = async (): Promise<Blueprint> => {
      const read = await must(run, stages.detect, undefined);
      if (read.node && read.node.wanted !== providedFor) {
        tools = await must(run, stages.toolchain, read);
        providedFor = read.node.wanted;
      }
      const next = withProvided(read, tools);
      // The new plan is recorded as read: it keeps the versions provided for this build.
      if (tools) run.record({ blueprint: next });
      return withToolPath(withSourceDateEpoch(next), tools?.path ?? [], tools?.env);
    };
    // The plan of a scratch copy, read the same way, with this build's toolchain.
    const planOfCopy = async (dir: string, ctx: StageContext): Promise<Blueprint> => {
      const app = repo.project(run.projectName)?.app ?? undefined;
      const read = await detectBlueprint(dir, app ? { app } : {});
      let copyTools = tools;
      if (read.node && read.node.wanted !== providedFor) {
        // The copy asks for another Node: provided for the trial alone (the build's plan keeps its own).
        const provided = await stages.toolchain.run({ ...ctx, record: () => {} }, read);
        if (!provided.ok) throw new Error(provided.failure.message);
        copyTools = provided.value;
      }
      return withToolPath(withProvided(read, copyTools), copyTools?.path ?? []);
    };
    // The repairs made in place, each with the diagnosis it answered: the next failure is compared
    // with that one, so a repair that did not move the build forward is undone.
    const made: { done: RepairDone; diagnosis: Diagnosis; errors?: readonly ToolError[] | undefined }[] = [];
    let installMode: InstallMode | undefined;
    let repaired = false;
    if (source.fix) {
      const { done, reason } = await repairFor(run, source.fix.diagnosis, bp, true);
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
      const failed = await attempt(run, bp, installMode, history);
      if (!failed) return { bp, repaired };
      if (failed.failure.status === 'cancelled') throw new Stop(failed.failure, failed.bot);
      const diagnosis = await diagnoseFailure(run, failed, bp);
      const code = diagnosis?.repair;
      const stop = new Stop(failed.failure, failed.bot, { step: failed.step, diagnosis });
      const last = made.at(-1);
      const errors = failed.failure.evidence?.errors;
      if (last && diagnosis && compare(last, { diagnosis, errors }).status === 'fails') {
        // The repair changed the project and the build fails just as before: it is taken back.
        const why = await undoInPlace(run, last.done, diagnosis);
        throw new Stop(failed.failure, failed.bot, {
          step: failed.step,
          diagnosis: withoutRepair(diagnosis, why),
        });
      }
      if (!diagnosis || !code) throw stop;
      if (made.length >= MAX_REPAIRS_PER_BUILD) {
        const why = `RepairBot made ${made.length} repairs in this build (${made.map((m) => m.done.plan.code).join(', ')}) and stops there`;
        run.log('RepairBot', 'warn', `${why}: ${code} is left for you to apply with forge fix.`);
        throw new Stop(failed.failure, failed.bot, {
          step: failed.step,
          diagnosis: withoutRepair(diagnosis, why),
        });
      }
      const auto = deps.settings().autoRepair;
      // A proposal is tried on a scratch copy of the project before it is shown (or dropped).
      const trial: TrialRequest = { step: failed.step, diagnosis, errors, replan: planOfCopy };
      const { done, reason } = await repairFor(
        run,
        diagnosis,
        bp,
        auto,
        installMode,
        auto ? undefined : trial,
      );
      if (!done) {
        // Nothing a repair can change: the build ends here, and its diagnosis no longer offers one.
        run.log(
          'RepairBot',
          'warn',
          `Nothing to repair: ${reason}. Not building again into the same failure.`,
        );
        throw new Stop(failed.failure, failed.bot, {
          step: failed.step,
          diagnosis: withoutRepair(diagnosis, reason),
        });
      }
      if (!auto) throw stop;
      made.push({ done, diagnosis, errors });
      repaired = true;
      installMode = done.plan.install ?? installMode;
      run.log('RepairBot', 'info', `Running the ${failed.step} step again after the repair.`);
      bp = await replan();
    }
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

  /** Stop unless the build is still wanted (a cancel between two stages). */
  function stillWanted(run: BuildRun): void {
    if (run.signal.aborted) {
      throw new Stop(
        failure('cancelled', 'CANCELLED', `The build was cancelled (${run.cancelReason}).`),
        'SYSTEM',
      );
    }
  }

  /** TestBot, UiBot and OptimizationBot: in parallel with bot orchestration on, else one after another. */
  async function checks(
    run: BuildRun,
    bp: Blueprint,
    outputDir: string | null,
    skip?: (rel: string) => boolean,
  ) {
    const jobs: Array<() => Promise<StageResult<unknown>>> = [];
    const tests = testsPolicyOf({ testsOption: run.snapshot().testsOption, blueprint: bp });
    if (bp.test && tests.policy === 'skip') {
      const why = tests.source === 'option' ? '--tests skip' : '"tests": "skip" in the forge config';
      run.beginStep('test', 'TestBot').finish('skipped', `skipped (${why})`, null);
      run.log('TestBot', 'info', `Tests not run (${why}).`);
    } else if (bp.test) jobs.push(() => runStage(env, run, stages.test, bp));
    // LintBot: the project's own lint script, when it has one (recorded, never failing the build).
    if (hasLintScript(path.join(layout.projectDir(run.projectName), bp.appDir), bp)) {
      jobs.push(() => runStage(env, run, stages.lint, bp));
    }
    if (outputDir) {
      jobs.push(() => runStage(env, run, checkStage, { outputDir }));
      jobs.push(() => runStage(env, run, optimizeStage, { outputDir, ...(skip ? { skip } : {}) }));
    }
    if (deps.settings().botOrchestration) await Promise.all(jobs.map((job) => job()));
    else for (const job of jobs) await job();
    // A check never fails the build; only a cancel stops it here.
    stillWanted(run);
  }

  /** A static output's preview failing leaves the build a success: the output is there to download. */
  async function previewOutput(run: BuildRun, bp: Blueprint, root: string): Promise<void> {
    const result = await runStage(env, run, stages.preview, { blueprint: bp, root });
    stillWanted(run);
    if (!result.ok) {
      run.log(
        'PreviewBot',
        'warn',
        `${result.failure.message} The build output is ready to download and integrate without a preview.`,
      );
    }
  }

  /**
   * PackageBot: the build's reproducible artifact, SBOM, source ZIP and signed provenance
   * (docs/artifacts.md). A failure here is a warning: the output is there all the same.
   */
  async function keepArtifact(run: BuildRun, buildPath: string, hash: string, bp: Blueprint): Promise<void> {
    const name = run.projectName;
    const started = Date.now();
    try {
      signingKey ??= loadSigningKey(layout.home);
      const snapshot = run.snapshot();
      const record = await recordArtifact({
        dir: path.join(layout.artifactsDir(name), run.id),
        projectName: name,
        buildId: run.id,
        outputDir: buildPath,
        projectDir: layout.projectDir(name),
        blueprint: bp,
        sourceHash: hash,
        startedOn: snapshot.createdAt,
        noCache: snapshot.noCache,
        forgeVersion: FORGE_VERSION,
        workerName: deps.workerName,
        key: signingKey,
      });
      // Off the hot path: pruned folders are renamed aside and deleted in the background.
      pruneHistory({ repo, layout, name, keep: deps.settings().keepArtifacts, alsoKeep: run.id });
      run.log(
        'PackageBot',
        'info',
        `Artifact ${record.name} (sha256 ${record.sha256.slice(0, 16)}…, ${record.files} files), SBOM of ${record.components} packages${record.lockfile ? ` from ${record.lockfile}` : ''}, provenance signed (key ${record.keyid.slice(0, 16)}…) in ${formatDuration(Date.now() - started)}.`,
      );
    } catch (err) {
      logger.warn({ err, buildId: run.id }, 'recording the artifact failed');
      run.log(
        'PackageBot',
        'warn',
        `ARTIFACT_RECORD_FAILED: no artifact, SBOM or provenance for this build: ${(err as Error).message}`,
      );
    }
  }

  async function complete(run: BuildRun, buildPath: string, hash: string, bp: Blueprint): Promise<void> {
    stillWanted(run);
    await keepArtifact(run, buildPath, hash, bp);
    stillWanted(run);
    const files = await listFiles(buildPath, (rel) => rel === 'node_modules' || rel.startsWith('.'));
    repo.setProjectOutput(run.projectName, hash, run.id);
    run.log(
      'IntegrationBot',
      'success',
      `Build complete: ${files.length} files ready to integrate or download.`,
    );
    run.record({ verdict: testsVerdict(run.snapshot()) ?? null });
    run.end('succeeded');
    // docs/product.md#build-states: build_complete with the build output; clients raise their Build Complete
    // dialog on it.
    deps.broadcast({
      type: 'build_complete',
      buildOutput: { projectName: run.projectName, buildPath, files },
      projectName: run.projectName,
      buildId: run.id,
      stage: 'integration-available',
      timestamp: new Date().toISOString(),
    });
  }

  /**
   * Repairs the pipeline makes on its own, recorded like RepairBot's so every repair of a build is
   * in one list: the framework's build command for a project with no build script (BlueprintBot's
   * plan), and node_modules uploaded from another machine left out (ExtractBot) to be installed here.
   * Neither changes a project file, so neither has anything to undo.
   */
  function noteBuiltInRepairs(run: BuildRun, bp: Blueprint, droppedModules: string[]): void {
    const at = new Date().toISOString();
    const note = (code: RepairCode, summary: string, files: string[]) => {
      if (run.snapshot().repairs.some((r) => r.code === code)) return;
      run.log('RepairBot', 'info', summary);
      noteRepair(run, {
        id: `${run.id}:${code}`,
        code,
        summary,
        files,
        status: 'applied',
        diff: '',
        at,
        buildId: run.id,
      });
    };
    const frameworkBuild = bp.decisions.find((d) => d.field === 'build' && /^no "build" script/.test(d.rule));
    if (frameworkBuild && bp.build) {
      note(
        'USE_FRAMEWORK_BUILD',
        `RepairBot used the framework's build command: ${frameworkBuild.value} (package.json has no "build" script)`,
        [],
      );
    }
    if (droppedModules.length) {
      note(
        'DROP_FOREIGN_NODE_MODULES',
        `RepairBot left out the uploaded ${droppedModules.join(', ')} (installed on another machine, its native parts may not run here): dependencies are installed afresh`,
        droppedModules,
      );
    }
  }

  async function stagesOf(run: BuildRun, source: BuildSource, planned: (o: PlanOutcome) => void) {
    const name = run.projectName;
    const projectDir = layout.projectDir(name);
    run.record({ worker: deps.workerName });
    run.to({ status: 'running', stage: 'bot-assignment' });
    for (const botName of DEFAULT_BUILDER_BOTS) {
      deps.broadcast({
        type: 'bot-assigned',
        botName,
        projectName: name,
        buildId: run.id,
        stage: 'bot-assignment',
      });
    }
    let written: WrittenTree | null = null;
    let droppedModules: string[] = [];
    if (source.kind === 'upload') {
      run.to({ status: 'running', stage: 'extraction' });
      const extracted = await must(run, stages.extract, { zipPath: source.zipPath });
      written = extracted.tree;
      droppedModules = extracted.dropped.filter((d) => /(^|\/)node_modules\/?$/i.test(d));
      await dropUpload(source);
      run.to({ status: 'running', stage: 'extraction-complete' });
    }
    const plan = await must(run, stages.detect, undefined);
    planned({ kind: 'planned', blueprint: plan });
    let bp = withSourceDateEpoch(plan);
    noteBuiltInRepairs(run, bp, droppedModules);

    if (bp.kind === 'unknown') {
      // Another stack is named with its tool: missing, the tool is what to get first.
      if (bp.runtime) await must(run, stages.toolchain, bp);
      const why =
        bp.decisions.find((d) => d.field === 'kind')?.rule ?? 'no build script, start script or index.html';
      throw new Stop(
        {
          ...failure(
            'failed',
            'PROJECT_NOT_BUILDABLE',
            `Forge does not know how to build this project: ${why}.`,
          ),
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
    let hash = await sourceHash(projectDir, bp, written);
    run.record({ sourceHash: hash });
    stillWanted(run);

    if (bp.kind === 'static') {
      run.to({ status: 'running', stage: 'no-build-needed' });
      run.log('BlueprintBot', 'info', 'Plain static site: nothing to install or build.');
      const dotfiles = (rel: string) => rel.startsWith('.');
      // The preview is up as soon as the site is; tests and checks report while it is served.
      await previewOutput(run, bp, projectDir);
      await checks(run, bp, projectDir, dotfiles);
      return complete(run, projectDir, hash, bp);
    }

    const outputStore = layout.outputDir(name);
    const project = repo.project(name);
    const stored =
      bp.kind === 'static-build' &&
      !run.snapshot().noCache &&
      project?.output?.hash === hash &&
      fs.existsSync(outputStore)
        ? repo.get(project.output.buildId)
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
    const earlier = untested ? null : stored;
    if (earlier) {
      await must(run, cacheStage, { earlier });
      run.to({ status: 'running', stage: 'build-success' });
      await previewOutput(run, bp, outputStore);
      return complete(run, outputStore, hash, bp);
    }

    run.to({ status: 'running', stage: 'build-start' });
    // Made beside the toolchain and the install, off the build's critical path (docs/performance.md).
    const history = bp.gitSnapshot ? snapshotHistory(run, projectDir) : Promise.resolve();
    const made = await makeWithRepairs(run, bp, source, history);
    bp = made.bp;
    if (made.repaired) {
      // The source changed: the output is stored under the repaired tree's hash, so uploading the
      // broken archive again builds (and repairs) again instead of serving this output for it.
      hash = await sourceHash(projectDir, bp);
      run.record({ sourceHash: hash });
    }

    if (bp.kind === 'server') {
      run.to({ status: 'running', stage: 'build-success' });
      await checks(run, bp, null);
      return complete(run, projectDir, hash, bp);
    }

    const output = await builtOutput({ projectDir, blueprint: bp, since: buildStartedAt(run) });
    if (!output.ok) {
      throw new Stop(failure('failed', output.code, output.message), 'BuildBot', { step: 'build' });
    }
    if (output.found) bp = recordFoundOutput(run, bp, output.dir, output.found);
    const built = path.join(projectDir, output.dir);
    // Keep the output outside the source tree: re-uploads replace the source, previews keep serving.
    swapDir(built, outputStore, layout.tmpDir);
    run.to({ status: 'running', stage: 'build-success' });
    // The preview is up as soon as the output is; tests and checks report while it is served.
    await previewOutput(run, bp, outputStore);
    await checks(run, bp, outputStore);
    return complete(run, outputStore, hash, bp);
  }

  /** End the build for a Stop: cancelled when it was asked to stop, else with the step's failure and ScanBot's reading of it. */
  async function stop(run: BuildRun, s: Stop): Promise<void> {
    if (run.finished) return;
    let diagnosis = s.context.diagnosis;
    if (diagnosis === undefined && !run.signal.aborted && s.failure.status !== 'cancelled') {
      diagnosis = await diagnoseFailure(
        run,
        { failure: s.failure, bot: s.bot, step: s.context.step ?? null },
        run.snapshot().blueprint,
      ).catch((err: unknown) => {
        logger.error({ err, buildId: run.id }, 'ScanBot could not diagnose the failure');
        return null;
      });
    }
    if (run.finished) return;
    if (run.signal.aborted || s.failure.status === 'cancelled') {
      const reason = run.cancelReason ?? 'user';
      run.log('SYSTEM', 'warn', `The build was cancelled (${reason}).`);
      run.end('cancelled', {
        cancelReason: reason,
        error: { code: 'CANCELLED', message: `The build was cancelled (${reason}).` },
      });
      return;
    }
    run.log(s.bot, 'error', s.failure.message);
    const evidence = s.failure.evidence ?? {};
    if (evidence.firstLine && evidence.firstLine !== s.failure.message) {
      run.log(s.bot, 'error', `First error: ${evidence.firstLine}`);
    }
    const probableCause = probableCauseOf(run.snapshot().blueprint, s.failure.code);
    if (probableCause) run.log(s.bot, 'warn', probableCause);
    // Kept before the build ends, so "why is it red now?" can compare it as soon as it is red.
    await keepFailedSource(layout, run.projectName, run.id, run.snapshot().blueprint);
    run.end(s.failure.status, {
      error: {
        code: s.failure.code,
        message: s.failure.message,
        ...evidence,
        ...(probableCause ? { probableCause } : {}),
        ...(s.failure.hint ? { hint: s.failure.hint } : {}),
      },
      ...(diagnosis ? { diagnosis } : {}),
    });
  }

  /** End a build that stopped early (a Stop, a full disk, a bug) and tell the caller how it was refused. */
  async function endEarly(run: BuildRun, err: unknown, tell: (o: PlanOutcome) => void): Promise<void> {
    try {
      if (err instanceof Stop) {
        await stop(run, err);
        tell({ kind: 'refused', failure: err.failure });
      } else {
        const full = isDiskFull(err);
        if (!full) logger.error({ err, buildId: run.id }, 'the build engine failed');
        const code = full ? 'DISK_FULL' : 'INTERNAL';
        const message = full
          ? diskFullMessage('The build', err)
          : `Forge failed inside the build: ${(err as Error).message}`;
        if (!run.finished) {
          run.log('SYSTEM', 'error', message);
          run.end('failed', { error: { code, message } });
        }
        tell({ kind: 'refused', failure: failure('failed', code, message) });
      }
    } catch (endErr) {
      logger.error({ err: endErr, buildId: run.id }, 'could not end the build as it failed');
    }
  }

  return {
    /**
     * Scale-out, on the coordinator: unpack an upload into the project before its build waits for a
     * worker, so a hostile or broken archive is refused at once (as an in-process upload is) and the
     * worker is sent the project's files. False when the build ended here (refused, cancelled).
     */
    async extractForQueue(
      run: BuildRun,
      zipPath: string,
      planned: (o: PlanOutcome) => void,
    ): Promise<boolean> {
      const source: BuildSource = { kind: 'upload', zipPath };
      try {
        stillWanted(run);
        await must(run, stages.extract, { zipPath });
        stillWanted(run);
        return true;
      } catch (err) {
        await endEarly(run, err, planned);
        return false;
      } finally {
        await dropUpload(source);
      }
    },

    /**
     * Run a build to its end: wait for a build slot (queued), then its stages. `planned` is told
     * once what an upload can answer. Never throws; resolves with the final record.
     */
    async run(
      run: BuildRun,
      source: BuildSource,
      planned: (o: PlanOutcome) => void = () => {},
    ): Promise<Build> {
      let told = false;
      const tell = (o: PlanOutcome) => {
        if (!told) planned(o);
        told = true;
      };
      let release: (() => void) | undefined;
      try {
        if (deps.lane.busy) tell({ kind: 'queued' });
        try {
          release = await deps.lane.acquire(run.signal);
        } catch {
          throw new Stop(
            failure('cancelled', 'CANCELLED', 'The build was cancelled while it waited.'),
            'SYSTEM',
          );
        }
        await stagesOf(run, source, tell);
      } catch (err) {
        // Nothing of a build that ended early is left behind, the archive it came from included.
        await dropUpload(source);
        await endEarly(run, err, tell);
      } finally {
        release?.();
        // Whatever went wrong on the way, no build is left `running`.
        if (!run.finished) {
          const message = 'Forge could not finish this build.';
          try {
            run.end('failed', { error: { code: 'INTERNAL', message } });
          } catch (endErr) {
            logger.error({ err: endErr, buildId: run.id }, 'could not end the build');
          }
          tell({ kind: 'refused', failure: failure('failed', 'INTERNAL', message) });
        }
      }
      return run.done;
    },
  };
}

export type Pipeline = ReturnType<typeof createPipeline>;
