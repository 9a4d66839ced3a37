import path from 'node:path';
import {
  Blueprint,
  formatDuration,
  type AppCandidate,
  type ProjectKind,
  type Stack,
  formatCommand,
  type TestsPolicy,
} from '@forge/shared';
import {
  appFolders,
  expandWorkspace,
  rankApps,
  readWorkspace,
  workspaceBuild,
  type Member,
  type Workspace,
} from './apps.ts';
import { BlueprintError } from './blueprint-error.ts';
import { planBuildMachine, type MachineOptions } from './build-machine.ts';
import type { Argv } from './command-line.ts';
import { DecisionLog } from './decisions.ts';
import { deployBases } from './deploy-configs.ts';
import { devServerOfScript } from './dev-servers.ts';
import { loadForgeConfig, type LoadedForgeConfig } from './forge-config.ts';
import { detectFramework, INDEX_HTML } from './frameworks.ts';
import { detectNodeRequirement } from './node-version.ts';
import {
  detectPackageManager,
  settleToolchain,
  toolchainIn,
  type PackageManagerPlan,
} from './package-manager.ts';
import { PACKAGE_JSON, readPackageJson, type PackageInfo } from './package-json.ts';
import { detectStaticSite } from './static-site.ts';
import { detectTest } from './test-command.ts';
import { planTestResults } from './test-results.ts';
import { openProject, projectFolder, type ProjectFiles } from './project-files.ts';
import { projectDir, type FrameworkContext, type FrameworkPlan } from './framework-context.ts';
import {
  nxEnv,
  NX_JSON,
  planNxProject,
  readNxWorkspace,
  statedProject,
  type NxProject,
  type NxWorkspace,
} from './nx.ts';
import { noteRush, readTaskRunner } from './task-runners.ts';
import { findStacks, planStack, STACK_MARKERS, type StackPlan } from './stacks.ts';
import { rootVerdict } from './workspace-root.ts';

/** Per-stage timeout when neither the caller nor the project's forge config sets one (10 min). */
export const DEFAULT_STAGE_TIMEOUT_MS = 10 * 60_000;

export interface DetectOptions {
  /** Per-stage timeout unless the project's forge config sets `timeout`. */
  defaultTimeoutMs?: number;
  /**
   * In a repository of several apps: the project-relative folder of the app to build ("apps/web"; a
   * package name is accepted too), instead of the one Forge picks. Wins over `app` in the project's
   * forge config. A folder with no app is a BlueprintError (BLUEPRINT_UNKNOWN_APP) naming the apps.
   */
  app?: string;
  /** This machine, for the build-machine decisions (git, the registry it reaches): asked when not given. */
  machine?: MachineOptions;
}

type Plan = Omit<Blueprint, 'decisions'>;

/** Say why a static project runs no start script, so nobody wonders why theirs was skipped. */
function noteUnusedStart(ctx: FrameworkContext, pkg: PackageInfo, kind: ProjectKind): void {
  if (kind === 'server') return;
  if (pkg.scripts.start !== undefined) {
    const dev = devServerOfScript('start', pkg.scripts);
    ctx.log.add(
      'start',
      'none',
      PACKAGE_JSON,
      `"start" script not used (${pkg.scripts.start}${dev ? `: ${dev.what}` : ''}): the preview serves the ${kind === 'static' ? 'files as they are' : 'built files'}`,
    );
    return;
  }
  const previews = ['serve', 'preview'].filter((name) => pkg.scripts[name] !== undefined);
  ctx.log.add(
    'start',
    'none',
    PACKAGE_JSON,
    previews.length > 0
      ? `no "start" script; "${previews.join('" and "')}" ${previews.length > 1 ? 'are dev previews' : 'is a dev preview'}, never used as start`
      : 'no "start" script',
  );
}

/** What the forge config's `tests` setting does, for the plan's decision. */
const TESTS_POLICY_RULES: Record<TestsPolicy, string> = {
  required: 'failing tests fail the verdict of forge ci and --wait (exit 7)',
  optional: 'the tests run and are reported; failing ones leave the exit code 0',
  skip: 'the tests are not run',
};

