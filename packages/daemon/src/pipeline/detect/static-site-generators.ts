/**
 * Static-site generators that run on Node, as their authors use them: the command that builds the site
 * (the deploy config's command, else the "build" script when it runs the tool, else whichever script
 * does — `docs:build`, `build-storybook` — else the tool's own), and the folder the tool writes (its
 * CLI flag, then its config file, then a deploy config, then its default).
 *
 * VitePress, VuePress 1 and 2, Docusaurus, Gatsby, Eleventy, Hexo, Slidev, Rspress, Expo (web) and
 * Storybook (only when it is the only site the package builds).
 */
import { defaultLoadersSync } from 'cosmiconfig';
import { formatCommand } from '@forge/shared';
import { execBin, runScript } from './command-line.ts';
import { childObject, findProp, type ConfigObject, type ConfigValue } from './config-text.ts';
import {
  configNames,
  decide,
  firstDep,
  projectDir,
  readConfigObjects,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { appOutputDir, resolveOutputDir } from './output-dir.ts';
import { PACKAGE_JSON } from './package-json.ts';
import { commandsOfScript, scriptCommands, type ScriptCommand } from './script-commands.ts';

const JS_EXTS = ['js', 'ts', 'mjs', 'mts', 'cjs', 'cts'];

/**
 * A site installs its generator; a plugin or theme only names it as a peer. "gatsby in
 * dependencies" for rules, or null when the package does not install it.
 */
function siteDep(ctx: FrameworkContext, ...names: string[]): string | null {
  for (const name of names) {
    const field = ctx.pkg.depField(name);
    if (field && field !== 'peerDependencies') return `${name} in ${field}`;
  }
  return null;
}

/** Where the site's build was found: a script, or the deploy config's command. */
interface ToolRun {
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
function findToolRun(ctx: FrameworkContext, is: (c: ScriptCommand) => boolean): ToolRun | null {
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
const subcommand = (args: readonly string[]): string => args.find((a) => !a.startsWith('-')) ?? '';

/** `bin sub …` for one of `subs`. */
const runs =
  (bins: readonly string[], subs: readonly string[]) =>
  (c: ScriptCommand): boolean =>
    bins.includes(c.bin) && subs.includes(subcommand(c.args));

/** The value of `--flag value` / `--flag=value` / `-f value` in a command's arguments. */
function flagValue(args: readonly string[], flags: readonly string[]): string | null {
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
function positionals(args: readonly string[], valued: readonly string[]): string[] {
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
function siteBuild(
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
function flagOutput(
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
function topLevel(objects: readonly ConfigObject[], key: string): ConfigValue | undefined {
  const nested = new Set([
    ...valuesOf(objects, 'build'),
    ...valuesOf(objects, 'vite'),
    ...valuesOf(objects, 'output'),
  ]);
  return findProp(objects, key, (o) => !nested.has(o))?.value;
}

/** Folders docs tools are usually kept in, for a project with no script naming one. */
const DOCS_DIRS = ['.', 'docs', 'website', 'site', 'doc', 'src'];

/** The first of DOCS_DIRS that holds `marker` (".vitepress/config", ".vuepress"). */
async function docsRoot(ctx: FrameworkContext, marker: (dir: string) => string[]): Promise<string | null> {
  for (const dir of DOCS_DIRS) if (await ctx.files.firstFile(marker(dir))) return dir;
  return null;
}

const inDir = (dir: string, file: string): string => (dir === '.' ? file : `${dir}/${file}`);

export async function detectVitePress(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = siteDep(ctx, 'vitepress');
  const run = findToolRun(ctx, runs(['vitepress'], ['build']));
  const configOf = (dir: string) => configNames(inDir(dir, '.vitepress/config'), JS_EXTS);
  const named = run ? positionals(run.command.args, VITEPRESS_VALUED)[0] : undefined;
  const found = named === undefined ? await docsRoot(ctx, configOf) : null;
  // A site builds with VitePress or keeps its config; a theme package only depends on it.
  if (!run && !(dep && found !== null)) return null;
  const root = (named !== undefined ? projectDir(named) : found) ?? '.';
  decide(
    ctx,
    'vitepress',
    'static-build',
    PACKAGE_JSON,
    `${dep ?? run!.command.text}: VitePress builds the site in ${root === '.' ? 'the project folder' : `${root}/`}`,
  );
  const config = await readConfigObjects(ctx, configOf(root));
  // --outDir is relative to the working directory; outDir in the config to the VitePress root.
  const outputDir =
    flagOutput(ctx, run, ['--outDir']) ??
    resolveOutputDir(ctx, {
      file: config?.file ?? null,
      key: 'outDir',
      value: config ? topLevel(config.objects, 'outDir') : undefined,
      base: root,
      fallback: '.vitepress/dist',
      fallbackRule: `VitePress's default ${inDir(root, '.vitepress/dist')}/`,
    });
  return siteBuild(
    ctx,
    run,
    { framework: 'vitepress', kind: 'static-build', outputDir, start: null },
    { bin: 'vitepress', args: root === '.' ? ['build'] : ['build', root], label: 'VitePress' },
  );
}

/** VitePress build options that take a value (the root is the positional that is left). */
const VITEPRESS_VALUED = ['--base', '--target', '--outDir', '--assetsInlineLimit'];

export async function detectVuePress(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = siteDep(ctx, 'vuepress', 'vuepress-vite', 'vuepress-webpack');
  const run = findToolRun(ctx, runs(['vuepress', 'vuepress-vite', 'vuepress-webpack'], ['build']));
  const configOf = (dir: string) => configNames(inDir(dir, '.vuepress/config'), [...JS_EXTS, 'yml', 'toml']);
  const named = run
    ? positionals(run.command.args, ['-d', '--dest', '-c', '--config', '--cache', '--temp'])
    : [];
  const found = named[0] === undefined ? await docsRoot(ctx, configOf) : null;
  // Plugins and themes depend on VuePress too: a site runs its build or keeps its config.
  if (!run && !(dep && found !== null)) return null;
  const source = (named[0] !== undefined ? projectDir(named[0]) : found) ?? '.';
  decide(
    ctx,
    'vuepress',
    'static-build',
    PACKAGE_JSON,
    `${dep ?? run!.command.text}: the site's source is ${source === '.' ? 'the project folder' : `${source}/`}`,
  );
  const config = await readConfigObjects(ctx, configNames(inDir(source, '.vuepress/config'), JS_EXTS));
  // `dest` (flag or config) is resolved from the working directory; the default sits in the source.
  const outputDir =
    flagOutput(ctx, run, ['-d', '--dest']) ??
    resolveOutputDir(ctx, {
      file: config?.file ?? null,
      key: 'dest',
      value: config ? topLevel(config.objects, 'dest') : undefined,
      fallback: inDir(source, '.vuepress/dist'),
      fallbackRule: `VuePress's default ${inDir(source, '.vuepress/dist')}/`,
    });
  return siteBuild(
    ctx,
    run,
    { framework: 'vuepress', kind: 'static-build', outputDir, start: null },
    { bin: 'vuepress', args: ['build', source], label: 'VuePress' },
  );
}

export async function detectDocusaurus(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = siteDep(ctx, '@docusaurus/core');
  if (!dep) return null;
  const run = findToolRun(ctx, runs(['docusaurus'], ['build']));
  const siteDir =
    (run
      ? projectDir(
          positionals(run.command.args, ['--out-dir', '--config', '--locale', '--bundler'])[0] ?? '.',
        )
      : '.') ?? '.';
  decide(ctx, 'docusaurus', 'static-build', PACKAGE_JSON, `${dep}: Docusaurus`);
  // Docusaurus resolves --out-dir from the site folder.
  const outputDir =
    flagOutput(ctx, run, ['--out-dir'], siteDir) ??
    resolveOutputDir(ctx, {
      file: null,
      key: 'docusaurus build --out-dir',
      value: undefined,
      fallback: inDir(siteDir, 'build'),
      fallbackRule: `Docusaurus's default ${inDir(siteDir, 'build')}/`,
    });
  return siteBuild(
    ctx,
    run,
    { framework: 'docusaurus', kind: 'static-build', outputDir, start: null },
    { bin: 'docusaurus', args: ['build'], label: 'Docusaurus' },
  );
}

export function detectGatsby(ctx: FrameworkContext): FrameworkPlan | null {
  const dep = siteDep(ctx, 'gatsby');
  if (!dep) return null;
  const run = findToolRun(ctx, runs(['gatsby'], ['build']));
  decide(ctx, 'gatsby', 'static-build', PACKAGE_JSON, `${dep}: Gatsby`);
  const outputDir = resolveOutputDir(ctx, {
    file: null,
    key: 'output folder',
    value: undefined,
    fallback: 'public',
    fallbackRule: 'Gatsby always builds to public/',
  });
  return siteBuild(
    ctx,
    run,
    { framework: 'gatsby', kind: 'static-build', outputDir, start: null },
    { bin: 'gatsby', args: ['build'], label: 'Gatsby' },
  );
}

const ELEVENTY_CONFIGS = ['eleventy.config.js', 'eleventy.config.mjs', 'eleventy.config.cjs', '.eleventy.js'];

export async function detectEleventy(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = siteDep(ctx, '@11ty/eleventy');
  if (!dep) return null;
  const run = findToolRun(
    ctx,
    (c) =>
      (c.bin === 'eleventy' || c.bin === '@11ty/eleventy') &&
      !c.args.some((a) => /^--(?:serve|watch)\b/.test(a)),
  );
  decide(ctx, 'eleventy', 'static-build', PACKAGE_JSON, dep);
  let outputDir = flagOutput(ctx, run, ['--output']);
  if (outputDir === null) {
    const file = await ctx.files.firstFile(ELEVENTY_CONFIGS);
    const text = file ? ((await ctx.files.read(file))?.text ?? '') : '';
    const config = file ? await readConfigObjects(ctx, [file]) : null;
    // Eleventy 3's setOutputDirectory("dist") wins over a returned or exported `dir.output`.
    const setter = /\bsetOutputDirectory\(\s*(['"`])([^'"`$]+)\1\s*\)/.exec(text);
    const dirOutput = config
      ? findProp(config.objects, 'dir', (o) => childObject(o, 'dir')?.props.has('output') ?? false)
      : null;
    outputDir = resolveOutputDir(ctx, {
      file,
      key: setter ? 'setOutputDirectory' : 'dir.output',
      value: setter
        ? { kind: 'string', value: setter[2]! }
        : dirOutput
          ? childObject(dirOutput.owner, 'dir')?.props.get('output')
          : undefined,
      fallback: '_site',
      fallbackRule: "Eleventy's default _site/",
    });
  }
  return siteBuild(
    ctx,
    run,
    { framework: 'eleventy', kind: 'static-build', outputDir, start: null },
    { bin: 'eleventy', args: [], label: 'Eleventy' },
  );
}

export async function detectHexo(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = siteDep(ctx, 'hexo');
  if (!dep) return null;
  const run = findToolRun(ctx, runs(['hexo'], ['generate', 'g']));
  decide(ctx, 'hexo', 'static-build', PACKAGE_JSON, `${dep}: Hexo`);
  const config = await ctx.files.read('_config.yml');
  let publicDir: ConfigValue | undefined;
  if (config) {
    try {
      const data = defaultLoadersSync['.yaml']('_config.yml', config.text) as { public_dir?: unknown } | null;
      if (typeof data?.public_dir === 'string') publicDir = { kind: 'string', value: data.public_dir };
    } catch (err) {
      ctx.log.add(
        'ignored',
        '_config.yml',
        '_config.yml',
        `cannot be parsed: ${(err as Error).message.split('\n')[0]}`,
      );
    }
  }
  const outputDir = resolveOutputDir(ctx, {
    file: config ? '_config.yml' : null,
    key: 'public_dir',
    value: publicDir,
    fallback: 'public',
    fallbackRule: "Hexo's default public/",
  });
  return siteBuild(
    ctx,
    run,
    { framework: 'hexo', kind: 'static-build', outputDir, start: null },
    { bin: 'hexo', args: ['generate'], label: 'Hexo' },
  );
}

export function detectSlidev(ctx: FrameworkContext): FrameworkPlan | null {
  const dep = siteDep(ctx, '@slidev/cli');
  if (!dep) return null;
  const run = findToolRun(ctx, runs(['slidev'], ['build']));
  decide(ctx, 'slidev', 'static-build', PACKAGE_JSON, `${dep}: Slidev`);
  const outputDir =
    flagOutput(ctx, run, ['--out', '-o']) ??
    resolveOutputDir(ctx, {
      file: null,
      key: 'slidev build --out',
      value: undefined,
      fallback: 'dist',
      fallbackRule: "Slidev's default dist/",
    });
  return siteBuild(
    ctx,
    run,
    { framework: 'slidev', kind: 'static-build', outputDir, start: null },
    { bin: 'slidev', args: ['build'], label: 'Slidev' },
  );
}

export async function detectRspress(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = siteDep(ctx, 'rspress', '@rspress/core');
  if (!dep) return null;
  const run = findToolRun(ctx, runs(['rspress'], ['build']));
  decide(ctx, 'rspress', 'static-build', PACKAGE_JSON, `${dep}: Rspress`);
  const config = await readConfigObjects(ctx, configNames('rspress.config', JS_EXTS));
  const outputDir = resolveOutputDir(ctx, {
    file: config?.file ?? null,
    key: 'outDir',
    value: config ? topLevel(config.objects, 'outDir') : undefined,
    fallback: 'doc_build',
    fallbackRule: "Rspress's default doc_build/",
  });
  return siteBuild(
    ctx,
    run,
    { framework: 'rspress', kind: 'static-build', outputDir, start: null },
    { bin: 'rspress', args: ['build'], label: 'Rspress' },
  );
}

/** `expo export` for the web (`-p web`, `--platform web`), or the older webpack `expo export:web`. */
function expoWebExport(c: ScriptCommand): boolean {
  if (c.bin !== 'expo') return false;
  const sub = subcommand(c.args);
  if (sub === 'export:web') return true;
  if (sub !== 'export') return false;
  const platform = flagValue(c.args, ['-p', '--platform']);
  return platform === null || platform === 'web' || platform === 'all';
}

export async function detectExpoWeb(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = siteDep(ctx, 'expo');
  if (!dep) return null;
  const run = findToolRun(ctx, expoWebExport);
  const appJson = await ctx.files.read('app.json');
  let web: { output?: unknown } = {};
  try {
    const data = appJson ? (JSON.parse(appJson.text) as { expo?: { web?: { output?: unknown } } }) : null;
    web = data?.expo?.web ?? {};
  } catch {
    // A broken app.json is Expo's to report; the web output then is its default.
  }
  const webDeps = firstDep(ctx, ['react-native-web', 'react-dom']);
  if (!webDeps && !run) {
    decide(
      ctx,
      'expo',
      'unknown',
      PACKAGE_JSON,
      `${dep} without react-native-web or react-dom: an Expo app with no web build (only iOS and Android, which Forge cannot preview)`,
    );
    return { framework: 'expo', kind: 'unknown', outputDir: null, build: null, start: null };
  }
  const legacy = run !== null && subcommand(run.command.args) === 'export:web';
  const mode = typeof web.output === 'string' ? web.output : 'single';
  if (mode === 'server' && !legacy) {
    decide(
      ctx,
      'expo-web',
      'unknown',
      'app.json',
      `${dep} with expo.web.output "server" in app.json: a server build Forge does not run (set it to "single" or "static" for a site)`,
    );
    return { framework: 'expo-web', kind: 'unknown', outputDir: null, build: null, start: null };
  }
  decide(
    ctx,
    'expo-web',
    'static-build',
    appJson ? 'app.json' : PACKAGE_JSON,
    `${dep}${webDeps ? ` and ${webDeps.rule}` : ''}: Expo's web export (${legacy ? 'expo export:web, webpack' : `expo.web.output "${mode}"`})`,
  );
  const outputDir =
    flagOutput(ctx, run, ['--output-dir']) ??
    resolveOutputDir(ctx, {
      file: null,
      key: 'expo export --output-dir',
      value: undefined,
      fallback: legacy ? 'web-build' : 'dist',
      fallbackRule: legacy ? "expo export:web's default web-build/" : "expo export's default dist/",
    });
  return siteBuild(
    ctx,
    run,
    { framework: 'expo-web', kind: 'static-build', outputDir, start: null },
    { bin: 'expo', args: ['export', '--platform', 'web'], label: 'Expo web' },
  );
}

/** `storybook build` (7+) or `build-storybook` (6). */
const storybookBuild = (c: ScriptCommand): boolean =>
  c.bin === 'build-storybook' || (c.bin === 'storybook' && subcommand(c.args) === 'build');

/**
 * Storybook is the site only when the package builds nothing else to serve: a component library (it
 * declares exports/main/types), a package whose "build" is the Storybook build, or one with no
 * "build" at all — and no index.html of an app at its root. A Storybook beside an app never wins.
 */
export async function detectStorybook(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const addon = ctx.pkg.depNames().find((n) => n.startsWith('@storybook/'));
  const dep = siteDep(ctx, 'storybook', ...(addon ? [addon] : []));
  const run = findToolRun(ctx, storybookBuild);
  if (!dep && !run) return null;
  const config = await ctx.files.firstFile(configNames('.storybook/main', JS_EXTS));
  if (!run && !config) return null;
  const { scripts, entryFields } = ctx.pkg;
  const onlySite = scripts.build === undefined || run?.script === 'build' || entryFields.length > 0;
  if (!onlySite || (await ctx.files.isFile('index.html'))) return null;
  const why =
    run?.script === 'build'
      ? 'the "build" script builds the Storybook'
      : entryFields.length > 0
        ? `a component library (${entryFields.join(', ')} in package.json) whose site is its Storybook`
        : 'no "build" script: the Storybook is the only site';
  decide(ctx, 'storybook', 'static-build', config ?? PACKAGE_JSON, `${dep ?? run!.command.text}; ${why}`);
  const outputDir =
    flagOutput(ctx, run, ['-o', '--output-dir']) ??
    resolveOutputDir(ctx, {
      file: null,
      key: 'storybook build --output-dir',
      value: undefined,
      fallback: 'storybook-static',
      fallbackRule: "Storybook's default storybook-static/",
    });
  // A library's own "build" (tsc, vite lib) is not the site: only the Storybook build is.
  if (!run) {
    const argv = execBin(ctx.pm, 'storybook', ['build']);
    ctx.log.add(
      'build',
      formatCommand(argv),
      PACKAGE_JSON,
      "no script builds the Storybook: Storybook's own build command",
    );
    return { framework: 'storybook', kind: 'static-build', outputDir, build: argv, start: null };
  }
  return siteBuild(
    ctx,
    run,
    { framework: 'storybook', kind: 'static-build', outputDir, start: null },
    { bin: 'storybook', args: ['build'], label: 'Storybook' },
  );
}
