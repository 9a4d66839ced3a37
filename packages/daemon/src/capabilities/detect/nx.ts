/**
 * Nx workspaces: nx.json at the root; projects declared by project.json files (apps/web/project.json)
 * and by the workspace's package.json files; targets written in project.json, in package.json ("nx"
 * targets, and every script), or inferred by the plugins nx.json lists from a tool's config in the
 * project's folder (@nx/vite/plugin from vite.config.ts, …). All read as text: Nx is never run to plan.
 * The app is built with `nx build <project>`, which builds what the project depends on first.
 */
import path from 'node:path';
import { formatCommand } from '@forge/shared';
import { parseJson } from '../scan/jsonc.ts';
import { angularOutputDir, type AngularOutputPath } from './angular.ts';
import { execBin, type Argv } from './command-line.ts';
import type { DecisionLog } from './decisions.ts';
import {
  configNames,
  decide,
  projectDir,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { detectFramework, INDEX_HTML } from './frameworks.ts';
import { PACKAGE_JSON, type PackageInfo } from './package-json.ts';
import type { PackageManagerPlan } from './package-manager.ts';
import { projectFolder, type ProjectFiles } from './project-files.ts';
import { commandsOfScript } from './script-commands.ts';

export const NX_JSON = 'nx.json';
const PROJECT_JSON = 'project.json';

/**
 * Environment for every command of an Nx build: no daemon left running after the build, no Nx Cloud
 * (a remote cache or agents the build machine cannot reach), no interactive terminal UI.
 */
export const NX_ENV: Readonly<Record<string, string>> = {
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_TUI: 'false',
};

/**
 * Where Nx's cloud runner is sent when nx.json connects the workspace to Nx Cloud: a closed port on
 * this machine. Nx picks its cloud runner from nx.json's nxCloudId whatever NX_NO_CLOUD says; pointed
 * here it fails at once and Nx runs the tasks with its local runner, so no call leaves the machine
 * and no remote cache is read into the build.
 */
const NO_CLOUD_API = 'http://127.0.0.1:9';

/** The environment of an Nx workspace's commands (NX_ENV, and the cloud runner sent nowhere). */
export const nxEnv = (nx: NxWorkspace): Record<string, string> =>
  nx.cloud ? { ...NX_ENV, NX_CLOUD_API: NO_CLOUD_API } : { ...NX_ENV };

/** project.json files are looked for this deep, breadth first, visiting at most this many folders. */
const MAX_DEPTH = 4;
const MAX_VISITS = 2000;
/** Folders that hold build output, sources or assets, never a project.json of their own. */
const NOT_PROJECT_FOLDERS = new Set(['dist', 'build', 'out', 'coverage', 'tmp', 'src', 'public', 'assets']);

const JS_EXTS = ['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'];

/**
 * Plugins that infer a build (or test) target from a tool's config in a project's folder, and the
 * plugin option that names the target.
 */
const INFERRING_PLUGINS: readonly {
  plugin: string;
  tool: string;
  role: 'build' | 'test';
  option: string;
  configs: readonly string[];
}[] = [
  ...(
    [
      ['@nx/vite/plugin', 'vite', 'vite.config'],
      ['@nx/webpack/plugin', 'webpack', 'webpack.config'],
      ['@nx/rspack/plugin', 'rspack', 'rspack.config'],
      ['@nx/rsbuild/plugin', 'rsbuild', 'rsbuild.config'],
      ['@nx/next/plugin', 'next', 'next.config'],
      ['@nx/nuxt/plugin', 'nuxt', 'nuxt.config'],
      ['@nx/remix/plugin', 'remix', 'remix.config'],
      ['@nx/react/router-plugin', 'react-router', 'react-router.config'],
      ['@nx/rollup/plugin', 'rollup', 'rollup.config'],
    ] as const
  ).map(([plugin, tool, config]) => ({
    plugin,
    tool,
    role: 'build' as const,
    option: 'buildTargetName',
    configs: configNames(config, JS_EXTS),
  })),
  {
    plugin: '@nx/vite/plugin',
    tool: 'vitest',
    role: 'test',
    option: 'testTargetName',
    configs: configNames('vitest.config', JS_EXTS),
  },
  {
    plugin: '@nx/jest/plugin',
    tool: 'jest',
    role: 'test',
    option: 'targetName',
    configs: configNames('jest.config', JS_EXTS),
  },
];

/** A plugin may be listed by its package alone (`@nx/rsbuild`), whose main module is the plugin. */
const inferringPlugins = (name: string) =>
  INFERRING_PLUGINS.filter((p) => p.plugin === name || p.plugin === `${name}/plugin`);

/** One target of a project, as far as planning needs it. */
export interface NxTarget {
  name: string;
  /** `@nx/vite:build`, `nx:run-script`, `nx:run-commands`; null for one a plugin infers. */
  executor: string | null;
  options: Record<string, unknown>;
  outputs: string[];
  /** Project-relative file that declares it (or the tool config a plugin infers it from). */
  file: string;
  /** For rules: `targets.build in apps/web/project.json`, `inferred by @nx/vite/plugin from …`. */
  source: string;
  /** The tool of the plugin that infers it (vite, rsbuild, …); null for a declared target. */
  tool: string | null;
  /** Project-relative file that states its options and outputs (project.json over an inference). */
  settingsFile: string;
}

/** An Nx project. */
export interface NxProject {
  name: string;
  /** Project-relative folder ("." for a standalone workspace's root project). */
  dir: string;
  /** The file that declares it: its project.json, else its package.json (project-relative). */
  file: string;
  projectType: 'application' | 'library' | null;
  targets: Map<string, NxTarget>;
  /** Names of the targets an inferring plugin creates as its build target (buildTargetName). */
  buildTargets: string[];
  hasPackageJson: boolean;
}

export interface NxWorkspace {
  projects: NxProject[];
  /** nx.json `defaultProject` (what `nx build` at the root builds in older workspaces). */
  defaultProject: string | null;
  /** The plugins nx.json lists, for the plan. */
  plugins: string[];
  /** nx.json connects the workspace to Nx Cloud (nxCloudId, nxCloudAccessToken, an nx-cloud runner). */
  cloud: boolean;
}

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

async function readJson(files: ProjectFiles, file: string, log: DecisionLog): Promise<Json | null> {
  const content = await files.read(file);
  if (!content) return null;
  const parsed = parseJson(content.text, { jsonc: true });
  if (parsed.ok && isRecord(parsed.value)) return parsed.value;
  log.add(
    'nx',
    'ignored',
    file,
    parsed.ok ? 'not a JSON object' : `cannot be parsed (line ${parsed.line}: ${parsed.message})`,
  );
  return null;
}

/** `*` and `**` globs of a plugin's include/exclude, against a project-relative file. */
function globMatches(pattern: string, file: string): boolean {
  const regex = pattern
    .replace(/^\.\//, '')
    .split('/')
    .map((seg) =>
      seg === '**'
        ? '(?:[^/]+/)*'
        : `${seg
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replaceAll('*', '[^/]*')
            .replaceAll('?', '[^/]')}/`,
    )
    .join('');
  return new RegExp(`^${regex}$`).test(`${file}/`);
}

interface PluginEntry {
  plugin: string;
  options: Json;
  include: string[];
  exclude: string[];
}

function pluginEntries(nx: Json): PluginEntry[] {
  const list = Array.isArray(nx.plugins) ? nx.plugins : [];
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);
  return list.flatMap((entry): PluginEntry[] => {
    if (typeof entry === 'string') return [{ plugin: entry, options: {}, include: [], exclude: [] }];
    if (isRecord(entry) && typeof entry.plugin === 'string') {
      return [
        {
          plugin: entry.plugin,
          options: isRecord(entry.options) ? entry.options : {},
          include: strings(entry.include),
          exclude: strings(entry.exclude),
        },
      ];
    }
    return [];
  });
}

/** Folders holding a project.json, shallowest first (as `**\/project.json` finds them). */
async function projectJsonFolders(files: ProjectFiles): Promise<string[]> {
  const found: string[] = [];
  const queue: { dir: string; depth: number }[] = [{ dir: '.', depth: 0 }];
  let visits = 0;
  while (queue.length > 0 && visits++ < MAX_VISITS) {
    const { dir, depth } = queue.shift()!;
    if (await files.isFile(dir === '.' ? PROJECT_JSON : `${dir}/${PROJECT_JSON}`)) found.push(dir);
    if (depth >= MAX_DEPTH) continue;
    for (const name of await files.listDirs(dir)) {
      if (!NOT_PROJECT_FOLDERS.has(name))
        queue.push({ dir: dir === '.' ? name : `${dir}/${name}`, depth: depth + 1 });
    }
  }
  return found;
}

function readTarget(name: string, raw: unknown, file: string, source: string): NxTarget | null {
  if (!isRecord(raw)) return null;
  const options = isRecord(raw.options) ? { ...raw.options } : {};
  // `"build": { "command": "vite build" }` is shorthand for nx:run-commands.
  let executor = str(raw.executor) ?? str(raw.builder) ?? null;
  if (executor === null && str(raw.command) !== undefined) {
    executor = 'nx:run-commands';
    options.command = raw.command;
  }
  const outputs = Array.isArray(raw.outputs) ? raw.outputs.filter((o) => typeof o === 'string') : [];
  return { name, executor, options, outputs, file, source, tool: null, settingsFile: file };
}

/** A later declaration of a target refines an earlier one, as Nx merges them. */
function mergeTarget(earlier: NxTarget | undefined, later: NxTarget): NxTarget {
  if (!earlier) return later;
  return {
    ...later,
    executor: later.executor ?? earlier.executor,
    options: { ...earlier.options, ...later.options },
    outputs: later.outputs.length > 0 ? later.outputs : earlier.outputs,
    file: later.executor ? later.file : earlier.file,
    source: later.executor ? later.source : earlier.source,
    tool: later.executor ? later.tool : earlier.tool,
    settingsFile:
      later.outputs.length > 0 || Object.keys(later.options).length > 0
        ? later.settingsFile
        : earlier.settingsFile,
  };
}

async function readProject(
  files: ProjectFiles,
  dir: string,
  plugins: readonly PluginEntry[],
  log: DecisionLog,
): Promise<NxProject | null> {
  const at = (file: string): string => (dir === '.' ? file : `${dir}/${file}`);
  const projectJson = await readJson(files, at(PROJECT_JSON), log);
  const pkgJson = await readJson(files, at(PACKAGE_JSON), log);
  if (!projectJson && !pkgJson) return null;
  const pkgNx = isRecord(pkgJson?.nx) ? pkgJson.nx : {};
  const name =
    str(projectJson?.name) ??
    str(pkgNx.name) ??
    str(pkgJson?.name) ??
    (dir === '.' ? 'root' : path.posix.basename(dir));
  const type = str(projectJson?.projectType) ?? str(pkgNx.projectType);
  const targets = new Map<string, NxTarget>();
  const buildTargets: string[] = [];
  const put = (target: NxTarget | null): void => {
    if (target) targets.set(target.name, mergeTarget(targets.get(target.name), target));
  };

  // Lowest first: inferred targets, then package.json scripts and "nx" targets, then project.json.
  for (const entry of plugins) {
    for (const inferring of inferringPlugins(entry.plugin)) {
      const config = await projectFolder(files, dir).firstFile(inferring.configs);
      if (!config) continue;
      const configFile = at(config);
      if (entry.include.length > 0 && !entry.include.some((g) => globMatches(g, configFile))) continue;
      if (entry.exclude.some((g) => globMatches(g, configFile))) continue;
      const targetName = str(entry.options[inferring.option]) ?? inferring.role;
      if (targets.has(targetName)) continue;
      if (inferring.role === 'build') buildTargets.push(targetName);
      put({
        name: targetName,
        executor: null,
        options: {},
        outputs: [],
        file: configFile,
        source: `the "${targetName}" target ${entry.plugin} (in ${NX_JSON}) infers from ${configFile}`,
        tool: inferring.tool,
        settingsFile: configFile,
      });
    }
  }
  if (pkgJson) {
    const scripts = isRecord(pkgJson.scripts) ? pkgJson.scripts : {};
    const included = Array.isArray(pkgNx.includedScripts) ? pkgNx.includedScripts : null;
    for (const [script, command] of Object.entries(scripts)) {
      if (typeof command !== 'string' || (included && !included.includes(script))) continue;
      put({
        name: script,
        executor: 'nx:run-script',
        options: { script },
        outputs: [],
        file: at(PACKAGE_JSON),
        source: `the "${script}" script in ${at(PACKAGE_JSON)}`,
        tool: null,
        settingsFile: at(PACKAGE_JSON),
      });
    }
    const nxTargets = isRecord(pkgNx.targets) ? pkgNx.targets : {};
    for (const [target, raw] of Object.entries(nxTargets)) {
      put(readTarget(target, raw, at(PACKAGE_JSON), `nx.targets.${target} in ${at(PACKAGE_JSON)}`));
    }
  }
  const declared = isRecord(projectJson?.targets) ? projectJson.targets : {};
  for (const [target, raw] of Object.entries(declared)) {
    put(readTarget(target, raw, at(PROJECT_JSON), `targets.${target} in ${at(PROJECT_JSON)}`));
  }
  return {
    name,
    dir,
    file: at(projectJson ? PROJECT_JSON : PACKAGE_JSON),
    projectType: type === 'application' || type === 'library' ? type : null,
    targets,
    buildTargets,
    hasPackageJson: pkgJson !== null,
  };
}

/**
 * The Nx workspace at the project root, or null when there is no nx.json. Its projects: every
 * project.json (four folders deep, never in node_modules or output folders) and every workspace
 * package (`workspaceFolders`), sorted by folder.
 */
export async function readNxWorkspace(
  files: ProjectFiles,
  workspaceFolders: readonly string[],
  log: DecisionLog,
): Promise<NxWorkspace | null> {
  if (!(await files.isFile(NX_JSON))) return null;
  const nx = (await readJson(files, NX_JSON, log)) ?? {};
  const plugins = pluginEntries(nx);
  const dirs = [...new Set([...(await projectJsonFolders(files)), ...workspaceFolders])].sort();
  const projects: NxProject[] = [];
  for (const dir of dirs) {
    const project = await readProject(files, dir, plugins, log);
    if (project) projects.push(project);
  }
  const names = projects.map((p) => (p.dir === '.' ? `${p.name} (root)` : p.dir));
  log.add(
    'nx',
    names.join(', ') || 'no projects',
    NX_JSON,
    `an Nx workspace: its projects are the folders with a project.json${workspaceFolders.length > 0 ? ' and the workspace packages' : ''}` +
      (plugins.length > 0 ? `; plugins: ${plugins.map((p) => p.plugin).join(', ')}` : ''),
  );
  const runners = isRecord(nx.tasksRunnerOptions) ? Object.values(nx.tasksRunnerOptions) : [];
  return {
    projects,
    defaultProject: str(nx.defaultProject) ?? null,
    plugins: plugins.map((p) => p.plugin),
    cloud:
      str(nx.nxCloudId) !== undefined ||
      str(nx.nxCloudAccessToken) !== undefined ||
      runners.some((r) => isRecord(r) && (r.runner === 'nx-cloud' || r.runner === '@nrwl/nx-cloud')),
  };
}

/** The project's build target: `build`, or the one an inferring plugin names (buildTargetName). */
export function buildTargetOf(project: NxProject): NxTarget | null {
  const named = project.targets.get('build');
  if (named) return named;
  for (const name of project.buildTargets) {
    const target = project.targets.get(name);
    if (target) return target;
  }
  return null;
}

/**
 * The project the root's "build" script builds (`nx build web`, `nx run web:build`), or the
 * workspace's defaultProject: what `nx build` at the root would build. Null when neither says.
 */
export function statedProject(
  nx: NxWorkspace,
  rootPkg: PackageInfo,
): { name: string; file: string; rule: string } | null {
  for (const cmd of commandsOfScript('build', rootPkg.scripts)) {
    if (cmd.bin !== 'nx') continue;
    const [verb, arg] = cmd.args;
    const name =
      verb === 'build' && arg && !arg.startsWith('-') ? arg : verb === 'run' ? arg?.split(':')[0] : undefined;
    if (name && nx.projects.some((p) => p.name === name)) {
      return { name, file: PACKAGE_JSON, rule: `the root's "build" script builds it (${cmd.text})` };
    }
  }
  if (nx.defaultProject && nx.projects.some((p) => p.name === nx.defaultProject)) {
    return {
      name: nx.defaultProject,
      file: NX_JSON,
      rule: `defaultProject "${nx.defaultProject}" in ${NX_JSON}, what nx build builds by default`,
    };
  }
  return null;
}

/** What planning an Nx project gives: an app, a project that is not one (and why), or "plan it as a folder". */
export type NxProjectPlan =
  { app: { framework: FrameworkPlan; test: Argv | null; hasIndexHtml: boolean } } | { notApp: string } | null;

const ANGULAR_BUILDER =
  /^(?:@nx\/angular:(?:application|browser-esbuild|webpack-browser)|@angular-devkit\/build-angular:(?:application|browser|browser-esbuild)|@angular\/build:application)$/;
const VITE_BUILDER = /^@(?:nx|nrwl)\/vite:build$/;
const WEB_BUNDLER = /^@(?:nx|nrwl)\/(webpack:webpack|rspack:rspack)$/;
const NEXT_BUILDER = /^@(?:nx|nrwl)\/next:build$/;
/** Builders of Node code: a server when the project's serve target runs the result with Node. */
const NODE_BUNDLER = /^@(?:nx|nrwl)\/(?:esbuild:esbuild|node:(?:build|webpack))$/;
const NODE_COMPILER = /^@(?:nx|nrwl)\/js:(?:tsc|swc)$/;
const NODE_RUNNER = /^@(?:nx|nrwl)\/(?:js|node):(?:node|execute)$/;

/**
 * Plan an Nx project as an app: its build target decides. Known executors give the framework and the
 * output (`options.outputPath`, project-root relative; Angular's application builder adds /browser);
 * a target Nx runs through a script, a command or a plugin's inference is planned by the framework
 * rules on the project's folder, with `outputs`/`outputPath` winning where the target states them.
 * The build is `nx build <project>` (`nx run <project>:<target>` for another target name). Libraries
 * are not apps; a project with no build target and a package.json of its own is planned as a
 * folder (null).
 */
export async function planNxProject(opts: {
  files: ProjectFiles;
  project: NxProject;
  /** Its own package.json, or null: then the workspace root's dependencies are what it uses. */
  pkg: PackageInfo | null;
  rootPkg: PackageInfo;
  pm: PackageManagerPlan;
  log: DecisionLog;
}): Promise<NxProjectPlan> {
  const { files, project, rootPkg, pm, log } = opts;
  const { dir } = project;
  if (project.projectType === 'library') {
    return { notApp: `an Nx library (projectType "library" in ${project.file})` };
  }
  const target = buildTargetOf(project);
  if (!target) {
    return project.hasPackageJson ? null : { notApp: `an Nx project with no build target (${project.file})` };
  }
  const folder = projectFolder(files, dir);
  const ctx: FrameworkContext = {
    files: folder,
    // An integrated workspace's projects have no package.json: the root's dependencies are theirs,
    // and the root's scripts are the workspace's, not the project's.
    pkg: opts.pkg ?? { ...rootPkg, scripts: {}, name: null, entryFields: [] },
    pm: pm.pm,
    log,
    dir,
  };
  const hasIndexHtml = await folder.isFile(INDEX_HTML);
  /** A project-root relative folder as the plan holds it: relative to the project's folder. */
  const fromFolder = (rootRelative: string): string =>
    path.posix.relative(dir === '.' ? '' : dir, rootRelative) || '.';
  const executor = target.executor ?? '';
  const outputPath = str(target.options.outputPath);
  // Targets name their files from the project root; the log names them from the project's folder.
  const local = (file: string): string => path.posix.relative(dir === '.' ? '' : dir, file);
  const targetFile = local(target.file);
  const where = `${target.source}, executor ${executor || 'inferred'}`;

  let framework: FrameworkPlan;
  if (ANGULAR_BUILDER.test(executor)) {
    const raw = target.options.outputPath;
    const given: AngularOutputPath = isRecord(raw)
      ? { base: str(raw.base), browser: str(raw.browser) }
      : outputPath;
    const { outputDir, rule } = angularOutputDir(given, executor, project.name);
    if (outputDir === null)
      return { notApp: `the outputPath of its ${target.name} target is outside the project` };
    const ssr = target.options.ssr;
    if (executor.endsWith(':application') && ssr !== undefined && ssr !== false) {
      // SSR: the application builder writes <outputPath>/server/server.mjs beside the browser files.
      const server = `${path.posix.dirname(outputDir)}/server/server.mjs`;
      decide(ctx, 'angular', 'server', targetFile, `${where}, with server-side rendering (options.ssr)`);
      const start = ['node', fromFolder(server)];
      log.add(
        'start',
        formatCommand(start),
        targetFile,
        `the server the application builder writes (${server})`,
      );
      framework = { framework: 'angular', kind: 'server', outputDir: null, build: null, start };
    } else {
      decide(ctx, 'angular', 'static-build', targetFile, where);
      log.add('outputDir', outputDir, targetFile, `targets.${target.name}.options: ${rule}`);
      framework = {
        framework: 'angular',
        kind: 'static-build',
        outputDir: fromFolder(outputDir),
        build: null,
        start: null,
      };
    }
  } else if (NEXT_BUILDER.test(executor) && outputPath) {
    decide(ctx, 'next', 'server', targetFile, where);
    const start = execBin(pm.pm, 'next', ['start', fromFolder(outputPath)]);
    log.add(
      'start',
      formatCommand(start),
      targetFile,
      `next start serves the build @nx/next writes to ${outputPath}`,
    );
    framework = { framework: 'next', kind: 'server', outputDir: null, build: null, start };
  } else if (
    NODE_BUNDLER.test(executor) ||
    NODE_COMPILER.test(executor) ||
    (WEB_BUNDLER.test(executor) && target.options.target === 'node')
  ) {
    const serve = project.targets.get('serve');
    const runsNode = serve?.executor ? NODE_RUNNER.test(serve.executor) : false;
    if (!outputPath || (!runsNode && target.options.target !== 'node')) {
      return { notApp: `its ${target.name} target (${executor}) builds code with no server to start` };
    }
    // Bundlers write one main.js; tsc and swc keep the source layout under outputPath.
    const main = str(target.options.main);
    const entry =
      NODE_COMPILER.test(executor) && main
        ? `${outputPath}/${path.posix.relative(dir === '.' ? '' : dir, main).replace(/\.[mc]?tsx?$/, '.js')}`
        : `${outputPath}/${str(target.options.outputFileName) ?? 'main.js'}`;
    decide(
      ctx,
      'node',
      'server',
      targetFile,
      `${where}: a Node server${runsNode ? `, run by its serve target (${serve!.executor})` : ''}`,
    );
    const start = ['node', fromFolder(entry)];
    log.add(
      'start',
      formatCommand(start),
      targetFile,
      `the file ${executor} writes to options.outputPath (${outputPath})`,
    );
    framework = { framework: 'node', kind: 'server', outputDir: null, build: null, start };
  } else {
    // vite, webpack and rspack builders, scripts, commands and inferred targets: the folder says
    // what the tool is; the target's outputPath or outputs say where it writes, when they do.
    framework = await detectFramework(ctx, hasIndexHtml);
    const declared = declaredOutput(target, dir);
    const bundler = VITE_BUILDER.test(executor) || WEB_BUNDLER.test(executor);
    if (declared && framework.kind !== 'server') {
      log.add('outputDir', declared.dir, local(target.settingsFile), declared.rule);
      if (framework.kind === 'unknown' || (framework.framework === 'custom' && target.tool)) {
        // A tool Forge's framework rules do not know, run by the plugin that infers the target.
        const name = target.tool ?? 'custom';
        decide(ctx, name, 'static-build', targetFile, `${where}, which states where it writes`);
        framework = { ...framework, framework: name };
      }
      framework = { ...framework, kind: 'static-build', outputDir: fromFolder(declared.dir) };
    } else if (bundler && framework.kind === 'unknown') {
      return { notApp: `its ${target.name} target (${executor}) has no outputPath Forge can read` };
    }
    if (framework.kind === 'unknown') return { notApp: `nothing Forge can serve: ${target.source}` };
  }

  const args = target.name === 'build' ? ['build', project.name] : ['run', `${project.name}:${target.name}`];
  const build = execBin(pm.pm, 'nx', args);
  log.add(
    'build',
    formatCommand(build),
    targetFile,
    `${target.source}: Nx runs it from the workspace root, with the targets it depends on first`,
  );
  const testTarget = project.targets.get('test');
  let test: Argv | null = null;
  if (testTarget) {
    // Karma watches unless told not to; the other runners end by themselves with CI=true.
    const once = testTarget.executor?.endsWith(':karma') ? ['--watch=false'] : [];
    test = execBin(pm.pm, 'nx', ['test', project.name, ...once]);
    log.add('test', formatCommand(test), local(testTarget.file), `${testTarget.source}, run through Nx`);
  } else {
    log.add('test', 'none', local(project.file), `the Nx project "${project.name}" has no test target`);
  }
  return { app: { framework: { ...framework, build }, test, hasIndexHtml } };
}

/**
 * The folder a target says it writes (project-root relative): `options.outputPath`, else its first
 * `outputs` entry that names a plain folder (`{workspaceRoot}/dist/apps/web`, `{projectRoot}/dist`,
 * `{options.outputPath}`). Null when it says nothing readable or points outside the project.
 */
function declaredOutput(target: NxTarget, dir: string): { dir: string; rule: string } | null {
  const outputPath = str(target.options.outputPath);
  if (outputPath) {
    const out = projectDir(outputPath);
    return out ? { dir: out, rule: `targets.${target.name}.options.outputPath "${outputPath}"` } : null;
  }
  for (const output of target.outputs) {
    const expanded = output
      .replace('{workspaceRoot}', '.')
      .replace('{projectRoot}', dir)
      .replace(/^\.\//, '');
    if (/[{}*?]/.test(expanded)) continue;
    const out = projectDir(expanded);
    if (out) return { dir: out, rule: `targets.${target.name}.outputs "${output}"` };
  }
  return null;
}
