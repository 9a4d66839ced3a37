/**
 * Repositories of several apps: workspaces (npm/yarn `workspaces`, `pnpm-workspace.yaml`) and folders
 * of apps without any workspace config (`apps/*`, `frontend/`, `client/`, …). Finding the folders,
 * ranking the apps found in them, and building what a workspace app depends on.
 */
import path from 'node:path';
import { defaultLoadersSync } from 'cosmiconfig';
import { formatCommand, type ProjectKind } from '@forge/shared';
import { execBin, type Argv } from './command-line.ts';
import type { DecisionLog } from './decisions.ts';
import type { PackageManagerPlan } from './package-manager.ts';
import { PACKAGE_JSON, type PackageInfo } from './package-json.ts';
import type { ProjectFiles } from './project-files.ts';
import { runnerBuild, type TaskRunner } from './task-runners.ts';
import { STACK_MARKERS } from './stacks.ts';

export const PNPM_WORKSPACE = 'pnpm-workspace.yaml';

/** Folders conventionally holding one app each, looked into when there is no workspace config. */
const APP_PARENTS = ['apps', 'packages'];

/**
 * Folder and package names of a front-end app. A folder of that name holding only an index.html is
 * also taken as a static site (`public/`, `dist/`, `site/`, …) when the project root is not an app.
 */
const WEB_NAMES = ['web', 'app', 'frontend', 'client', 'site', 'www', 'website', 'webapp'];
const STATIC_SITE_FOLDERS = new Set([
  ...WEB_NAMES,
  'public',
  'dist',
  'build',
  'docs',
  '_site',
  'out',
  'html',
  'static',
]);

/** Workspace globs are expanded this deep under `**`, visiting at most this many folders. */
const MAX_GLOB_DEPTH = 5;
const MAX_GLOB_VISITS = 1000;

/** A workspace: where it is declared and its folder patterns. */
export interface Workspace {
  file: string;
  patterns: string[];
  /** "pnpm workspace packages" / "npm workspaces": for rules. */
  label: string;
}

/**
 * The workspace the root declares: pnpm-workspace.yaml's `packages` (pnpm ignores the package.json
 * field), else package.json's `workspaces`. A pnpm-workspace.yaml with only settings
 * (`onlyBuiltDependencies`, a catalog) and no `packages` declares none.
 */
export async function readWorkspace(
  files: ProjectFiles,
  pkg: PackageInfo,
  log: DecisionLog,
): Promise<Workspace | null> {
  const yaml = await files.read(PNPM_WORKSPACE);
  if (yaml) {
    let data: unknown = null;
    try {
      data = defaultLoadersSync['.yaml'](PNPM_WORKSPACE, yaml.text);
    } catch (err) {
      log.add('workspace', 'ignored', PNPM_WORKSPACE, `cannot be parsed: ${(err as Error).message}`);
    }
    const packages = (data as { packages?: unknown } | null)?.packages;
    if (Array.isArray(packages)) {
      const patterns = packages.filter((p): p is string => typeof p === 'string' && p.trim() !== '');
      if (patterns.length > 0) return { file: PNPM_WORKSPACE, patterns, label: 'pnpm workspace packages' };
    }
  }
  if (pkg.workspacePatterns.length > 0) {
    return { file: PACKAGE_JSON, patterns: pkg.workspacePatterns, label: '"workspaces" in package.json' };
  }
  return null;
}

/** `{a,b}` alternatives expanded: `apps/{web,docs}` → `apps/web`, `apps/docs`. */
function expandBraces(pattern: string): string[] {
  const match = /\{([^{}]*)\}/.exec(pattern);
  if (!match) return [pattern];
  const [whole, inner] = match;
  return inner!.split(',').flatMap((alt) => expandBraces(pattern.replace(whole, alt)));
}

const segmentRegex = (segment: string): RegExp =>
  new RegExp(
    `^${segment
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replaceAll('*', '[^/]*')
      .replaceAll('?', '[^/]')}$`,
  );

