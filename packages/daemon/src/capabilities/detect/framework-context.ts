import { formatCommand } from '@forge/shared';
import type { PackageManager, ProjectKind } from '@forge/shared';
import { execBin, runScript, type Argv } from './command-line.ts';
import { scanObjects, type ConfigObject } from './config-text.ts';
import type { DecisionLog } from './decisions.ts';
import type { DeployEvidence } from './deploy-configs.ts';
import { describeDevServer, devServerOfScript, nodeEntryOf, type DevServer } from './dev-servers.ts';
import { PACKAGE_JSON, type PackageInfo } from './package-json.ts';
import type { ProjectFiles } from './project-files.ts';

export { projectDir } from './project-dir.ts';

/** What a framework rule decides. */
export interface FrameworkPlan {
  framework: string;
  kind: ProjectKind;
  outputDir: string | null;
  build: Argv | null;
  start: Argv | null;
}

/** Everything a framework rule may look at. */
export interface FrameworkContext {
  files: ProjectFiles;
  pkg: PackageInfo;
  pm: PackageManager;
  log: DecisionLog;
  /** What the app's deploy configs say (netlify.toml, vercel.json, …), once read (deploy-evidence.ts). */
  deploy?: DeployEvidence;
  /** Project-relative folder `files` sees ("apps/web"); the root when absent. */
  dir?: string;
}

/** Config file names a framework accepts, in the order its CLI looks for them. */
export const configNames = (base: string, exts: readonly string[]): string[] =>
  exts.map((ext) => `${base}.${ext}`);

/** "vite in devDependencies", for rules. */
export function depRule(ctx: FrameworkContext, name: string): string | null {
  const field = ctx.pkg.depField(name);
  return field ? `${name} in ${field}` : null;
}

/** The first of `names` the project depends on, with the rule text. */
export function firstDep(
  ctx: FrameworkContext,
  names: readonly string[],
): { name: string; rule: string } | null {
  for (const name of names) {
    const rule = depRule(ctx, name);
    if (rule) return { name, rule };
  }
  return null;
}

/** A config file's object literals, read as text (never run). */
export async function readConfigObjects(
  ctx: FrameworkContext,
  names: readonly string[],
): Promise<{ file: string; objects: ConfigObject[] } | null> {
  const file = await ctx.files.firstFile(names);
  if (!file) return null;
  const content = await ctx.files.read(file);
  return content ? { file, objects: scanObjects(content.text) } : null;
}

/** The value of a `--flag value` or `--flag=value` option in a script, for output-dir flags. */
export function scriptFlag(script: string | undefined, flags: readonly string[]): string | null {
  if (!script) return null;
  for (const flag of flags) {
    const escaped = flag.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
    const match = new RegExp(`(?:^|\\s)${escaped}(?:=|\\s+)(["']?)([^\\s"'&|;]+)\\1`).exec(script);
    if (match?.[2]) return match[2];
  }
  return null;
}

/** A production server or a static build, with its build command: the script, or the framework's own. */
export function withBuild(
  ctx: FrameworkContext,
  plan: Omit<FrameworkPlan, 'build'>,
  fallback: { bin: string; args: string[]; label: string } | null,
): FrameworkPlan {
  const script = ctx.pkg.scripts.build;
  const deployed = ctx.deploy?.build;
  // The command the site is deployed with builds what is deployed: it comes before the "build" script.
  if (deployed?.argv) {
    const same =
      script !== undefined && formatCommand(deployed.argv) === formatCommand(runScript(ctx.pm, 'build'));
    ctx.log.add(
      'build',
      formatCommand(deployed.argv),
      deployed.setting.file,
      `${deployed.setting.key} = "${deployed.setting.value}" in ${deployed.setting.file}: the command the site is deployed with (${deployed.how})` +
        (script !== undefined && !same ? `, not the "build" script (${script})` : ''),
    );
    return { ...plan, build: deployed.argv };
  }
  if (deployed) {
    ctx.log.add(
      'deployConfig',
      deployed.setting.value,
      deployed.setting.file,
      `${deployed.setting.key} in ${deployed.setting.file} is not used: ${deployed.why}`,
    );
  }
  if (script !== undefined) {
    const argv = runScript(ctx.pm, 'build');
    ctx.log.add('build', formatCommand(argv), PACKAGE_JSON, `"build" script: ${script}`);
    return { ...plan, build: argv };
  }
  if (fallback) {
    const argv = execBin(ctx.pm, fallback.bin, fallback.args);
    ctx.log.add(
      'build',
      formatCommand(argv),
      PACKAGE_JSON,
      `no "build" script: ${fallback.label}'s own build command`,
    );
    return { ...plan, build: argv };
  }
  ctx.log.add('build', 'none', PACKAGE_JSON, 'no "build" script');
  return { ...plan, build: null };
}