/**
 * The project's forge config wins over detection; the kind follows what it asks for. `base` is the
 * folder of the config: an app's own config names its outputDir relative to the app's folder.
 */
function applyOverrides(plan: Plan, forge: LoadedForgeConfig, log: DecisionLog, base = '.'): void {
  const { file, config } = forge;
  for (const step of ['install', 'build', 'test', 'start'] as const) {
    const value = config[step];
    if (value === undefined) continue;
    plan[step] = value;
    log.add(
      step,
      value ? formatCommand(value) : 'none',
      file,
      value
        ? `${step} from the forge config (replaces the detected one)`
        : `${step}: false in the forge config skips it`,
    );
  }
  if (config.outputDir !== undefined) {
    plan.outputDir = projectDir(base, config.outputDir) ?? config.outputDir;
    log.add('outputDir', plan.outputDir, file, 'outputDir from the forge config');
  }
  if (config.app !== undefined && base !== '.') {
    log.add('app', 'ignored', file, '"app" is read from the forge config at the project root only');
  }
  if (config.env !== undefined) {
    plan.env = config.env;
    // Names only: values may be secrets, and decisions are printed.
    log.add(
      'env',
      Object.keys(config.env).join(', ') || 'none',
      file,
      'environment for every command, from the forge config',
    );
  }
  if (config.tests !== undefined) {
    plan.testsPolicy = config.tests;
    log.add(
      'testsPolicy',
      config.tests,
      file,
      `tests from the forge config: ${TESTS_POLICY_RULES[config.tests]}`,
    );
  }
  if (config.timeout !== undefined) {
    plan.timeoutMs = config.timeout;
    log.add(
      'timeoutMs',
      String(config.timeout),
      file,
      `timeout from the forge config (${formatDuration(config.timeout)} per stage)`,
    );
  }

  const before = plan.kind;
  let reason = '';
  if (config.start) {
    plan.kind = 'server';
    reason = 'the forge config sets a start command';
    if (config.outputDir === undefined) plan.outputDir = null;
  } else if (config.start === null && plan.kind === 'server') {
    plan.kind = plan.outputDir ? (plan.build ? 'static-build' : 'static') : 'unknown';
    reason = plan.outputDir
      ? 'the forge config turns start off and names an outputDir to serve'
      : 'the forge config turns start off and names no outputDir, so there is nothing to serve';
  } else if (config.outputDir !== undefined && plan.kind !== 'server') {
    plan.kind = plan.build ? 'static-build' : 'static';
    reason = plan.build
      ? 'the forge config names the folder the build writes'
      : 'the forge config names a folder to serve as is';
  } else if (config.build && (plan.kind === 'unknown' || plan.kind === 'static')) {
    plan.kind = 'static-build';
    reason = 'the forge config sets a build command';
    if (plan.outputDir === null) {
      plan.outputDir = projectDir(base, 'dist') ?? 'dist';
      log.add(
        'outputDir',
        plan.outputDir,
        file,
        'the conventional dist/ (set outputDir in the forge config if the build writes elsewhere)',
      );
    }
  } else if (config.build === null && plan.kind === 'static-build') {
    plan.kind = plan.outputDir ? 'static' : 'unknown';
    reason = 'the forge config turns the build off, so the output folder is served as is';
  }
  if (plan.kind !== before) log.add('kind', plan.kind, file, reason);
}

/** Environment a monorepo tool needs on a build machine (no daemon, telemetry or cloud calls). */
function setEnv(
  plan: Plan,
  env: Readonly<Record<string, string>>,
  file: string,
  rule: string,
  log: DecisionLog,
): void {
  Object.assign(plan.env, env);
  const text = Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  log.add('env', text, file, rule);
}

/** One folder planned as an app: the project root, a workspace package, or an app in a subfolder. */
interface FolderPlan {
  /** Project-relative folder ("." for the root). */
  dir: string;
  /** The project seen from that folder. */
  files: ProjectFiles;
  pkg: PackageInfo | null;
  /** Its package manager and install: its own, or the workspace root's for a workspace package. */
  pm: PackageManagerPlan | null;
  framework: FrameworkPlan;
  test: Argv | null;
  hasIndexHtml: boolean;
  /** Its decisions, with project-relative evidence ("apps/web/package.json"). */
  log: DecisionLog;
  /** The Nx project it is, when Nx builds it (installs at the workspace root, builds with nx). */
  nx?: NxProject;
  /** Its plan when it is another stack than JavaScript (Python, Go, a site generator…). */
  stackPlan?: StackPlan;
}

