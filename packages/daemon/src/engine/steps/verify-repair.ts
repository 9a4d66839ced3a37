import fs from 'node:fs';
import { copyFile, cp, link, mkdir, mkdtemp, readdir, readlink, symlink } from 'node:fs/promises';
import path from 'node:path';
import {
  formatCommand,
  type Blueprint,
  type DiagnosedError,
  type Diagnosis,
  type RepairVerification,
  type StepName,
  type ToolError,
} from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import { diagnose } from '../../capabilities/diagnose/index.ts';
import {
  applyPlan,
  installArgs,
  type InstallMode,
  type RepairPlan,
} from '../../capabilities/repair/index.ts';
import { discardDir } from '../../fs/moves.ts';
import { builtOutput } from '../../capabilities/checks/built-output.ts';
import { startServerApp } from '../../capabilities/preview/server-app.ts';
import { buildIn } from './build.ts';
import { installIn } from './install.ts';
import { projectRootOf, startFailure } from './preview.ts';
import { failure, type BuildFailure, type StepContext } from './types.ts';

/** What a proposal is tried against: the step that failed, ScanBot's reading of it, how to plan the copy. */
export interface TrialRequest {
  /** The step whose failure the repair answers: it is run again on the copy (with the steps before it). */
  step: StepName;
  /** ScanBot's diagnosis of that failure: the errors the repair was made for. */
  diagnosis: Diagnosis;
  /** The distinct errors the failed step's tools printed (the build record's error list). */
  errors?: readonly ToolError[];
  /**
   * The build's plan for a folder (BlueprintBot again, with the toolchain the build provided): a
   * repair that changes what the plan reads (a forge config entry) is tried with the plan it makes.
   */
  replan(dir: string, ctx: StepContext): Promise<Blueprint>;
}

/** A trial's outcome: the label the proposal carries, and ScanBot's reading of the copy's failure. */
export interface TrialResult {
  verification: RepairVerification;
  /** What the copy still failed with, when it did. */
  after?: Diagnosis;
}

/** A failure as the repair's progress is measured on it: ScanBot's reading and the tools' error list. */
export interface FailureErrors {
  diagnosis: Diagnosis;
  errors?: readonly ToolError[] | undefined;
}

/** Steps a trial runs again: the install, then the build, then (a server app) its start. */
const TRIED: ReadonlySet<StepName> = new Set<StepName>(['install', 'build', 'preview']);

/** How long a server app started on the copy has to answer an HTTP request once it listens. */
const TRIAL_ANSWER_TIMEOUT_MS = 10_000;

/** The errors a diagnosis stands for, its others' with its own: one per package, script or import, else one. */
export function errorsOf(d: Diagnosis): string[] {
  return [...new Set([d, ...(d.others ?? [])].flatMap(errorsOfOne))];
}

function errorsOfOne(d: DiagnosedError): string[] {
  if (d.subjects?.length && PER_SUBJECT.has(d.code)) return d.subjects.map((s) => `${d.code} ${s}`);
  // What it is about when it says (the import, the script), else its place: the same import failing
  // at another line is the same error, another type error in the same file is another.
  return [`${d.code} ${d.subjects?.[0] ?? `${d.file ?? ''}:${d.line ?? ''}`}`];
}

/** Diagnoses whose subjects are each an error of their own (three missing packages are three errors). */
const PER_SUBJECT: ReadonlySet<string> = new Set([
  'MISSING_PACKAGE',
  'LOCKFILE_OUT_OF_SYNC',
  'PEER_DEPENDENCY_CONFLICT',
  'MISSING_ENV',
  'MISMATCHED_PACKAGE_VERSIONS',
]);

const where = (d: Diagnosis): string =>
  d.file ? ` (${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''})` : '';

/** The plan with the install run the way a repair asks (no frozen lockfile, legacy peers). */
export function withInstallMode(bp: Blueprint, mode: InstallMode): Blueprint {
  if (!bp.install || !bp.packageManager) return bp;
  return {
    ...bp,
    install: installArgs(bp.packageManager, mode, bp.install),
    // Yarn Berry reads immutability from its environment in CI too.
    env: { ...bp.env, YARN_ENABLE_IMMUTABLE_INSTALLS: 'false' },
  };
}

/**
 * Try a proposed repair before it is shown: the project is snapshotted into FORGE_HOME's scratch
 * folder (snapshotProject: its files copied, its node_modules hard-linked), the repair applied to the copy, and the
 * failed step run again there as the build runs it — same sandbox, same provisioned toolchain, same
 * caches. The copy is removed afterwards, whatever happened.
 */
