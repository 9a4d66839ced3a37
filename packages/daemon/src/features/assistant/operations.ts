import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  blueprintLines,
  formatCommand,
  formatDuration,
  isFinished,
  plural,
  type Blueprint,
  type Build,
  type BuildStep,
  type RepairCode,
  type ScanReport,
  type StepName,
} from '@forge/shared';
import { formatScanReport, scanProject, type ScanRunner } from '../../capabilities/scan/index.ts';
import { isValidProjectName } from '../../home-layout.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { BlueprintError, detectBlueprint } from '../../capabilities/detect/index.ts';
import { runCommand } from '../../capabilities/exec/index.ts';
import { installKey, readInstallKey } from '../../engine/install-cache.ts';
import { sourceHash } from '../../engine/source-hash.ts';
import { formatSize, type HealthBot } from '../health/health-bot.ts';
import { currentProject } from '../projects/projects.ts';
import type { CoreServices } from '../services.ts';

/**
 * The Forge assistant's operations (its text answers, docs/product.md#http-calls) about the project asked,
 * else the current one (the one the user last chose, features/projects/projects.ts): its blueprint
 * (BlueprintBot), its workflow (WorkflowBot), its issues (ScanBot) and the state of Forge (HealthBot). Each
 * answer is a job of its bot, so the bot's card says what it last did. Without a project the texts say so
 * plainly: that is not a failure.
 */

/** What the operations read: the records and folders, the bots, and what the daemon was started with. */
export interface OperationDeps extends Pick<
  CoreServices,
  'repo' | 'layout' | 'fleet' | 'settings' | 'health' | 'builds'
> {
  /** Run the project's commands (its tsc) inside bubblewrap when the machine has it. */
  sandbox: boolean;
  /** HealthBot's rounds, for the status text; null where none runs. */
  healthBot: HealthBot | null;
}

export const NO_PROJECT_TEXT =
  'There is no project yet. Upload a project ZIP (Upload Project on the dashboard, or `forge upload app.zip`), then ask again.';

interface CurrentProject {
  name: string;
  dir: string;
}

/** The project asked (a name the route checked), else the current one; null when there is none. */
function currentOf(services: OperationDeps, asked?: string | null): CurrentProject | null {
  const name = asked ?? currentProject(services.repo);
  if (!name) return null;
  const dir = services.layout.projectDir(name);
  return fs.existsSync(dir) ? { name, dir } : null;
}

/** The project's plan as a build would make it now (its chosen app of several included). */
function planOf(services: OperationDeps, project: CurrentProject): Promise<Blueprint> {
  const app = services.repo.project(project.name)?.app ?? undefined;
  return detectBlueprint(project.dir, app ? { app } : {});
}

/** The project's newest build, or null. */
const lastBuildOf = (services: OperationDeps, name: string): Build | null =>
  services.repo.list({ project: name, limit: 1 })[0] ?? null;

/** The project's newest finished build when it failed (older failures are history, not issues). */
function lastFailedBuildOf(services: OperationDeps, name: string): Build | null {
  const finished = services.repo.list({ project: name, limit: 10 }).find((b) => isFinished(b.status));
  return finished && (finished.status === 'failed' || finished.status === 'timed-out') ? finished : null;
}

const ago = (iso: string | null, now = Date.now()): string =>
  iso ? `${formatDuration(Math.max(0, now - Date.parse(iso)))} ago` : 'at an unknown time';

// ─── Blueprint ──────────────────────────────────────────────────────────────────────────────────

/** The plan as text: what will run and why, re-detected from the project's files so it is current. */
export async function forgeBlueprintText(services: OperationDeps, asked?: string | null): Promise<string> {
  const project = currentOf(services, asked);
  if (!project) return NO_PROJECT_TEXT;
  const answer = await services.fleet.run(
    'BlueprintBot',
    { label: `blueprint ${project.name}`, projectName: project.name },
    async () => {
      try {
        const bp = await planOf(services, project);
        return {
          ok: true,
          text: blueprintText(project.name, bp),
          summary: `planned ${project.name}: ${bp.framework} (${bp.kind})`,
        };
      } catch (error) {
        if (!(error instanceof BlueprintError)) throw error;
        return {
          ok: false,
          text: `BlueprintBot cannot make a plan for ${project.name}: ${error.message}`,
          summary: `no plan for ${project.name}: ${error.code}`,
        };
      }
    },
    { slot: false, summary: (r) => r.summary, failed: (r) => !r.ok },
  );
  return answer.text;
}