/** A folder's package.json; a broken one is reported with its project-relative path. */
async function readFolderPackage(
  files: ProjectFiles,
  dir: string,
  log: DecisionLog,
): Promise<PackageInfo | null> {
  try {
    return await readPackageJson(files, log);
  } catch (err) {
    if (err instanceof BlueprintError && dir !== '.' && err.file !== null) {
      const file = `${dir}/${err.file}`;
      throw new BlueprintError(err.code, err.message.replace(err.file, file), file, err.issues);
    }
    throw err;
  }
}

/**
 * Plan one folder as if it were the whole project: its package manager (unless a workspace's is
 * given), framework, output folder (relative to the folder), commands, each with its evidence.
 */
async function planFolder(
  files: ProjectFiles,
  dir: string,
  pkg: PackageInfo | null,
  sharedPm: PackageManagerPlan | null,
  log: DecisionLog = new DecisionLog(dir),
): Promise<FolderPlan> {
  const hasIndexHtml = await files.isFile(INDEX_HTML);
  const where = dir === '.' ? 'at the project root' : `in ${dir}/`;
  if (pkg) {
    log.add('hasPackageJson', 'true', PACKAGE_JSON, `package.json ${where}`);
    const pm = sharedPm ?? (await detectPackageManager(files, pkg, log));
    const ctx: FrameworkContext = { files, pkg, pm: pm.pm, log, dir };
    const framework = await detectFramework(ctx, hasIndexHtml);
    noteUnusedStart(ctx, pkg, framework.kind);
    return { dir, files, pkg, pm, framework, test: await detectTest(ctx, pkg), hasIndexHtml, log };
  }
  log.add('hasPackageJson', 'false', null, `no package.json ${where}: nothing to install, no scripts`);
  const none = { framework: 'unknown', kind: 'unknown', outputDir: null, build: null, start: null } as const;
  // Another stack's own files say more than an index.html beside them (a Flask app's template, a
  // Hugo theme's page): its tool builds and serves the folder.
  const stacks = await findStacks(files);
  if (stacks.length > 0) {
    const stackPlan = await planStack(files, stacks[0]!, log, stacks);
    return {
      dir,
      files,
      pkg,
      pm: null,
      framework: stackPlan.framework,
      test: null,
      hasIndexHtml,
      log,
      stackPlan,
    };
  }
  if (!hasIndexHtml) {
    const why = `no package.json and no index.html ${where}: nothing Forge knows how to build or serve`;
    log.add('framework', 'unknown', null, why);
    log.add('kind', 'unknown', null, why);
    return { dir, files, pkg, pm: null, framework: { ...none }, test: null, hasIndexHtml, log };
  }
  log.add('framework', 'static', INDEX_HTML, `index.html ${where} and no package.json: a plain static site`);
  log.add('kind', 'static', INDEX_HTML, 'already static: served as is, no build needed');
  log.add(
    'outputDir',
    '.',
    INDEX_HTML,
    dir === '.' ? 'the project folder itself is the site' : `${dir}/ itself is the site`,
  );
  const framework: FrameworkPlan = { ...none, framework: 'static', kind: 'static', outputDir: '.' };
  return { dir, files, pkg, pm: null, framework, test: null, hasIndexHtml, log };
}

/** Bundler and custom builds of a folder that declares entry points and has no page: a library. */
const LIBRARY_BUILDS = new Set(['custom', 'vite', 'webpack', 'parcel']);

/** Why a planned folder is not an app to offer, or null when it is one. */
function notAnApp(folder: FolderPlan): string | null {
  const { framework, kind } = folder.framework;
  if (kind === 'unknown') return 'nothing to build or serve';
  const entries = folder.pkg?.entryFields ?? [];
  if (folder.nx?.projectType === 'application') return null;
  if (kind !== 'server' && LIBRARY_BUILDS.has(framework) && !folder.hasIndexHtml && entries.length > 0) {
    return `a library: ${entries.join(', ')} in its package.json and no index.html`;
  }
  return null;
}

