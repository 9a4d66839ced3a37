/**
 * Documentation-site generators: VitePress, VuePress 1 and 2, Docusaurus and Rspress. Each builds the
 * docs root its script names (or the folder that holds its config) into the folder its flag, its
 * config, a deploy config or its default names (site-build.ts has the shared rules).
 */
import {
  configNames,
  decide,
  projectDir,
  readConfigObjects,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { resolveOutputDir } from './output-dir.ts';
import { PACKAGE_JSON } from './package-json.ts';
import {
  JS_EXTS,
  docsRoot,
  findToolRun,
  flagOutput,
  inDir,
  positionals,
  runs,
  siteBuild,
  siteDep,
  topLevel,
} from './site-build.ts';

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
