/**
 * React Router 7 in framework mode and Remix. With server rendering (the default), the build writes
 * `build/server/index.js`, which `react-router-serve` / `remix-serve` run (PORT and HOST honoured);
 * with `ssr: false` it writes a site to `build/client`: one index.html for a single-page app, or
 * the pages `prerender` lists. `buildDirectory` moves build/. Classic Remix (remix.config.js) writes
 * build/index.js and public/build.
 */
import { execBin, type Argv } from './command-line.ts';
import { findProp, type ConfigObject } from './config-text.ts';
import {
  configNames,
  decide,
  depRule,
  productionStart,
  projectDir,
  readConfigObjects,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { chooseStart, unknown, vitePreviewStart } from './meta-frameworks.ts';
import { VITE_CONFIGS } from './nitro.ts';
import { PACKAGE_JSON } from './package-json.ts';

const CONFIG_EXTS = ['ts', 'js', 'mjs', 'mts', 'cjs', 'cts'];

/** A framework-mode build: its ids, its serve binary and package, and what it reads. */
interface RouterFramework {
  /** "react-router" or "remix" (server), "-spa" and "-static" for the static builds. */
  id: string;
  label: string;
  evidence: string;
  config: { file: string; objects: ConfigObject[] } | null;
  serve: { bin: string; dep: string };
  fallbackBuild: { bin: string; args: string[]; label: string };
}

/** `key` of the framework's options, when it is a literal of that kind. */
function option(config: RouterFramework['config'], key: string, kind: 'boolean' | 'string') {
  const found = config ? findProp(config.objects, key, (o) => o.props.get(key)?.kind === kind) : null;
  return found?.value;
}

async function planRouterBuild(ctx: FrameworkContext, fw: RouterFramework): Promise<FrameworkPlan> {
  const file = fw.config?.file ?? PACKAGE_JSON;
  const ssrValue = option(fw.config, 'ssr', 'boolean');
  const ssr = ssrValue?.kind === 'boolean' ? ssrValue.value : true;
  const dirValue = option(fw.config, 'buildDirectory', 'string');
  const custom = dirValue?.kind === 'string' ? projectDir(dirValue.value) : null;
  const buildDir = custom ?? 'build';
  const dirRule = custom ? `buildDirectory "${custom}" in ${file}` : `${fw.label}'s default build/`;

  if (!ssr) {
    // `prerender: true | [...] | fn`: pages written at build time; without it, one index.html.
    // A property (`prerender: true`, `prerender: [...]`) or a method (`async prerender() { … }`).
    const prerender = fw.config ? findProp(fw.config.objects, 'prerender') : null;
    const text = fw.config && !prerender ? ((await ctx.files.read(fw.config.file))?.text ?? '') : '';
    const prerendered = prerender
      ? !(prerender.value.kind === 'boolean' && !prerender.value.value)
      : /\bprerender\s*\(/.test(text);
    const framework = prerendered ? `${fw.id}-static` : `${fw.id}-spa`;
    decide(
      ctx,
      framework,
      'static-build',
      file,
      prerendered
        ? `${fw.evidence} with ssr: false and prerender in ${file}: the pages are prerendered to static files`
        : `${fw.evidence} with ssr: false in ${file}: a single-page app (one index.html for every path)`,
    );
    const dir = `${buildDir}/client`;
    ctx.log.add('outputDir', dir, file, `the client build in ${dir}/ (${dirRule})`);
    return withBuild(ctx, { framework, kind: 'static-build', outputDir: dir, start: null }, fw.fallbackBuild);
  }

  const entry = `${buildDir}/server/index.js`;
  const serve = depRule(ctx, fw.serve.dep);
  const fallback: { argv: Argv; file: string | null; rule: string } | null = serve
    ? {
        argv: execBin(ctx.pm, fw.serve.bin, [entry]),
        file: PACKAGE_JSON,
        rule: `no production "start" script: ${fw.serve.bin} (${serve}) runs the server build ${entry} (${dirRule})`,
      }
    : null;
  const why = ssrValue
    ? `${fw.evidence} with ssr: true in ${file}: server rendering`
    : `${fw.evidence}: server rendering (${fw.label}'s default, as ssr is not set to false)`;
  if (!fallback && !productionStart(ctx)) {
    // The Cloudflare template: its Worker runs locally in workerd under the plugin's `vite preview`.
    const vite = await readConfigObjects(ctx, VITE_CONFIGS);
    const viteText = vite ? ((await ctx.files.read(vite.file))?.text ?? '') : '';
    if (vite && /['"]@cloudflare\/vite-plugin['"]/.test(viteText)) {
      decide(
        ctx,
        fw.id,
        'server',
        vite.file,
        `${why}, for Cloudflare (@cloudflare/vite-plugin in ${vite.file}): its vite preview runs the Worker locally`,
      );
      const start = vitePreviewStart(
        ctx,
        vite.file,
        "the Cloudflare plugin's preview of the build (vite preview)",
      );
      return withBuild(ctx, { framework: fw.id, kind: 'server', outputDir: null, start }, fw.fallbackBuild);
    }
  }
  return planRouterServer(ctx, fw, fallback, why);
}

function planRouterServer(
  ctx: FrameworkContext,
  fw: RouterFramework,
  fallback: { argv: Argv; file: string | null; rule: string } | null,
  why: string,
): FrameworkPlan {
  const file = fw.config?.file ?? PACKAGE_JSON;
  if (!productionStart(ctx) && !fallback) {
    return unknown(
      ctx,
      fw.id,
      file,
      `${why}, but there is no production "start" script and no ${fw.serve.dep} to run the server build`,
    );
  }
  decide(ctx, fw.id, 'server', file, why);
  const start = chooseStart(ctx, fallback);
  ctx.log.add('outputDir', 'none', file, `${fw.serve.bin} serves the client build itself`);
  return withBuild(ctx, { framework: fw.id, kind: 'server', outputDir: null, start }, fw.fallbackBuild);
}

/** React Router 7 framework mode: `@react-router/dev` and react-router.config. */
export async function detectReactRouter(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, '@react-router/dev');
  if (!dep) return null;
  const config = await readConfigObjects(ctx, configNames('react-router.config', CONFIG_EXTS));
  return planRouterBuild(ctx, {
    id: 'react-router',
    label: 'React Router',
    evidence: `${dep} (framework mode)`,
    config,
    serve: { bin: 'react-router-serve', dep: '@react-router/serve' },
    fallbackBuild: { bin: 'react-router', args: ['build'], label: 'React Router' },
  });
}

/** Remix: with Vite (`vitePlugin` from @remix-run/dev in vite.config), or classic (remix.config.js). */
export async function detectRemix(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, '@remix-run/dev');
  if (!dep) return null;
  const serve = { bin: 'remix-serve', dep: '@remix-run/serve' };
  const vite = await readConfigObjects(ctx, VITE_CONFIGS);
  const viteText = vite ? ((await ctx.files.read(vite.file))?.text ?? '') : '';
  if (vite && /['"]@remix-run\/dev['"]/.test(viteText)) {
    return planRouterBuild(ctx, {
      id: 'remix',
      label: 'Remix',
      evidence: `${dep} with its Vite plugin in ${vite.file}`,
      config: vite,
      serve,
      fallbackBuild: { bin: 'remix', args: ['vite:build'], label: 'Remix (Vite)' },
    });
  }
  const config = await readConfigObjects(ctx, configNames('remix.config', ['js', 'mjs', 'cjs', 'ts']));
  const fw: RouterFramework = {
    id: 'remix',
    label: 'Remix',
    evidence: `${dep}${config ? ` and ${config.file}` : ''} (classic compiler)`,
    config,
    serve,
    fallbackBuild: { bin: 'remix', args: ['build'], label: 'Remix' },
  };
  const setting = option(config, 'serverBuildPath', 'string');
  const custom = setting?.kind === 'string' ? projectDir(setting.value) : null;
  const entry = custom ?? 'build/index.js';
  const hasServe = depRule(ctx, serve.dep);
  return planRouterServer(
    ctx,
    fw,
    hasServe
      ? {
          argv: execBin(ctx.pm, serve.bin, [entry]),
          file: custom ? config!.file : PACKAGE_JSON,
          rule: `no production "start" script: remix-serve (${hasServe}) runs the server build ${entry}`,
        }
      : null,
    `${fw.evidence}: a server-rendered app (build/index.js, assets in public/build)`,
  );
}