/** The app asked for, by the option or the root forge config. */
interface AppRequest {
  raw: string;
  /** Canonical project-relative folder, or null when it leaves the project. */
  dir: string | null;
  /** The forge config file it came from, or null for the option. */
  file: string | null;
  /** For rules: "the app option" / `"app" in .forgerc.json`. */
  source: string;
}

function requestedApp(opts: DetectOptions, forge: LoadedForgeConfig | null): AppRequest | null {
  if (opts.app !== undefined && opts.app.trim() !== '') {
    return { raw: opts.app.trim(), dir: projectDir(opts.app.trim()), file: null, source: 'the app option' };
  }
  const fromConfig = forge?.config.app;
  if (fromConfig !== undefined) {
    return {
      raw: fromConfig,
      dir: projectDir(fromConfig),
      file: forge!.file,
      source: `"app" in ${forge!.file}`,
    };
  }
  return null;
}

/** Where the apps of the project are and which one is built. */
interface Layout {
  chosen: FolderPlan;
  /** Every app found (the chosen one included), root first. */
  apps: FolderPlan[];
  workspace: Workspace | null;
  /** The workspace's packages (folder and package.json), when there is a workspace. */
  members: Member[];
  /** The workspace root's package manager, when there is a workspace (or an Nx workspace). */
  rootPm: PackageManagerPlan | null;
  nx: NxWorkspace | null;
}

const MAX_LISTED_NON_APPS = 8;

const pickHint = (dir: string): string => `--app ${dir} or "app": "${dir}" in the forge config`;

/**
 * Plan an Nx project as a folder: by its build target (nx.ts), or, for a project with a package.json
 * and no build target, the usual way. Null with `notApp` set when it is not an app.
 */
async function planNxFolder(
  files: ProjectFiles,
  project: NxProject,
  pkg: PackageInfo | null,
  rootPkg: PackageInfo,
  pm: PackageManagerPlan,
): Promise<FolderPlan | { notApp: string }> {
  const { dir } = project;
  const sub = projectFolder(files, dir);
  // Without a package.json of its own, the project's dependencies are the root's package.json.
  const log = new DecisionLog(dir, pkg ? undefined : new Set([PACKAGE_JSON]));
  const planned = await planNxProject({ files, project, pkg, rootPkg, pm, log });
  if (planned === null)
    return { ...(await planFolder(sub, dir, pkg, pm, new DecisionLog(dir))), nx: project };
  if ('notApp' in planned) return planned;
  const { framework, test, hasIndexHtml } = planned.app;
  return { dir, files: sub, pkg, pm, framework, test, hasIndexHtml, log, nx: project };
}

/**
 * Find the apps of the project and choose one. In a workspace (or an Nx workspace) the root is the
 * app when its own build builds it (workspace-root.ts: not a script that only runs the packages'
 * builds); otherwise every workspace package or Nx project, or every folder that may hold an app, is
 * planned on its own and the apps are ranked (apps.ts), an Nx workspace's stated project first. An
 * app asked for by the option or the forge config wins.
 */
