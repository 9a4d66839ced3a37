/** Frameworks and bundlers that always build a static site. */
import path from 'node:path';
import { childObject, findProp } from './config-text.ts';
import {
  configNames,
  decide,
  depRule,
  firstDep,
  projectDir,
  readConfigObjects,
  scriptFlag,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { appOutputDir, resolveOutputDir } from './output-dir.ts';
import { PACKAGE_JSON } from './package-json.ts';
import { commandsOfScript } from './script-commands.ts';

const VITE_CONFIGS = configNames('vite.config', ['ts', 'js', 'mjs', 'mts', 'cjs', 'cts']);

/** UI libraries commonly built with Vite, most specific first (a Preact app may also list react aliases). */
const VITE_FLAVOURS: readonly { label: string; deps: readonly string[] }[] = [
  { label: 'Preact', deps: ['@preact/preset-vite', 'preact'] },
  { label: 'Solid', deps: ['vite-plugin-solid', 'solid-js'] },
  { label: 'Lit', deps: ['lit'] },
  { label: 'Svelte', deps: ['@sveltejs/vite-plugin-svelte', 'svelte'] },
  { label: 'Vue', deps: ['@vitejs/plugin-vue', 'vue'] },
  { label: 'React', deps: ['@vitejs/plugin-react', '@vitejs/plugin-react-swc', 'react'] },
];

export async function detectVite(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, 'vite');
  const config = await readConfigObjects(ctx, VITE_CONFIGS);
  if (!dep && !config) return null;
  const flavour = VITE_FLAVOURS.map((f) => ({ label: f.label, hit: firstDep(ctx, f.deps) })).find(
    (f) => f.hit,
  );
  const evidence = dep ?? `${config?.file} present`;
  decide(
    ctx,
    'vite',
    'static-build',
    dep ? PACKAGE_JSON : (config?.file ?? null),
    flavour?.hit ? `${evidence} (${flavour.label}: ${flavour.hit.rule})` : evidence,
  );

  // `vite build [root] --outDir x`, in the "build" script or a script it runs (`npm run build:client`).
  const viteRun = commandsOfScript('build', ctx.pkg.scripts).find(
    (c) => c.bin === 'vite' && c.args.find((a) => !a.startsWith('-')) === 'build',
  );
  // `vite build client`: the root, as Vite's CLI takes it, right after the subcommand.
  const afterBuild = viteRun ? viteRun.args[viteRun.args.indexOf('build') + 1] : undefined;
  const rootArg = afterBuild !== undefined && !afterBuild.startsWith('-') ? projectDir(afterBuild) : null;
  // A root is a folder with the app's index.html; anything else after `build` is not one.
  const cliRoot =
    rootArg !== null && rootArg !== '.' && (await ctx.files.isFile(`${rootArg}/index.html`))
      ? rootArg
      : undefined;
  const cliOutDir = viteRun ? scriptFlag(viteRun.args.join(' '), ['--outDir', '--out-dir']) : null;
  // outDir lives in `build: { outDir }` of the config object; `root` of that same object moves it.
  const build = config
    ? findProp(config.objects, 'build', (o) => childObject(o, 'build')?.props.has('outDir') ?? false)
    : null;
  const owner = build?.owner ?? (config ? findProp(config.objects, 'root')?.owner : undefined);
  const rootValue = owner?.props.get('root');
  const root =
    cliRoot ??
    (rootValue?.kind === 'string'
      ? rootValue.value
      : rootValue?.kind === 'path' && rootValue.from !== 'absolute'
        ? path.posix.join(
            rootValue.from === 'config-dir' ? path.posix.dirname(config!.file) : '.',
            ...rootValue.segments,
          )
        : undefined);
  const rootDir = root === undefined ? null : projectDir(root);
  if (viteRun && cliOutDir !== null) {
    const dir = appOutputDir(ctx, rootDir ?? '.', cliOutDir);
    if (dir !== null) {
      const where = viteRun.script ? `the "${viteRun.script}" script (run by "build")` : 'the "build" script';
      ctx.log.add(
        'outputDir',
        dir,
        PACKAGE_JSON,
        `${viteRun.text} in ${where}${rootDir && rootDir !== '.' ? `, relative to its root ${rootDir}/` : ''}`,
      );
      return withBuild(ctx, { framework: 'vite', kind: 'static-build', outputDir: dir, start: null }, null);
    }
  }
  const outputDir = resolveOutputDir(ctx, {
    file: config?.file ?? null,
    key: 'build.outDir',
    value: build ? childObject(build.owner, 'build')?.props.get('outDir') : undefined,
    ...(rootDir && rootDir !== '.' ? { base: rootDir } : {}),
    fallback: 'dist',
    fallbackRule:
      rootDir && rootDir !== '.' ? `Vite's default dist/ inside root "${root}"` : "Vite's default dist/",
  });
  return withBuild(
    ctx,
    { framework: 'vite', kind: 'static-build', outputDir, start: null },
    { bin: 'vite', args: ['build'], label: 'Vite' },
  );
}

export async function detectVueCli(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, '@vue/cli-service');
  if (!dep) return null;
  decide(ctx, 'vue-cli', 'static-build', PACKAGE_JSON, dep);
  const config = await readConfigObjects(ctx, configNames('vue.config', ['js', 'cjs', 'mjs', 'ts']));
  const outputDir = resolveOutputDir(ctx, {
    file: config?.file ?? null,
    key: 'outputDir',
    value: config ? findProp(config.objects, 'outputDir')?.value : undefined,
    fallback: 'dist',
    fallbackRule: "Vue CLI's default dist/",
  });
  return withBuild(
    ctx,
    { framework: 'vue-cli', kind: 'static-build', outputDir, start: null },
    { bin: 'vue-cli-service', args: ['build'], label: 'Vue CLI' },
  );
}

export async function detectParcel(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const hit = firstDep(ctx, ['parcel', 'parcel-bundler']);
  if (!hit) return null;
  decide(ctx, 'parcel', 'static-build', PACKAGE_JSON, hit.rule);
  const flag = scriptFlag(ctx.pkg.scripts.build, ['--dist-dir', '-d', '--out-dir']);
  const outputDir = resolveOutputDir(ctx, {
    file: PACKAGE_JSON,
    key: 'parcel build --dist-dir',
    value: flag === null ? undefined : { kind: 'string', value: flag },
    fallback: 'dist',
    fallbackRule: "Parcel's default dist/",
  });
  // Parcel needs its entry file, which only the project's script names: no fallback command.
  return withBuild(ctx, { framework: 'parcel', kind: 'static-build', outputDir, start: null }, null);
}

/** Frameworks whose output folder is fixed, with their build binary. */
const FIXED_OUTPUT: readonly { dep: string; framework: string; dir: string; bin: string; label: string }[] = [
  { dep: 'react-scripts', framework: 'cra', dir: 'build', bin: 'react-scripts', label: 'Create React App' },
];

export function detectFixedOutput(ctx: FrameworkContext): FrameworkPlan | null {
  for (const entry of FIXED_OUTPUT) {
    const dep = depRule(ctx, entry.dep);
    if (!dep) continue;
    decide(ctx, entry.framework, 'static-build', PACKAGE_JSON, `${dep}: ${entry.label}`);
    ctx.log.add('outputDir', entry.dir, PACKAGE_JSON, `${entry.label} always builds to ${entry.dir}/`);
    return withBuild(
      ctx,
      { framework: entry.framework, kind: 'static-build', outputDir: entry.dir, start: null },
      { bin: entry.bin, args: ['build'], label: entry.label },
    );
  }
  return null;
}