/** Scripts that, by convention, hold the production server when `start` runs a dev server (Nest's). */
const PRODUCTION_START_SCRIPTS = ['start:prod', 'start:production'];

/** Contexts whose dev-server start script has been noted, so the plan says it once. */
const notedDevStart = new WeakSet<FrameworkContext>();

type StartChoice = { argv: Argv; rule: string } | { dev: DevServer };

function chooseStartScript(ctx: FrameworkContext): StartChoice | null {
  const { scripts } = ctx.pkg;
  const script = scripts.start;
  if (script === undefined) return null;
  const dev = devServerOfScript('start', scripts);
  if (!dev) return { argv: runScript(ctx.pm, 'start'), rule: `"start" script: ${script}` };
  for (const name of PRODUCTION_START_SCRIPTS) {
    if (scripts[name] !== undefined && !devServerOfScript(name, scripts)) {
      return {
        argv: runScript(ctx.pm, name),
        rule: `"${name}" script: ${scripts[name]} (the production start, as "start" is a dev server)`,
      };
    }
  }
  const same = nodeEntryOf(dev);
  if (same) {
    return {
      argv: same,
      rule: `the "start" script runs ${describeDevServer(dev)}: Forge runs the same file with ${formatCommand(same)}`,
    };
  }
  return { dev };
}

/** The production start script, without recording anything: for rules that only ask whether there is one. */
export function productionStart(ctx: FrameworkContext): { argv: Argv; rule: string } | null {
  const choice = chooseStartScript(ctx);
  return choice && 'argv' in choice ? choice : null;
}

/**
 * The production server command: the `start` script, unless it runs a dev server, a watcher or a
 * build preview (see dev-servers.ts) — then a `start:prod` script if there is one that is not, or
 * `node <file>` for a watcher that only restarts that file (`nodemon server.js`). The first time a
 * dev-server start is passed over, the plan records it.
 */
export function startScript(ctx: FrameworkContext): { argv: Argv; rule: string } | null {
  const choice = chooseStartScript(ctx);
  if (choice && 'dev' in choice && !notedDevStart.has(ctx)) {
    notedDevStart.add(ctx);
    ctx.log.add(
      'start',
      'dev server',
      PACKAGE_JSON,
      `the "start" script runs ${describeDevServer(choice.dev)}: never used as the production server`,
    );
  }
  return choice && 'argv' in choice ? choice : null;
}

/** Record framework and kind together: they are one decision with one piece of evidence. */
export function decide(
  ctx: FrameworkContext,
  framework: string,
  kind: ProjectKind,
  file: string | null,
  rule: string,
): void {
  ctx.log.add('framework', framework, file, rule);
  // For "unknown" the framework rule is the reason, and the reason is what a user needs to read.
  ctx.log.add('kind', kind, file, kind === 'unknown' ? rule : KIND_RULE[kind]);
}

const KIND_RULE: Record<ProjectKind, string> = {
  'static-build': 'builds to static files that the preview serves',
  static: 'already static: served as is, no build needed',
  server: 'a server app: its start command runs with PORT set',
  unknown: 'Forge cannot tell how to build or serve this project',
};