async function findApps(
  files: ProjectFiles,
  pkg: PackageInfo | null,
  request: AppRequest | null,
  log: DecisionLog,
): Promise<Layout> {
  const workspace = pkg ? await readWorkspace(files, pkg, log) : null;
  let rootPm: PackageManagerPlan | null = null;
  if (workspace && pkg) {
    log.add(
      'workspace',
      workspace.patterns.join(', '),
      workspace.file,
      `${workspace.label}: one install at the root`,
    );
  }
  const workspaceFolders = workspace ? await expandWorkspace(files, workspace.patterns) : [];
  let nx: NxWorkspace | null = null;
  if (pkg && (await files.isFile(NX_JSON))) {
    if (pkg.depField('nx')) nx = await readNxWorkspace(files, workspaceFolders, log);
    else
      log.add('nx', 'not used', NX_JSON, 'nx is not in the root package.json, so Nx is not installed to run');
  }
  if (!workspace && !nx) await noteRush(files, log);
  if ((workspace || nx) && pkg) rootPm = await detectPackageManager(files, pkg, log);

  const rootProject = nx?.projects.find((p) => p.dir === '.');
  const rootNx =
    rootProject && pkg && rootPm ? await planNxFolder(files, rootProject, pkg, pkg, rootPm) : null;
  const root = rootNx && !('notApp' in rootNx) ? rootNx : await planFolder(files, '.', pkg, rootPm);
  // A workspace root is the app only when its own build builds it; an Nx root project when Nx builds it.
  const verdict =
    (workspace || nx) && pkg && !root.nx
      ? rootVerdict(pkg, {
          ...root.framework,
          evidence: root.log.list.findLast((d) => d.field === 'framework')?.file ?? null,
          hasIndexHtml: root.hasIndexHtml,
        })
      : null;
  const rootIsApp = root.framework.kind !== 'unknown' && (verdict?.isApp ?? true);

  const folders = nx
    ? nx.projects.filter((p) => p.dir !== '.').map((p) => p.dir)
    : workspace
      ? workspaceFolders
      : (await appFolders(files, !rootIsApp)).map((f) => f.dir);
  const members: Member[] = [];
  const found: FolderPlan[] = [];
  const notApps = new Map<string, string>();
  if (verdict && !verdict.isApp && root.framework.kind !== 'unknown') notApps.set('.', verdict.rule);
  if (rootNx && 'notApp' in rootNx) notApps.set('.', rootNx.notApp);
  for (const dir of folders) {
    const sub = projectFolder(files, dir);
    const folderLog = new DecisionLog(dir);
    let subPkg: PackageInfo | null;
    try {
      subPkg = await readFolderPackage(sub, dir, folderLog);
    } catch (err) {
      if (!(err instanceof BlueprintError)) throw err;
      notApps.set(dir, `its package.json cannot be read: ${err.message}`);
      continue;
    }
    if (subPkg && (!workspace || workspaceFolders.includes(dir))) members.push({ dir, pkg: subPkg });
    const project = nx?.projects.find((p) => p.dir === dir);
    const planned =
      project && pkg && rootPm
        ? await planNxFolder(files, project, subPkg, pkg, rootPm)
        : await planFolder(sub, dir, subPkg, rootPm, folderLog);
    const why = 'notApp' in planned ? planned.notApp : notAnApp(planned);
    if (why) notApps.set(dir, why);
    else found.push(planned as FolderPlan);
  }
  const apps = rootIsApp ? [root, ...found] : found;

  let chosen: FolderPlan;
  let rule: string;
  const stated = nx && pkg ? statedProject(nx, pkg) : null;
  const statedApp = stated ? found.find((f) => f.nx?.name === stated.name) : undefined;
  if (request) {
    chosen = await requestedFolder(files, request, { root, apps, notApps });
    rule = `asked for by ${request.source}`;
  } else if (rootIsApp) {
    chosen = root;
    rule = verdict
      ? `the project root is itself an app: ${verdict.rule}`
      : 'the project root is itself an app';
  } else if (statedApp) {
    chosen = statedApp;
    rule = stated!.rule;
  } else if (found.length > 0) {
    const ranked = rankApps(found.map((f) => ({ ...appInfo(f), folder: f })));
    chosen = ranked.app.folder;
    rule = ranked.rule;
  } else {
    chosen = root;
    rule = 'no app in the folders looked at, so the root is planned';
  }

  if (apps.length > 1 || chosen.dir !== '.' || ((workspace || nx) && notApps.size > 0)) {
    const skipped = [...notApps].map(([dir, why]) => `${dir} (${why})`);
    const shown = skipped.slice(0, MAX_LISTED_NON_APPS).join('; ');
    const more =
      skipped.length > MAX_LISTED_NON_APPS ? ` and ${skipped.length - MAX_LISTED_NON_APPS} more` : '';
    log.add(
      'apps',
      apps.map((a) => a.dir).join(', ') || 'none',
      nx ? NX_JSON : (workspace?.file ?? null),
      (nx
        ? 'the Nx projects Forge can build and serve (applications with a build target)'
        : workspace
          ? `the workspace packages Forge can build and serve`
          : 'apps found at the root, in apps/*, packages/* and the other top-level folders') +
        (skipped.length > 0 ? `; not apps: ${shown}${more}` : ''),
    );
  }
  if (chosen.dir !== '.' || apps.length > 1 || request || verdict?.isApp) {
    // Asked for: the evidence is the forge config that asks (none for the option); else the app's files.
    const evidence = request ? request.file : chosen === statedApp ? stated!.file : evidenceOf(chosen);
    log.add('app', chosen.dir, evidence, `${rule}; build another with ${pickHint('<folder>')}`);
    for (const other of apps) {
      if (other === chosen) continue;
      const { framework, kind } = other.framework;
      log.add(
        'otherApp',
        other.dir,
        evidenceOf(other),
        `${framework} (${kind}): build it instead with ${pickHint(other.dir)}`,
      );
    }
  }
  return { chosen, apps, workspace, members, rootPm, nx };
}