export async function tryRepair(
  ctx: StepContext,
  layout: HomeLayout,
  input: {
    plan: RepairPlan;
    blueprint: Blueprint;
    installMode?: InstallMode;
    trial: TrialRequest;
    /** Whether a server app started on the copy runs in the sandbox, as the preview step runs it. */
    sandbox?: boolean;
  },
): Promise<TrialResult> {
  const { plan, trial } = input;
  // Only a server app's start is a preview step that fails the build (a static site's never does).
  if (!TRIED.has(trial.step) || (trial.step === 'preview' && input.blueprint.kind !== 'server')) {
    return notRun(`the ${trial.step} step is not tried on a copy; the repair is proposed untried`);
  }
  fs.mkdirSync(layout.tmpDir, { recursive: true });
  const scratch = await mkdtemp(path.join(layout.tmpDir, `repair-trial-${ctx.buildId}-`));
  const root = path.join(scratch, 'project');
  try {
    await snapshotProject(layout.projectDir(ctx.projectName), root);
    await applyPlan(plan, root, path.join(scratch, 'backup'), {
      scratchDir: layout.tmpDir,
      scope: { installDir: input.blueprint.installDir, appDir: input.blueprint.appDir },
    });
    let bp = plan.writes.length ? await trial.replan(root, ctx) : input.blueprint;
    const mode = plan.install ?? input.installMode;
    if (mode) bp = withInstallMode(bp, mode);
    const lines: string[] = [];
    const capturing: StepContext = {
      ...ctx,
      run: (command) =>
        ctx.run({
          ...command,
          onLine: (line) => {
            lines.push(line.text);
            command.onLine?.(line);
          },
        }),
    };
    let failed: { failure: BuildFailure; step: StepName } | null = null;
    if (bp.install) {
      const r = await installIn(capturing, bp, { layout, root, kept: false });
      if (!r.ok) failed = { failure: r.failure, step: 'install' };
    }
    if (!failed && bp.build && (trial.step === 'build' || trial.step === 'preview')) {
      lines.length = 0;
      const started = Date.now();
      const r = await buildIn(capturing, bp, { layout, root });
      if (!r.ok) failed = { failure: r.failure, step: 'build' };
      else if (bp.kind !== 'server') {
        // A static build passes only with a site to serve, looked for as the build's own check does.
        const output = await builtOutput({ projectDir: root, blueprint: bp, since: started });
        if (!output.ok) {
          failed = {
            failure: { status: 'failed', code: output.code, message: output.message },
            step: 'build',
          };
        }
      }
    }
    if (!failed && trial.step === 'preview' && bp.kind === 'server' && bp.start) {
      lines.length = 0;
      const started = await startOnCopy(ctx, layout, bp, root, input.sandbox ?? false, lines);
      if (started) failed = { failure: started, step: 'preview' };
    }
    if (ctx.signal.aborted) return notRun('the build was cancelled');
    if (!failed) {
      // A server app that started on the copy and answered is a build that passes, as the preview step counts it.
      const ran =
        (trial.step === 'build' && bp.build) || trial.step === 'preview'
          ? 'the build passes'
          : `the ${trial.step} step passes`;
      return { verification: { status: 'passes', detail: `verified: ${ran}` } };
    }
    if (failed.failure.status === 'cancelled') return notRun('the build was cancelled');
    const after = await diagnose({
      step: failed.step,
      status: failed.failure.status,
      error: {
        code: failed.failure.code,
        message: failed.failure.message,
        ...(failed.failure.evidence ?? {}),
      },
      lines,
      blueprint: bp,
      projectDir: root,
      stepStartedAt: null,
    });
    return {
      verification: compare(
        { diagnosis: trial.diagnosis, errors: trial.errors },
        { diagnosis: after, errors: failed.failure.evidence?.errors },
      ),
      after,
    };
  } catch (error) {
    if (ctx.signal.aborted) return notRun('the build was cancelled');
    return notRun(`the trial on a copy could not run: ${(error as Error).message}`);
  } finally {
    discardDir(scratch, layout.tmpDir);
  }
}

/**
 * A server app's start on the copy, as the preview step starts it (the same sandbox, its own home,
 * a free loopback port): ready once it listens, proven once it answers an HTTP request (any status:
 * the app answered), then stopped. Null when it answered, else the failure, worded as the step's.
 */
