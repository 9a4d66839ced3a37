/**
 * What every static-site generator rule needs: whether the package installs the generator, which
 * script (or deploy command) runs its build, the folder a flag of that command names, and the build
 * command of the plan (static-site-generators.ts, docs-generators.ts).
 */
import { formatCommand } from '@forge/shared';
import { runScript } from './command-line.ts';
import { childObject, findProp, type ConfigObject, type ConfigValue } from './config-text.ts';
import { withBuild, type FrameworkContext, type FrameworkPlan } from './framework-context.ts';
import { appOutputDir } from './output-dir.ts';
import { PACKAGE_JSON } from './package-json.ts';
import { commandsOfScript, scriptCommands, type ScriptCommand } from './script-commands.ts';

export const JS_EXTS = ['js', 'ts', 'mjs', 'mts', 'cjs', 'cts'];

/**
 * A site installs its generator; a plugin or theme only names it as a peer. "gatsby in
 * dependencies" for rules, or null when the package does not install it.
 */
export function siteDep(ctx: FrameworkContext, ...names: string[]): string | null {
  for (const name of names) {
    const field = ctx.pkg.depField(name);
    if (field && field !== 'peerDependencies') return `${name} in ${field}`;
  }
  return null;
}

/** Where the site's build was found: a script, or the deploy config's command. */
export interface ToolRun {
  /** The script that runs it ("build", "docs:build"), or null for the deploy config's command. */
  script: string | null;
  command: ScriptCommand;
}

/** Scripts never looked at for a build: they serve or watch. */
const NOT_BUILDS = /^(?:dev|start|serve|preview|watch|test|lint)(?::|$)/;

/**
 * The command that builds the site with the tool `is` recognises: in the deploy config's command,
 * then in the "build" script (following the scripts it runs), then in the other scripts (those named
 * like a build first).
 */
export function findToolRun(ctx: FrameworkContext, is: (c: ScriptCommand) => boolean): ToolRun | null {
  const { scripts } = ctx.pkg;
  const deployed = ctx.deploy?.build;
  if (deployed?.argv) {
    const hit = scriptCommands(deployed.setting.value, scripts).find(is);
    if (hit) return { script: null, command: hit };
  }
  const inBuild = commandsOfScript('build', scripts).find(is);
  if (inBuild) return { script: 'build', command: inBuild };
  const names = Object.keys(scripts)
    .filter((name) => name !== 'build' && !NOT_BUILDS.test(name))
    .sort((a, b) => Number(!/build|generate|export/.test(a)) - Number(!/build|generate|export/.test(b)));
  for (const name of names) {
    const hit = commandsOfScript(name, scripts).find(is);
    if (hit) return { script: name, command: hit };
  }
  return null;
}

/** The first argument that is not a flag: a CLI's subcommand ("" when none). */
export const subcommand = (args: readonly string[]): string => args.find((a) => !a.startsWith('-')) ?? '';

/** `bin sub …` for one of `subs`. */
export const runs =
  (bins: readonly string[], subs: readonly string[]) =>
  (c: ScriptCommand): boolean =>
    bins.includes(c.bin) && subs.includes(subcommand(c.args));

/** The value of `--flag value` / `--flag=value` / `-f value` in a command's arguments. */
export function flagValue(args: readonly string[], flags: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    for (const flag of flags) {
      if (arg === flag && args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) return args[i + 1]!;
      if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
    }
  }
  return null;
}

/** Arguments after the subcommand that are neither flags nor the values of `valued` flags. */
export function positionals(args: readonly string[], valued: readonly string[]): string[] {
  const out: string[] = [];
  let seenSub = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('-')) {
      if (valued.includes(arg)) i++;
      continue;
    }
    if (!seenSub) seenSub = true;
    else out.push(arg);
  }
  return out;
}

/**
 * The build command of a site: the deploy config's command, the "build" script when it runs the
 * tool, the script that does (`docs:build`) when "build" does not, else withBuild's choice (the
 * "build" script, the tool's own command).
 */
export function siteBuild(
  ctx: FrameworkContext,
  run: ToolRun | null,
  plan: Omit<FrameworkPlan, 'build'>,
  fallback: { bin: string; args: string[]; label: string },
): FrameworkPlan {
  if (!run || run.script === 'build' || run.script === null || ctx.deploy?.build?.argv) {
    return withBuild(ctx, plan, fallback);
  }
  const other =
    ctx.pkg.scripts.build !== undefined ? `; the "build" script (${ctx.pkg.scripts.build}) does not` : '';
  const argv = runScript(ctx.pm, run.script);
  ctx.log.add(
    'build',
    formatCommand(argv),
    PACKAGE_JSON,
    `"${run.script}" script: ${ctx.pkg.scripts[run.script]} (it builds the ${fallback.label} site${other})`,
  );
  return { ...plan, build: argv };
}

/** An output folder named by a CLI flag of the build, relative to the folder the tool resolves it from. */
export function flagOutput(
  ctx: FrameworkContext,
  run: ToolRun | null,
  flags: readonly string[],
  base = '.',
): string | null {
  const value = run ? flagValue(run.command.args, flags) : null;
  if (value === null) return null;
  const dir = appOutputDir(ctx, base, value);
  const where = run!.script === null ? "the deploy config's command" : `the "${run!.script}" script`;
  if (dir === null) {
    ctx.log.add(
      'outputDir',
      'ignored',
      PACKAGE_JSON,
      `${run!.command.text} in ${where} writes outside the project`,
    );
    return null;
  }
  ctx.log.add(
    'outputDir',
    dir,
    run!.script === null ? ctx.deploy!.build!.setting.file : PACKAGE_JSON,
    `${run!.command.text} in ${where}`,
  );
  return dir;
}

/** Objects that are the value of a `key` property (e.g. Vite's `build: {…}` inside a docs config). */
function valuesOf(objects: readonly ConfigObject[], key: string): Set<ConfigObject> {
  const set = new Set<ConfigObject>();
  for (const o of objects) {
    const child = childObject(o, key);
    if (child) set.add(child);
  }
  return set;
}

/** A top-level setting of a docs config: not one of the bundler's nested `build`/`vite` options. */
export function topLevel(objects: readonly ConfigObject[], key: string): ConfigValue | undefined {
  const nested = new Set([
    ...valuesOf(objects, 'build'),
    ...valuesOf(objects, 'vite'),
    ...valuesOf(objects, 'output'),
  ]);
  return findProp(objects, key, (o) => !nested.has(o))?.value;
}

/** Folders docs tools are usually kept in, for a project with no script naming one. */
export const DOCS_DIRS = ['.', 'docs', 'website', 'site', 'doc', 'src'];

/** The first of DOCS_DIRS that holds `marker` (".vitepress/config", ".vuepress"). */
export async function docsRoot(
  ctx: FrameworkContext,
  marker: (dir: string) => string[],
): Promise<string | null> {
  for (const dir of DOCS_DIRS) if (await ctx.files.firstFile(marker(dir))) return dir;
  return null;
}

export const inDir = (dir: string, file: string): string => (dir === '.' ? file : `${dir}/${file}`);