const evidenceOf = (folder: FolderPlan): string | null =>
  folder.nx
    ? folder.nx.file
    : folder.pkg
      ? projectDir(folder.dir, PACKAGE_JSON)
      : folder.stackPlan
        ? (folder.log.list.find((d) => d.field === 'stack')?.file ?? null)
        : folder.hasIndexHtml
          ? projectDir(folder.dir, INDEX_HTML)
          : null;

const stackOf = (folder: FolderPlan): Stack =>
  folder.stackPlan?.stack ??
  (folder.pkg === null && folder.framework.framework === 'static' ? 'static' : 'javascript');

const appInfo = (folder: FolderPlan): AppCandidate => ({
  dir: folder.dir,
  name: folder.pkg?.name ?? null,
  framework: folder.framework.framework,
  kind: folder.framework.kind,
  // Said for the other languages and generators only: an app without it is JavaScript or a static
  // site, as in plans made before.
  ...(folder.stackPlan ? { stack: folder.stackPlan.stack } : {}),
});

/**
 * The folder an app request names: one of the apps found (by folder, or by package name), the root
 * ("."), or a folder not looked into by the scan that plans to something. Anything else is an error
 * that names the apps there are.
 */
async function requestedFolder(
  files: ProjectFiles,
  request: AppRequest,
  found: { root: FolderPlan; apps: readonly FolderPlan[]; notApps: ReadonlyMap<string, string> },
): Promise<FolderPlan> {
  const { root, apps, notApps } = found;
  const dir = request.dir;
  // The root is asked for as ".": it is the app when it plans to anything, whatever the ranking said.
  const hit =
    (dir === '.'
      ? root.framework.kind !== 'unknown'
        ? root
        : undefined
      : apps.find((a) => a.dir === dir)) ??
    apps.find((a) => a.pkg?.name === request.raw || a.nx?.name === request.raw);
  if (hit) return hit;

  let why =
    dir === null
      ? 'it is not a folder inside the project'
      : dir === '.'
        ? `nothing to build or serve at the project root (${root.log.list.find((d) => d.field === 'kind')?.rule ?? 'no build script, start script or index.html'})`
        : notApps.get(dir);
  if (dir !== null && why === undefined) {
    const [hasPkg, hasIndex, stackFile] = await Promise.all([
      files.isFile(`${dir}/${PACKAGE_JSON}`),
      files.isFile(`${dir}/${INDEX_HTML}`),
      files.firstFile(STACK_MARKERS.map((m) => `${dir}/${m}`)),
    ]);
    if (hasPkg || hasIndex || stackFile) {
      const sub = projectFolder(files, dir);
      const folderLog = new DecisionLog(dir);
      const subPkg = await readFolderPackage(sub, dir, folderLog);
      // Outside the workspace's packages, the folder installs on its own.
      const folder = await planFolder(sub, dir, subPkg, null, folderLog);
      if (folder.framework.kind !== 'unknown') return folder;
      why = 'nothing to build or serve';
    } else {
      why = 'there is no package.json or index.html there';
    }
  }
  const list = apps.map((a) => `${a.dir} (${a.framework.framework})`).join(', ');
  throw new BlueprintError(
    'BLUEPRINT_UNKNOWN_APP',
    `No app "${request.raw}" in this project (${request.source}): ${why}. ` +
      (list ? `The apps Forge found: ${list}.` : 'Forge found no app in its folders.'),
    request.file,
  );
}