async function startOnCopy(
  ctx: StepContext,
  layout: HomeLayout,
  bp: Blueprint,
  root: string,
  sandbox: boolean,
  lines: string[],
): Promise<BuildFailure | null> {
  const cwd = path.join(root, bp.appDir);
  ctx.log('info', `Starting the app on the copy: $ ${formatCommand(bp.start!)}`);
  let app;
  try {
    app = await startServerApp({
      argv: bp.start!,
      cwd,
      projectDir: root,
      env: bp.env,
      home: layout.buildHome(ctx.projectName),
      signal: ctx.signal,
      // An app of a workspace runs through links into the whole project (root node_modules).
      sandbox: sandbox && bp.appDir !== '.' ? { writable: [projectRootOf(cwd, bp.appDir)] } : sandbox,
      onLine: (line) => {
        lines.push(line.text);
        ctx.output(line.stream, line.text);
      },
    });
  } catch (error) {
    if (ctx.signal.aborted) return failure('cancelled', 'CANCELLED', 'The build was cancelled.');
    return startFailure(error);
  }
  try {
    const res = await fetch(app.url, {
      redirect: 'manual',
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(TRIAL_ANSWER_TIMEOUT_MS)]),
    });
    await res.body?.cancel();
    ctx.log(
      'info',
      `The app on the copy listened at ${app.url} and answered (HTTP ${res.status}); it was stopped.`,
    );
    return null;
  } catch (error) {
    if (ctx.signal.aborted) return failure('cancelled', 'CANCELLED', 'The build was cancelled.');
    return failure(
      'failed',
      'PREVIEW_FAILED',
      `The app listened at ${app.url} but did not answer an HTTP request within ${TRIAL_ANSWER_TIMEOUT_MS / 1000} s (${(error as Error).message}).`,
    );
  } finally {
    await app.stop('user');
  }
}

/**
 * A scratch copy of the project at `dest`: every file of the upload copied (copy-on-write where the
 * disk can), so no tool of the trial writes through to the user's files; the install's node_modules
 * hard-linked, folder by folder, so a large install costs no copy. An install in the copy replaces
 * its node_modules (removing links, never the files behind them), and tools add new files there
 * rather than rewrite the ones a package shipped.
 */
export async function snapshotProject(src: string, dest: string): Promise<void> {
  const installs: string[] = [];
  await cp(src, dest, {
    recursive: true,
    verbatimSymlinks: true,
    mode: fs.constants.COPYFILE_FICLONE,
    filter: (from) => {
      if (path.basename(from) !== 'node_modules' || !fs.lstatSync(from).isDirectory()) return true;
      installs.push(path.relative(src, from));
      return false;
    },
  });
  for (const rel of installs) await linkTree(path.join(src, rel), path.join(dest, rel));
}

/** `to` as a tree of hard links to the files of `from` (links kept as links; a copy across disks). */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const a = path.join(from, entry.name);
    const b = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(a, b);
    else if (entry.isSymbolicLink()) await symlink(await readlink(a), b);
    else if (entry.isFile()) {
      await link(a, b).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EXDEV' && error.code !== 'EPERM' && error.code !== 'EMLINK') throw error;
        await copyFile(a, b);
      });
    }
  }
}

const notRun = (detail: string): TrialResult => ({ verification: { status: 'not-run', detail } });

/** A tool error as it is told apart from another: its file, its code and its words (not its line, which an edit above it moves). */
const toolKey = (e: ToolError): string =>
  `${e.file ?? ''}|${e.code ?? ''}|${e.message.replace(/\s+/g, ' ').trim()}`;

/**
 * The errors of a failure before and after a repair, counted the same way on both sides: the
 * tools' own error lists when both steps printed some, else ScanBot's diagnoses (every error it
 * read, a package or an import each).
 */
function errorSets(before: FailureErrors, after: FailureErrors): { was: string[]; still: Set<string> } {
  if (before.errors?.length && after.errors?.length) {
    return {
      was: [...new Set(before.errors.map(toolKey))],
      still: new Set(after.errors.map(toolKey)),
    };
  }
  return { was: errorsOf(before.diagnosis), still: new Set(errorsOf(after.diagnosis)) };
}

/**
 * How far the repair took the build, from the real error lists: how many of the errors the step
 * failed with are gone (N of M, M being those it failed with), how many remain, and what it fails on
 * now. None gone: the repair did not move the build forward.
 */
export function compare(before: FailureErrors, after: FailureErrors): RepairVerification {
  const { was, still } = errorSets(before, after);
  const fixed = was.filter((e) => !still.has(e)).length;
  const now = `${after.diagnosis.summary}${where(after.diagnosis)}`;
  if (fixed === 0) {
    return { status: 'fails', detail: `tried on a copy, the build still fails the same way: ${now}` };
  }
  const left = was.length - fixed;
  const plural = (n: number) => (n === 1 ? '' : 's');
  return {
    status: 'partial',
    detail:
      `verified: fixes ${fixed} of ${was.length} error${plural(was.length)}` +
      (left > 0 ? ` (${left} remain${left === 1 ? 's' : ''})` : '') +
      `; the build then fails: ${now}`,
  };
}
