import { Blueprint, formatDuration, type ProjectKind, formatCommand } from '@forge/shared';
import { runScript, type Argv } from './command-line.ts';
import { DecisionLog } from './decisions.ts';
import { loadForgeConfig, type LoadedForgeConfig } from './forge-config.ts';
import { detectFramework, INDEX_HTML } from './frameworks.ts';
import { detectPackageManager } from './package-manager.ts';
import { PACKAGE_JSON, readPackageJson, type PackageInfo } from './package-json.ts';
import { openProject } from './project-files.ts';
import type { FrameworkContext } from './framework-context.ts';

/** Per-stage timeout when neither the caller nor the project's forge config sets one (issue 3: 10 min). */
export const DEFAULT_STAGE_TIMEOUT_MS = 10 * 60_000;

export interface DetectOptions {
  /** Per-stage timeout unless the project's forge config sets `timeout`. */
  defaultTimeoutMs?: number;
}

/** npm init's placeholder: a test script that only fails. */
const NPM_PLACEHOLDER_TEST = /^\s*echo\s+\\?["']?Error: no test specified\\?["']?\s*&&\s*exit 1\s*$/;

type Plan = Omit<Blueprint, 'decisions'>;

function detectTest(ctx: FrameworkContext, pkg: PackageInfo): Argv | null {
  const script = pkg.scripts.test;
  if (script === undefined) {
    ctx.log.add('test', 'none', PACKAGE_JSON, 'no "test" script');
    return null;
  }
  if (NPM_PLACEHOLDER_TEST.test(script)) {
    ctx.log.add('test', 'none', PACKAGE_JSON, `the "test" script is npm's placeholder (${script})`);
    return null;
  }
  const argv = runScript(ctx.pm, 'test');
  ctx.log.add('test', formatCommand(argv), PACKAGE_JSON, `"test" script: ${script}`);
  return argv;
}

/** Say why a static project runs no start script, so nobody wonders why theirs was skipped. */
function noteUnusedStart(ctx: FrameworkContext, pkg: PackageInfo, kind: ProjectKind): void {
  if (kind === 'server') return;
  if (pkg.scripts.start !== undefined) {
    ctx.log.add(
      'start',
      'none',
      PACKAGE_JSON,
      `"start" script not used (${pkg.scripts.start}): the preview serves the built files`,
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

/** The project's forge config wins over detection; the kind follows what it asks for. */
function applyOverrides(plan: Plan, forge: LoadedForgeConfig, log: DecisionLog): void {
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
    plan.outputDir = config.outputDir;
    log.add('outputDir', config.outputDir, file, 'outputDir from the forge config');
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
      plan.outputDir = 'dist';
      log.add(
        'outputDir',
        'dist',
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

/**
 * Work out how to install, build, test and serve the extracted project in `projectDir`: package manager,
 * framework, output folder, commands (argv, never shell strings), with every decision and its evidence.
 * Only reads files inside the project (no installs, no network, no project code run). Throws a
 * BlueprintError when package.json or the project's forge config is broken.
 */
export async function detectBlueprint(projectDir: string, opts: DetectOptions = {}): Promise<Blueprint> {
  const files = await openProject(projectDir);
  const log = new DecisionLog();
  const pkg = await readPackageJson(files, log);
  const forge = await loadForgeConfig(files, pkg, log);
  const hasIndexHtml = await files.isFile(INDEX_HTML);

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
  };

  if (pkg) {
    log.add('hasPackageJson', 'true', PACKAGE_JSON, 'package.json at the project root');
    const pm = await detectPackageManager(files, pkg, log);
    const ctx: FrameworkContext = { files, pkg, pm: pm.pm, log };
    const framework = await detectFramework(ctx, hasIndexHtml);
    noteUnusedStart(ctx, pkg, framework.kind);
    Object.assign(plan, {
      packageManager: pm.pm,
      install: pm.install,
      framework: framework.framework,
      kind: framework.kind,
      outputDir: framework.outputDir,
      build: framework.build,
      start: framework.start,
      test: detectTest(ctx, pkg),
    });
  } else {
    log.add(
      'hasPackageJson',
      'false',
      null,
      'no package.json at the project root: nothing to install, no scripts',
    );
    if (hasIndexHtml) {
      Object.assign(plan, { kind: 'static', framework: 'static', outputDir: '.' });
      log.add(
        'framework',
        'static',
        INDEX_HTML,
        'index.html at the root and no package.json: a plain static site',
      );
      log.add('kind', 'static', INDEX_HTML, 'already static: served as is, no build needed');
      log.add('outputDir', '.', INDEX_HTML, 'the project folder itself is the site');
    } else {
      const why =
        'no package.json and no index.html at the project root: nothing Forge knows how to build or serve';
      log.add('framework', 'unknown', null, why);
      log.add('kind', 'unknown', null, why);
    }
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
  if (forge) applyOverrides(plan, forge, log);
  for (const skipped of files.skipped)
    log.add('ignored', skipped.file, skipped.file, `not read: ${skipped.reason}`);

  // The schema is the contract every consumer relies on: a plan that breaks it is a bug here, caught here.
  return Blueprint.parse({ ...plan, decisions: log.list });
}