function blueprintText(name: string, bp: Blueprint): string {
  const lines = [`Blueprint of ${name} (BlueprintBot read its files just now)`, '', ...blueprintLines(bp)];
  const notes: string[] = [];
  if (bp.appDir !== '.')
    notes.push(
      `app folder: ${bp.appDir} (installs in ${bp.installDir === '.' ? 'the project root' : bp.installDir})`,
    );
  if (bp.apps.length > 1) {
    notes.push(
      `apps in this repository: ${bp.apps.map((a) => `${a.dir} (${a.framework}${a.dir === bp.appDir ? ', built' : ''})`).join(', ')}`,
    );
  }
  if (bp.toolchain) {
    notes.push(
      `toolchain: ${bp.toolchain.tool} ${bp.toolchain.version ?? bp.toolchain.request} from the npm registry (${bp.toolchain.source}${bp.toolchain.file ? `, ${bp.toolchain.file}` : ''})`,
    );
  }
  if (bp.node) {
    const verdict =
      bp.node.satisfied === null
        ? 'cannot tell whether it fits'
        : bp.node.satisfied
          ? 'fits'
          : 'does NOT fit';
    notes.push(
      `node: the project asks for ${bp.node.wanted} (${bp.node.file}); this machine runs ${bp.node.current}, which ${verdict}`,
    );
  }
  if (notes.length > 0) lines.push('', 'Notes', ...notes.map((n) => `  ${n}`));
  return lines.join('\n');
}

// ─── Workflow ───────────────────────────────────────────────────────────────────────────────────

/** What each repair RepairBot can make does, in the words of the workflow. */
const REPAIR_WORDS: Record<RepairCode, string> = {
  ADD_MISSING_PACKAGES: 'add the undeclared packages to package.json (versions from the package manager)',
  FIX_IMPORT_CASE: "fix an import whose letter case differs from the file's",
  REINSTALL_UNFROZEN: 'install again without the frozen lockfile (the lockfile is brought up to date)',
  LEGACY_PEER_DEPS: "install again in the package manager's legacy peer-dependency mode",
  USE_FRAMEWORK_BUILD: "use the framework's own build command",
  DROP_FOREIGN_NODE_MODULES: 'remove node_modules built for another platform and install afresh',
  ALIGN_PACKAGE_VERSIONS:
    'pin a package that must match another (react-dom to react) to the same version and install again',
  USE_COMMONJS_EXTENSION: 'rename a CommonJS .js file that "type": "module" makes ESM to .cjs',
  USE_PEER_COMPATIBLE_VERSION:
    'ask for the newest version of a package whose peer dependencies accept the project (before legacy peer mode)',
  PIN_NODE_VERSION: "declare a dependency's engines.node range in package.json, so Forge provides that Node",
  SET_OUTPUT_DIR: 'name the folder the build wrote its site to as outputDir in forge.config.json',
  ADD_IMPORT_EXTENSION: 'write the file extension an ES module import lacks',
  USE_ESM_EXTENSION: 'rename an ES module .js file that "type": "commonjs" makes CommonJS to .mjs',
};

interface WorkflowStep {
  step: StepName;
  bot: string;
  what: string;
  /** What is reused instead of done again, and whether it would be now. */
  cache?: string;
}

