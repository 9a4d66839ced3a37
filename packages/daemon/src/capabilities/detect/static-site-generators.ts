/**
 * Static-site generators that run on Node, as their authors use them: Gatsby, Eleventy, Hexo, Slidev,
 * Expo (web) and Storybook (only when it is the only site the package builds). The build command and
 * the output folder follow the rules of site-build.ts; the documentation generators are in
 * docs-generators.ts.
 */
import { defaultLoadersSync } from 'cosmiconfig';
import { formatCommand } from '@forge/shared';
import { execBin } from './command-line.ts';
import { childObject, findProp, type ConfigValue } from './config-text.ts';
import {
  configNames,
  decide,
  firstDep,
  readConfigObjects,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { resolveOutputDir } from './output-dir.ts';
import { PACKAGE_JSON } from './package-json.ts';
import { type ScriptCommand } from './script-commands.ts';
import {
  JS_EXTS,
  findToolRun,
  flagOutput,
  flagValue,
  runs,
  siteBuild,
  siteDep,
  subcommand,
} from './site-build.ts';

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