/**
 * Work out how to install, build, test and serve the extracted project in `projectPath`: package manager,
 * framework, output folder, commands (argv, never shell strings), with every decision and its evidence.
 * In a repository of several apps, also which app (appDir), where the install runs (installDir) and the
 * other apps. Only reads files inside the project (no installs, no network, no project code run).
 * Throws a BlueprintError when package.json or the project's forge config is broken, or when the app
 * asked for is not in the project.
 */
export async function detectBlueprint(projectPath: string, opts: DetectOptions = {}): Promise<Blueprint> {
  const files = await openProject(projectPath);
  const log = new DecisionLog();
  const pkg = await readPackageJson(files, log);
  const forge = await loadForgeConfig(files, pkg, log);

  const plan: Plan = {
    kind: 'unknown',
    framework: 'unknown',
    hasPackageJson: pkg !== null,
    packageManager: null,
    install: null,
    build: null,
    test: null,
    start: null,
    outputDir: null,
    env: {},
    timeoutMs: opts.defaultTimeoutMs ?? DEFAULT_STAGE_TIMEOUT_MS,
    toolchain: null,
    node: null,
    appDir: '.',
    installDir: '.',
    apps: [],
    gitSnapshot: false,
    mirrorHosts: [],
    site: null,
    testResults: null,
  };

  const { chosen, apps, workspace, members, rootPm, nx } = await findApps(
    files,
    pkg,
    requestedApp(opts, forge),
    log,
  );
  log.append(chosen.log);
  // A root deploy config that builds a folder (Netlify `base`) names the app its platform deploys;
  // the app choice stays apps.ts's, the plan says where the two meet or part.
  for (const base of await deployBases(files)) {
    const same = base.dir === chosen.dir;
    log.add(
      'deployBase',
      base.dir,
      base.file,
      `${base.key} = "${base.dir}" in ${base.file}: the platform deploys the app in ${base.dir}/` +
        (same
          ? ''
          : `; Forge builds ${chosen.dir === '.' ? 'the root' : chosen.dir} (${pickHint(base.dir)} to build that one)`),
    );
  }
  // A workspace package or an Nx project installs with the workspace; any other app in a subfolder on its own.
  const inWorkspace =
    chosen.nx !== undefined ||
    (workspace !== null && (chosen.dir === '.' || members.some((m) => m.dir === chosen.dir)));
  const pm = inWorkspace ? rootPm : chosen.pm;
  const fw = chosen.framework;
  const stackPlan = chosen.stackPlan;
  Object.assign(plan, {
    // An Nx project without a package.json of its own uses the workspace root's.
    hasPackageJson: chosen.pkg !== null || (chosen.nx !== undefined && pkg !== null),
    packageManager: pm?.pm ?? null,
    install: pm?.install ?? null,
    toolchain: toolchainIn(pm?.toolchain ?? null, inWorkspace ? '.' : chosen.dir),
    node: await detectNodeRequirement(files, log, {
      folders: [chosen.dir, '.'],
      toolchain: toolchainIn(pm?.toolchain ?? null, inWorkspace ? '.' : chosen.dir),
    }),
    framework: fw.framework,
    kind: fw.kind,
    stack: stackOf(chosen),
    runtime: stackPlan?.runtime ?? null,
    outputDir: fw.outputDir === null ? null : projectDir(chosen.dir, fw.outputDir),
    build: fw.build,
    start: fw.start,
    test: chosen.test,
    appDir: chosen.dir,
    installDir: inWorkspace ? '.' : chosen.dir,
    apps: apps.length > 1 ? apps.map(appInfo) : [],
  });
  if (stackPlan) {
    // Another stack installs with its own tool, in its own folder; Node plays no part.
    Object.assign(plan, {
      install: stackPlan.install,
      node: null,
      installDir: stackPlan.installFrom ? path.posix.join(chosen.dir, stackPlan.installFrom) : chosen.dir,
    });
    Object.assign(plan.env, stackPlan.env);
  }
  if (chosen.dir !== '.') {
    log.add('appDir', chosen.dir, null, "build, test and start run in the app's folder");
    log.add(
      'installDir',
      plan.installDir,
      inWorkspace ? (workspace?.file ?? NX_JSON) : evidenceOf(chosen),
      inWorkspace
        ? "the workspace root: one install for every package, with the root's package manager"
        : stackPlan?.installFrom
          ? `${plan.installDir === '.' ? 'the project root' : `${plan.installDir}/`}: the nearest folder above the app that declares its dependencies (the app's own declares none)`
          : "the app's own folder, with its own package manager and lockfile (no workspace holds it)",
    );
    if (fw.outputDir !== null) {
      log.add(
        'outputDir',
        plan.outputDir!,
        evidenceOf(chosen),
        fw.outputDir.startsWith('../')
          ? `${fw.outputDir} from the app's folder, named from the project root`
          : `${fw.outputDir} of the app, from the project root`,
      );
    }
    if (inWorkspace && workspace && !chosen.nx && chosen.pkg && rootPm && pkg) {
      const runner = await readTaskRunner(files, pkg, log);
      const build = workspaceBuild(
        { dir: chosen.dir, pkg: chosen.pkg },
        members,
        rootPm,
        workspace,
        runner,
        log,
      );
      if (build) {
        plan.build = build;
        if (runner && build.includes(runner.tool))
          setEnv(plan, runner.env, runner.file, `${runner.tool} runs offline: ${runner.envRule}`, log);
      }
    }
  }
  if (chosen.nx && nx) {
    const rule = nx.cloud
      ? "Nx runs without its daemon or terminal UI, and without Nx Cloud: nx.json's nxCloudId would send the tasks to Nx Cloud's runner, so its API is a closed local port and Nx runs them itself"
      : 'Nx runs without its daemon, terminal UI or Nx Cloud';
    setEnv(plan, nxEnv(nx), NX_JSON, rule, log);
  }

  if (opts.defaultTimeoutMs === undefined) {
    log.add(
      'timeoutMs',
      String(plan.timeoutMs),
      null,
      `default per-stage timeout (${formatDuration(plan.timeoutMs)})`,
    );
  } else {
    log.add(
      'timeoutMs',
      String(plan.timeoutMs),
      null,
      `Forge's per-stage timeout (${formatDuration(plan.timeoutMs)})`,
    );
  }
  const toolEnv = { ...plan.env };
  // The app's own forge config, then the root's: the root's settings win.
  if (chosen.dir !== '.') {
    const appLog = new DecisionLog(chosen.dir);
    const appForge = await loadForgeConfig(chosen.files, chosen.pkg, appLog);
    log.append(appLog);
    if (appForge)
      applyOverrides(plan, { ...appForge, file: projectDir(chosen.dir, appForge.file)! }, log, chosen.dir);
  }
  if (forge) applyOverrides(plan, forge, log);
  if (plan.test) {
    // The detected command runs the "test" script; one from a forge config runs as it is.
    const script = plan.test === chosen.test ? (chosen.pkg?.scripts.test ?? null) : null;
    const results = planTestResults(plan.packageManager, plan.test, script);
    plan.testResults = results.plan;
    log.add(
      'testResults',
      results.value,
      plan.test === chosen.test ? evidenceOf(chosen) : (forge?.file ?? null),
      results.rule,
    );
  }
  // What a monorepo tool needs stays under whatever the forge configs set.
  plan.env = { ...toolEnv, ...plan.env };
  settleToolchain(plan, log);
  await planBuildMachine(
    files,
    plan,
    [
      { dir: chosen.dir, pkg: chosen.pkg },
      ...(plan.installDir !== chosen.dir
        ? [{ dir: plan.installDir, pkg: plan.installDir === '.' ? pkg : null }]
        : []),
    ],
    log,
    opts.machine,
  );
  plan.site = await detectStaticSite(files, plan, chosen.pkg, log);
  for (const skipped of files.skipped)
    log.add('ignored', skipped.file, skipped.file, `not read: ${skipped.reason}`);

  // The schema is the contract every consumer relies on: a plan that breaks it is a bug here, caught here.
  return Blueprint.parse({ ...plan, decisions: log.list });
}