/** Whether the app folder's package.json has a lint script (LintBot runs it after the build). */
async function hasLintScript(projectDir: string, bp: Blueprint): Promise<boolean> {
  try {
    const pkg = JSON.parse(await readFile(path.join(projectDir, bp.appDir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, unknown>;
    };
    return typeof pkg.scripts?.lint === 'string';
  } catch {
    return false;
  }
}

/** Whether DependencyBot would reuse node_modules now (same install key as the last install). */
async function installCache(
  services: OperationDeps,
  project: CurrentProject,
  bp: Blueprint,
  last: Build | null,
): Promise<string> {
  const dir = path.join(project.dir, bp.installDir);
  // The exact package manager version is the one the last build provisioned.
  const key = await installKey(dir, { ...bp, toolchain: last?.blueprint?.toolchain ?? bp.toolchain });
  const kept = path.join(services.layout.depsDir(project.name), 'node_modules');
  const reusable =
    (await readInstallKey(path.join(dir, 'node_modules'))) === key || (await readInstallKey(kept)) === key;
  return reusable
    ? 'cached now: node_modules matches package.json, the lockfile and Node, so the next build reuses it'
    : 'runs next build: the dependencies changed since the last install (or there was none)';
}

/** Whether CacheBot would reuse the stored output now (same source and plan as the build that made it). */
async function outputCache(services: OperationDeps, project: CurrentProject, bp: Blueprint): Promise<string> {
  const output = services.repo.project(project.name)?.output;
  if (!output || !fs.existsSync(services.layout.outputDir(project.name))) {
    return 'CacheBot reuses a stored output when source and plan are unchanged; there is none yet';
  }
  const same = (await sourceHash(project.dir, bp)) === output.hash;
  return same
    ? `cached now: the source and plan are those of build ${output.buildId}, so CacheBot reuses its output`
    : `runs next build: the source or plan changed since build ${output.buildId} made the stored output`;
}

async function workflowSteps(
  services: OperationDeps,
  project: CurrentProject,
  bp: Blueprint,
  last: Build | null,
): Promise<WorkflowStep[]> {
  const steps: WorkflowStep[] = [
    {
      step: 'extract',
      bot: 'ExtractBot',
      what: 'unpack the uploaded ZIP safely (on upload; a rebuild starts from the files as they are)',
    },
    { step: 'detect', bot: 'BlueprintBot', what: `make the plan: ${bp.framework} (${bp.kind})` },
  ];
  if (bp.kind === 'unknown') return steps;
  const checks: WorkflowStep[] = [];
  if (bp.test) {
    checks.push({
      step: 'test',
      bot: 'TestBot',
      what: `${formatCommand(bp.test)} with CI=true (recorded, never fails the build)`,
    });
  }
  const previewWhat =
    bp.kind === 'server'
      ? `start ${bp.start ? formatCommand(bp.start) : 'the app'} with PORT set; the build succeeds once it answers`
      : `serve ${bp.kind === 'static' ? 'the files as they are' : `${bp.outputDir ?? 'dist'}/`} on its own port`;
  if (bp.kind !== 'server') {
    checks.push(
      { step: 'check', bot: 'UiBot', what: 'check index.html and that every asset it references exists' },
      { step: 'optimize', bot: 'OptimizationBot', what: 'report bundle sizes (gzip) and flag heavy files' },
    );
  }
  if (bp.kind === 'static') {
    return [...steps, { step: 'preview', bot: 'PreviewBot', what: previewWhat }, ...checks];
  }
  if (bp.toolchain) {
    steps.push({
      step: 'toolchain',
      bot: 'DependencyBot',
      what: `provision ${bp.toolchain.tool} ${bp.toolchain.version ?? bp.toolchain.request} from the npm registry`,
      cache: 'kept in FORGE_HOME/toolchains and reused by every project after the first fetch',
    });
  }
  if (bp.install) {
    steps.push({
      step: 'install',
      bot: 'DependencyBot',
      what: `${formatCommand(bp.install)}${bp.installDir !== '.' ? ` in ${bp.installDir}` : ''}`,
      cache: await installCache(services, project, bp, last),
    });
  }
  if (bp.build) {
    steps.push({
      step: 'build',
      bot: 'BuildBot',
      what: `${formatCommand(bp.build)}${bp.appDir !== '.' ? ` in ${bp.appDir}` : ''}${bp.kind === 'static-build' ? `, output in ${bp.outputDir ?? 'dist'}/` : ''}`,
      ...(bp.kind === 'static-build' ? { cache: await outputCache(services, project, bp) } : {}),
    });
  }
  steps.push({ step: 'preview', bot: 'PreviewBot', what: previewWhat }, ...checks);
  if (await hasLintScript(project.dir, bp)) {
    steps.push({
      step: 'lint',
      bot: 'LintBot',
      what: `${bp.packageManager ?? 'npm'} run lint with CI=1 (recorded, never fails the build)`,
    });
  }
  return steps;
}

/** How a step went in the last build: its last attempt's time and status. */
function lastRun(build: Build | null, step: StepName): string {
  if (!build) return 'not built yet';
  const ran = build.steps.filter((s: BuildStep) => s.name === step);
  const latest = ran.at(-1);
  if (!latest) return `did not run in build ${build.id}`;
  const took = latest.durationMs === null ? 'still running' : formatDuration(latest.durationMs);
  const attempts = ran.length > 1 ? `, ${ran.length} attempts` : '';
  const by = latest.botName !== ran[0]!.botName || step === 'build' ? ` by ${latest.botName}` : '';
  return `${latest.status}${by} in ${took}${attempts}`;
}

/** WorkflowBot: the steps this project's build runs, in order, with bots, commands, caches and times. */
export async function forgeWorkflowText(services: OperationDeps, asked?: string | null): Promise<string> {
  const project = currentOf(services, asked);
  if (!project) return NO_PROJECT_TEXT;
  const answer = await services.fleet.run(
    'WorkflowBot',
    { label: `workflow ${project.name}`, projectName: project.name },
    async () => {
      let bp: Blueprint;
      try {
        bp = await planOf(services, project);
      } catch (error) {
        if (!(error instanceof BlueprintError)) throw error;
        const text = `WorkflowBot cannot lay out the workflow of ${project.name}: BlueprintBot has no plan for it (${error.message}).`;
        return { ok: false, text, summary: `no workflow for ${project.name}: no plan` };
      }
      const last = lastBuildOf(services, project.name);
      const steps = await workflowSteps(services, project, bp, last);
      const text = workflowText(services, project.name, bp, steps, last);
      return { ok: true, text, summary: `workflow of ${project.name}: ${plural(steps.length, 'step')}` };
    },
    { slot: false, summary: (r) => r.summary, failed: (r) => !r.ok },
  );
  return answer.text;
}

function workflowText(
  services: OperationDeps,
  name: string,
  bp: Blueprint,
  steps: WorkflowStep[],
  last: Build | null,
): string {
  const lines = [
    `Workflow of ${name}: ${bp.framework} (${bp.kind})${bp.packageManager ? `, ${bp.packageManager}` : ''}` +
      (last ? `; times from build ${last.id} (${last.status}, ${ago(last.createdAt)})` : '; not built yet'),
    '',
  ];
  const botWidth = Math.max(...steps.map((s) => s.bot.length));
  steps.forEach((s, i) => {
    lines.push(`${String(i + 1).padStart(2)}. ${s.step.padEnd(9)} ${s.bot.padEnd(botWidth)}  ${s.what}`);
    lines.push(`    ${''.padEnd(9)} ${''.padEnd(botWidth)}  last: ${lastRun(last, s.step)}`);
    if (s.cache) lines.push(`    ${''.padEnd(9)} ${''.padEnd(botWidth)}  cache: ${s.cache}`);
  });
  if (bp.kind === 'unknown') {
    const why =
      bp.decisions.find((d) => d.field === 'kind')?.rule ?? 'no build script, start script or index.html';
    lines.push('', `The build stops after detect: Forge does not know how to build this project (${why}).`);
  }
  const autoRepair = services.settings.get().autoRepair;
  lines.push(
    '',
    'When a step fails',
    '  ScanBot diagnoses it from what the step printed and from the project: the cause, its file:line, a suggestion.',
    autoRepair
      ? '  autoRepair is on: RepairBot makes the safe repair that fits and runs the failed step again, once per kind of repair:'
      : "  autoRepair is off: RepairBot proposes the safe repair that fits; apply it with FixIt's apply button or `forge fix`:",
    ...Object.values(REPAIR_WORDS).map((w) => `    - ${w}`),
    '  Every repair is recorded with its diff and can be undone (`forge fix --undo`).',
  );
  if (last?.diagnosis) {
    const d = last.diagnosis;
    const where = d.file ? ` (${d.file}${d.line ? `:${d.line}` : ''})` : '';
    lines.push('', `The last build (${last.id}) ${last.status}: ${d.summary}${where}`);
    if (d.repair)
      lines.push(`  RepairBot's repair for it: ${REPAIR_WORDS[d.repair]}${autoRepair ? '' : ' (proposed)'}.`);
    for (const r of last.repairs) lines.push(`  ${r.status}: ${r.summary}`);
  }
  return lines.join('\n');
}

// ─── Issues ─────────────────────────────────────────────────────────────────────────────────────

const runnerFor =
  (sandbox: boolean): ScanRunner =>
  (command) =>
    runCommand({ ...command, sandbox });

/** ScanBot's scan of a project, as its job. Throws PROJECT_NOT_FOUND for a project that is not there. */
export async function scanProjectNamed(services: OperationDeps, name: string): Promise<ScanReport> {
  if (
    !isValidProjectName(name) ||
    !services.repo.project(name) ||
    !fs.existsSync(services.layout.projectDir(name))
  ) {
    throw new ForgeError('PROJECT_NOT_FOUND', `There is no project named "${name}".`);
  }
  const project = { name, dir: services.layout.projectDir(name) };
  const { sandbox } = services;
  return services.fleet.run(
    'ScanBot',
    { label: `scan ${name}`, projectName: name },
    async () => {
      const blueprint = await planOf(services, project).catch((error: unknown) => {
        if (error instanceof BlueprintError) return null;
        throw error;
      });
      return scanProject(project.dir, {
        projectName: name,
        blueprint,
        lastFailedBuild: lastFailedBuildOf(services, name),
        typeCheck: true,
        run: runnerFor(sandbox),
      });
    },
    {
      slot: false,
      summary: (r) => {
        const errors = r.issues.filter((i) => i.severity === 'error').length;
        return `scanned ${name}: ${plural(r.issues.length, 'issue')}${errors ? ` (${plural(errors, 'error')})` : ''}`;
      },
    },
  );
}

/** The scan of the current project as text: counts by severity, then each issue with its file:line. */
export async function forgeIssuesText(services: OperationDeps, asked?: string | null): Promise<string> {
  const project = currentOf(services, asked);
  if (!project) return NO_PROJECT_TEXT;
  return formatScanReport(await scanProjectNamed(services, project.name));
}

// ─── Status ─────────────────────────────────────────────────────────────────────────────────────

async function diskLine(home: string): Promise<string> {
  try {
    const s = await fs.promises.statfs(home);
    const free = s.bavail * s.bsize;
    const total = s.blocks * s.bsize;
    const percent = total > 0 ? ` (${Math.round((free / total) * 100)}%)` : '';
    return `Disk: ${formatSize(free)} free of ${formatSize(total)}${percent} where FORGE_HOME is (${home}).`;
  } catch (error) {
    return `Disk: cannot read the free space of ${home} (${(error as Error).message}).`;
  }
}

function lastBuildLines(services: OperationDeps, asked?: string | null): string[] {
  const name = asked ?? currentProject(services.repo);
  if (!name) return ['Current project: none yet (upload a project ZIP to start).'];
  const build = lastBuildOf(services, name);
  if (!build) return [`Current project: ${name}, not built yet.`];
  const took = build.durationMs === null ? '' : ` in ${formatDuration(build.durationMs)}`;
  const lines = [
    `Current project: ${name}; last build ${build.id} ${build.status}${isFinished(build.status) ? `${took}, ${ago(build.endedAt ?? build.createdAt)}` : ` (${build.stage})`}.`,
  ];
  if (build.error && build.status !== 'succeeded')
    lines.push(`  Error: ${build.error.code}: ${build.error.message}`);
  const d = build.diagnosis;
  if (d) {
    const where = d.file ? ` (${d.file}${d.line ? `:${d.line}` : ''})` : '';
    lines.push(`  Diagnosis: ${d.summary}${where}`);
    if (d.suggestion) lines.push(`  Suggestion: ${d.suggestion}`);
  }
  return lines;
}

/** How recent HealthBot's report must be for status to show it rather than check again. */
const FRESH_REPORT_MS = 5 * 60_000;

/** Daemon, fleet, builds, disk, the current project's last build and HealthBot's last check. */
export async function forgeStatusText(services: OperationDeps, asked?: string | null): Promise<string> {
  const { healthBot } = services;
  const answer = await services.fleet.run(
    'HealthBot',
    { label: 'status' },
    async () => {
      const { version, uptimeMs } = services.health.health();
      const bots = services.fleet.list();
      const count = (status: string) => bots.filter((b) => b.status === status).length;
      const { running, queued } = services.builds.load;
      let health = healthBot?.last() ?? null;
      if (healthBot && (!health || Date.now() - Date.parse(health.at) > FRESH_REPORT_MS))
        health = await healthBot.check();
      const lines = [
        'Forge status',
        `Daemon: Forge ${version}, up ${formatDuration(uptimeMs)}, Node ${process.version}, pid ${process.pid}, ${formatSize(process.memoryUsage.rss())} memory.`,
        `Fleet: ${bots.length} bots: ${count('active')} active, ${count('building')} busy, ${count('error')} in error, ${count('standby')} standby; ` +
          `jobs: ${services.fleet.activeJobs} running, ${services.fleet.queuedJobs} waiting for a slot.`,
        `Builds: ${running} running, ${queued} queued.`,
        await diskLine(services.layout.home),
        ...lastBuildLines(services, asked),
        health
          ? `HealthBot: ${health.summary} (checked ${ago(health.at)}).`
          : 'HealthBot: not running in this daemon.',
      ];
      if (health) for (const c of health.checks) lines.push(`  ${c.ok ? '✔' : '✖'} ${c.summary}`);
      return { text: lines.join('\n'), health };
    },
    {
      slot: false,
      // HealthBot's card keeps saying what its checks found, whichever job it ran last.
      summary: (r) => (r.health ? `status: ${r.health.summary}` : 'reported the status'),
      failed: (r) => r.health !== null && !r.health.ok,
    },
  );
  return answer.text;
}