/** Whether the folder path's segments match the pattern's (with `**` for any number of folders). */
function matches(pattern: readonly string[], dir: readonly string[]): boolean {
  if (pattern.length === 0) return dir.length === 0;
  const [head, ...rest] = pattern;
  if (head === '**') {
    for (let skip = 0; skip <= dir.length; skip++) if (matches(rest, dir.slice(skip))) return true;
    return false;
  }
  return dir.length > 0 && segmentRegex(head!).test(dir[0]!) && matches(rest, dir.slice(1));
}

const cleanPattern = (pattern: string): string[] =>
  pattern
    .trim()
    .replace(/^\.\//, '')
    .replace(/\/package\.json$/, '')
    .split('/')
    .filter((s) => s !== '' && s !== '.');

/**
 * The folders a workspace's patterns select that hold a package.json, sorted; `!` patterns exclude.
 * Folders are listed only under each pattern's literal prefix, never through links or node_modules.
 */
export async function expandWorkspace(files: ProjectFiles, patterns: readonly string[]): Promise<string[]> {
  const include = patterns
    .filter((p) => !p.trim().startsWith('!'))
    .flatMap(expandBraces)
    .map(cleanPattern);
  const exclude = patterns
    .filter((p) => p.trim().startsWith('!'))
    .flatMap((p) => expandBraces(p.trim().slice(1)))
    .map(cleanPattern);
  const found = new Set<string>();
  let visits = 0;

  const walk = async (pattern: readonly string[], at: readonly string[]): Promise<void> => {
    if (visits++ > MAX_GLOB_VISITS) return;
    const dir = at.join('/') || '.';
    if (pattern.length === 0) {
      if (at.length > 0 && (await files.isFile(`${dir}/${PACKAGE_JSON}`))) found.add(dir);
      return;
    }
    const [head, ...rest] = pattern;
    if (head === '**') {
      await walk(rest, at);
      if (at.length >= MAX_GLOB_DEPTH) return;
      for (const name of await files.listDirs(dir)) await walk(pattern, [...at, name]);
      return;
    }
    if (head!.includes('..')) return;
    if (!/[*?]/.test(head!)) {
      await walk(rest, [...at, head!]);
      return;
    }
    const regex = segmentRegex(head!);
    for (const name of await files.listDirs(dir)) if (regex.test(name)) await walk(rest, [...at, name]);
  };
  for (const pattern of include) await walk(pattern, []);
  return [...found].filter((dir) => !exclude.some((p) => matches(p, dir.split('/')))).sort();
}

/**
 * Folders that may hold an app when there is no workspace config: every top-level folder, with the
 * folders inside apps/ and packages/ instead of those two. A folder counts when it has a package.json,
 * or (with `staticSites`) when it is a conventional site folder holding an index.html.
 */
export async function appFolders(
  files: ProjectFiles,
  staticSites: boolean,
): Promise<{ dir: string; hasPackageJson: boolean }[]> {
  const out: { dir: string; hasPackageJson: boolean }[] = [];
  const consider = async (dir: string): Promise<void> => {
    if (await files.isFile(`${dir}/${PACKAGE_JSON}`)) out.push({ dir, hasPackageJson: true });
    else if (await files.firstFile(STACK_MARKERS.map((m) => `${dir}/${m}`))) {
      // An app of another stack (a Python API beside the client): planned by its own files.
      out.push({ dir, hasPackageJson: false });
    } else if (
      staticSites &&
      STATIC_SITE_FOLDERS.has(path.posix.basename(dir)) &&
      (await files.isFile(`${dir}/index.html`))
    ) {
      out.push({ dir, hasPackageJson: false });
    }
  };
  for (const name of await files.listDirs('.')) {
    if (APP_PARENTS.includes(name) && !(await files.isFile(`${name}/${PACKAGE_JSON}`))) {
      for (const child of await files.listDirs(name)) await consider(`${name}/${child}`);
    } else {
      await consider(name);
    }
  }
  return out;
}

/** An app found in the project, as far as ranking needs it. */
export interface AppInfo {
  dir: string;
  name: string | null;
  framework: string;
  kind: ProjectKind;
  /** Its stack; JavaScript when absent. */
  stack?: string;
}

/** Frameworks of apps that only serve an API or pages of their own, with no front-end framework. */
const SERVER_ONLY = new Set(['express', 'fastify', 'koa', 'hapi', 'hono', 'nest', 'node', 'nitro']);

/**
 * 0: a web app with a framework; 1: a plain static site or a Storybook (a showcase of components, not
 * the product); 2: a server; 3: a build script Forge does not know.
 */
function appClass(app: AppInfo): number {
  if (app.framework === 'custom') return 3;
  // A server of another stack (Flask, Go) is an API beside the web app, like an Express one.
  const otherStack = app.stack !== undefined && app.stack !== 'javascript' && app.stack !== 'static';
  if (app.kind === 'server' && (SERVER_ONLY.has(app.framework) || otherStack)) return 2;
  if (app.framework === 'static' || app.framework === 'storybook') return 1;
  return 0;
}

/** 0: in apps/; 1: a top-level front-end folder; 2: anywhere else; 3: in packages/ (mostly libraries). */
function location(app: AppInfo): number {
  const [first, ...rest] = app.dir.split('/');
  if (first === 'apps' && rest.length > 0) return 0;
  if (first === 'packages' && rest.length > 0) return 3;
  return rest.length === 0 && WEB_NAMES.includes(first!) ? 1 : 2;
}

const unscoped = (name: string | null): string | null => name?.replace(/^@[^/]+\//, '') ?? null;

/** The web name the app's folder or package has, if any. */
function webName(app: AppInfo): string | null {
  const base = path.posix.basename(app.dir);
  if (WEB_NAMES.includes(base)) return base;
  const name = unscoped(app.name);
  return name !== null && WEB_NAMES.includes(name) ? name : null;
}

const CLASS_REASON = [
  (a: AppInfo) =>
    `a web app (${a.framework}); web apps come before plain static sites, servers and custom builds`,
  (a: AppInfo) =>
    a.framework === 'storybook'
      ? 'a Storybook; it comes after web apps, before servers and custom builds'
      : 'a static site; static sites come before servers and custom builds',
  (a: AppInfo) => `a server app (${a.framework}); servers come before custom builds`,
  () => 'the only kind of app found: custom builds',
];
const LOCATION_REASON = [
  () => 'in apps/, which comes before other folders and packages/',
  (a: AppInfo) => `in ${a.dir}/, a usual front-end folder, which comes before other folders and packages/`,
  () => 'outside packages/, which holds libraries more often than apps',
  () => 'in packages/',
];

/**
 * The app to build among several, with the rule that decided it. The order: a web app over a static
 * site over a server over a custom build; then apps/* over top-level front-end folders over other
 * folders over packages/*; then a front-end name (web, app, frontend, client, site, …); then the
 * first folder in alphabetical order. The rule names the first criterion that set it apart.
 */
export function rankApps<T extends AppInfo>(apps: readonly T[]): { app: T; rule: string } {
  const keys = (a: AppInfo): [number, number, number] => [appClass(a), location(a), webName(a) ? 0 : 1];
  const sorted = [...apps].sort((a, b) => {
    const ka = keys(a);
    const kb = keys(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
    return a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0;
  });
  const best = sorted[0]!;
  const next = sorted[1];
  if (!next) return { app: best, rule: 'the only app found' };
  const [kb, kn] = [keys(best), keys(next)];
  if (kb[0] !== kn[0]) return { app: best, rule: CLASS_REASON[kb[0]]!(best) };
  if (kb[1] !== kn[1]) return { app: best, rule: LOCATION_REASON[kb[1]]!(best) };
  if (kb[2] !== kn[2])
    return { app: best, rule: `named "${webName(best)}", a usual name for the front-end app` };
  return { app: best, rule: 'first in alphabetical order among equally likely apps' };
}

/** A workspace package: its folder and package.json. */
export interface Member {
  dir: string;
  pkg: PackageInfo;
}

/** The workspace packages `app` depends on, directly or not, dependencies first. */
export function workspaceDependencies(app: Member, members: readonly Member[]): Member[] {
  const byName = new Map(members.filter((m) => m.pkg.name !== null).map((m) => [m.pkg.name!, m]));
  const order: Member[] = [];
  const seen = new Set<string>([app.dir]);
  const visit = (member: Member): void => {
    for (const dep of member.pkg.depNames()) {
      const target = byName.get(dep);
      if (!target || seen.has(target.dir)) continue;
      seen.add(target.dir);
      visit(target);
      order.push(target);
    }
  };
  visit(app);
  return order;
}

/** Yarn 2+ installs with --immutable / --no-immutable, Yarn 1 with --frozen-lockfile or nothing. */
const isYarnBerry = (pm: PackageManagerPlan): boolean =>
  pm.install?.some((arg) => arg === '--immutable' || arg === '--no-immutable') ?? false;

/**
 * The build of a workspace app that first builds the workspace packages it depends on (a UI library
 * the app imports from its dist/), or null to keep the app's own build. The command runs in the app's
 * folder; each package manager finds the workspace root from there.
 */
export function workspaceBuild(
  app: Member,
  members: readonly Member[],
  pm: PackageManagerPlan,
  workspace: Workspace,
  runner: TaskRunner | null,
  log: DecisionLog,
): Argv | null {
  const deps = workspaceDependencies(app, members);
  const toBuild = deps.filter((d) => d.pkg.scripts.build !== undefined);
  const names = (list: readonly Member[]): string => list.map((d) => d.pkg.name).join(', ');
  if (deps.length === 0) {
    log.add(
      'workspaceDeps',
      'none',
      `${app.dir}/${PACKAGE_JSON}`,
      'it depends on no other workspace package',
    );
    return null;
  }
  log.add(
    'workspaceDeps',
    names(deps),
    `${app.dir}/${PACKAGE_JSON}`,
    toBuild.length > 0
      ? `the workspace packages it depends on, dependencies first; ${names(toBuild)} ${toBuild.length > 1 ? 'have' : 'has'} a "build" script`
      : 'the workspace packages it depends on; none has a "build" script, so only the app is built',
  );
  if (toBuild.length === 0) return null;
  const name = app.pkg.name;
  const keep = (why: string): null => {
    log.add(
      'build',
      'app only',
      workspace.file,
      `${why}; set "build" in the forge config to build ${names(toBuild)} first`,
    );
    return null;
  };
  if (app.pkg.scripts.build === undefined)
    return keep('the app has no "build" script to run across the workspace');
  if (name === null) return keep('the app\'s package.json has no "name" to select it by');

  let argv: Argv;
  let rule: string;
  if (runner) {
    // The root's task runner knows the dependency graph and works with every package manager.
    const built = runnerBuild(runner, name);
    argv = execBin(pm.pm, built.args[0]!, built.args.slice(1));
    log.add('build', formatCommand(argv), runner.file, built.rule);
    return argv;
  }
  switch (pm.pm) {
    case 'pnpm':
      argv = ['pnpm', '--filter', `${name}...`, 'run', 'build'];
      rule = `pnpm runs "build" in ${name} and the workspace packages it depends on, dependencies first`;
      break;
    case 'npm':
      argv = [
        'npm',
        'run',
        'build',
        ...toBuild.flatMap((d) => ['--workspace', d.pkg.name!]),
        '--workspace',
        name,
      ];
      rule =
        'npm runs "build" in the workspaces in the order given: the packages it depends on first, then the app';
      break;
    case 'yarn':
      if (isYarnBerry(pm)) {
        argv = [
          'yarn',
          'workspaces',
          'foreach',
          '--recursive',
          '--topological-dev',
          '--from',
          name,
          'run',
          'build',
        ];
        rule =
          'Yarn 2+: workspaces foreach runs "build" in the app and the workspaces it depends on, dependencies first (Yarn 2 and 3 need the workspace-tools plugin)';
        break;
      }
      return keep(
        'Yarn 1 cannot run a script across chosen workspaces in dependency order (turbo.json with turbo in the root package.json would)',
      );
    case 'bun':
      return keep('Forge does not chain builds across bun workspaces');
  }
  log.add('build', formatCommand(argv), workspace.file, rule);
  return argv;
}
