/** Frameworks that can build either a static site or a server: Next.js, Astro, SvelteKit. */
import { formatCommand, PORT_PLACEHOLDER } from '@forge/shared';
import { execBin, type Argv } from './command-line.ts';
import { findProp, scanObjects, stringProp, type ConfigObject, type ConfigValue } from './config-text.ts';
import {
  configNames,
  decide,
  depRule,
  firstDep,
  projectDir,
  readConfigObjects,
  scriptFlag,
  startScript,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { resolveOutputDir } from './output-dir.ts';
import { PACKAGE_JSON } from './package-json.ts';

const JS_CONFIG_EXTS = ['js', 'mjs', 'ts', 'cjs', 'mts', 'cts'];

/** The server command: the start script unless it is a dev server, else the framework's production entry. */
export function chooseStart(
  ctx: FrameworkContext,
  fallback: { argv: Argv; file: string | null; rule: string } | null,
): Argv | null {
  const script = startScript(ctx);
  if (script) {
    ctx.log.add('start', formatCommand(script.argv), PACKAGE_JSON, script.rule);
    return script.argv;
  }
  if (fallback) {
    ctx.log.add('start', formatCommand(fallback.argv), fallback.file, fallback.rule);
    return fallback.argv;
  }
  return null;
}

/** A framework Forge recognises but cannot build or run here; `rule` says why, for the user. */
export const unknown = (
  ctx: FrameworkContext,
  framework: string,
  file: string | null,
  rule: string,
): FrameworkPlan => {
  decide(ctx, framework, 'unknown', file, rule);
  return { framework, kind: 'unknown', outputDir: null, build: null, start: null };
};

const plainString = (value: ConfigValue | undefined): string | null =>
  value?.kind === 'string' ? value.value : null;

export async function detectNext(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, 'next');
  if (!dep) return null;
  const config = await readConfigObjects(ctx, configNames('next.config', JS_CONFIG_EXTS));
  const output = config ? findProp(config.objects, 'output') : null;
  const buildScript = ctx.pkg.scripts.build ?? '';
  const fallbackBuild = { bin: 'next', args: ['build'], label: 'Next.js' };

  if (config && output?.value.kind === 'string' && output.value.value === 'export') {
    decide(ctx, 'next-export', 'static-build', config.file, `${dep} and output: 'export' in ${config.file}`);
    // With output 'export', a custom distDir IS the export folder (Next's hasCustomExportOutput).
    const distDir = stringProp(output.owner, 'distDir');
    const outputDir = resolveOutputDir(ctx, {
      file: config.file,
      key: 'distDir',
      value: distDir !== undefined && distDir !== '.next' ? output.owner.props.get('distDir') : undefined,
      fallback: 'out',
      fallbackRule: "a static export's default folder out/",
    });
    return withBuild(
      ctx,
      { framework: 'next-export', kind: 'static-build', outputDir, start: null },
      fallbackBuild,
    );
  }
  if (/\bnext\s+export\b/.test(buildScript)) {
    decide(
      ctx,
      'next-export',
      'static-build',
      PACKAGE_JSON,
      `${dep} and the "build" script runs next export`,
    );
    const flag = scriptFlag(buildScript, ['-o', '--outdir']);
    const outputDir = resolveOutputDir(ctx, {
      file: PACKAGE_JSON,
      key: 'next export -o',
      value: flag === null ? undefined : { kind: 'string', value: flag },
      fallback: 'out',
      fallbackRule: "next export's default folder out/",
    });
    return withBuild(ctx, { framework: 'next-export', kind: 'static-build', outputDir, start: null }, null);
  }

  const why =
    output?.value.kind === 'computed'
      ? `${dep}; output in ${config?.file} is computed, which Forge cannot evaluate, so it is treated as a Next.js server`
      : `${dep} without output: 'export': a Next.js server (next start)`;
  decide(ctx, 'next', 'server', config?.file ?? PACKAGE_JSON, why);
  const start = chooseStart(ctx, {
    argv: execBin(ctx.pm, 'next', ['start']),
    file: PACKAGE_JSON,
    rule: 'no production "start" script: Next.js\'s own server',
  });
  ctx.log.add('outputDir', 'none', config?.file ?? PACKAGE_JSON, 'a Next.js server serves its pages itself');
  return withBuild(ctx, { framework: 'next', kind: 'server', outputDir: null, start }, fallbackBuild);
}

/**
 * Astro adapters that build for a hosting platform: their on-demand pages run only there, and the
 * folder each copies the prerendered pages and client files into (`outDir` is Astro's own).
 */
const ASTRO_HOSTING_ADAPTERS: Record<string, { platform: string; client: (outDir: string) => string }> = {
  '@astrojs/vercel': { platform: 'Vercel', client: () => '.vercel/output/static' },
  '@astrojs/netlify': { platform: 'Netlify', client: (outDir) => outDir },
  '@astrojs/cloudflare': { platform: 'Cloudflare', client: (outDir) => outDir },
};
const ASTRO_NODE_ADAPTER = '@astrojs/node';
const ASTRO_ADAPTERS = [ASTRO_NODE_ADAPTER, ...Object.keys(ASTRO_HOSTING_ADAPTERS)];

/** The adapter astro.config sets (`adapter: …`), by the package it imports or, failing that, the one listed. */
async function astroAdapter(
  ctx: FrameworkContext,
  config: { file: string; objects: ConfigObject[] } | null,
): Promise<{ name: string | null; rule: string } | null> {
  const setting = config ? findProp(config.objects, 'adapter') : null;
  if (!config || !setting) return null;
  const text = (await ctx.files.read(config.file))?.text ?? '';
  for (const match of text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/g)) {
    const source = match[1] ?? match[2] ?? '';
    // `@astrojs/vercel/serverless` and `@astrojs/netlify/functions` are the older entry points.
    const name = ASTRO_ADAPTERS.find((a) => source === a || source.startsWith(`${a}/`));
    if (name) return { name, rule: `adapter: ${source} in ${config.file}` };
  }
  const listed = firstDep(ctx, ASTRO_ADAPTERS);
  if (listed) return { name: listed.name, rule: `an adapter in ${config.file} (${listed.rule})` };
  return { name: null, rule: `an adapter Forge does not know in ${config.file}` };
}

export async function detectAstro(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, 'astro');
  const config = await readConfigObjects(ctx, configNames('astro.config', JS_CONFIG_EXTS));
  if (!dep && !config) return null;
  const evidence = dep ?? `${config?.file} present`;
  const output = config ? findProp(config.objects, 'output') : null;
  const outDirSetting = config ? findProp(config.objects, 'outDir') : null;
  const outDir =
    (outDirSetting?.value.kind === 'string' ? projectDir(outDirSetting.value.value) : null) ?? 'dist';
  const mode = plainString(output?.value);
  const onDemand = mode === 'server';
  const fallbackBuild = { bin: 'astro', args: ['build'], label: 'Astro' };
  const adapter = await astroAdapter(ctx, config);
  // Before any adapter is set up by config, `npx astro add node` listing the package is enough.
  const nodeAdapter =
    adapter?.name === ASTRO_NODE_ADAPTER
      ? adapter.rule
      : !adapter && (onDemand || mode === 'hybrid')
        ? depRule(ctx, ASTRO_NODE_ADAPTER)
        : null;

  if (nodeAdapter) {
    // With an adapter, Astro writes dist/client and dist/server whatever `output` says; the node
    // adapter's standalone server answers on-demand pages and serves the prerendered ones.
    const middleware = config ? findProp(config.objects, 'mode')?.value : undefined;
    const isMiddleware = middleware?.kind === 'string' && middleware.value === 'middleware';
    if (isMiddleware && !startScript(ctx)) {
      return unknown(
        ctx,
        'astro',
        config?.file ?? null,
        `${evidence} with ${nodeAdapter} in middleware mode: its build is a handler for the project's own server, and there is no production "start" script to run that server`,
      );
    }
    decide(
      ctx,
      'astro',
      'server',
      config?.file ?? null,
      `${evidence}${mode ? ` and output: '${mode}' in ${config?.file}` : ''}, with ${nodeAdapter}: a Node server`,
    );
    const start = chooseStart(
      ctx,
      isMiddleware
        ? null
        : {
            argv: ['node', `${outDir}/server/entry.mjs`],
            file: config?.file ?? PACKAGE_JSON,
            rule: `${nodeAdapter}: the built standalone server, which also serves the prerendered pages`,
          },
    );
    return withBuild(ctx, { framework: 'astro', kind: 'server', outputDir: null, start }, fallbackBuild);
  }

  const hosting = adapter?.name ? ASTRO_HOSTING_ADAPTERS[adapter.name] : undefined;
  if (adapter && hosting) {
    if (onDemand) {
      return unknown(
        ctx,
        'astro',
        config?.file ?? null,
        `${evidence} and output: 'server' with ${adapter.name}: every page is rendered on demand by ${hosting.platform}'s functions, which run only on ${hosting.platform}, so Forge cannot run this site (with @astrojs/node it can)`,
      );
    }
    // Pages are prerendered unless they opt out; the adapter copies them where the platform serves them.
    const dir = hosting.client(outDir);
    decide(
      ctx,
      'astro',
      'static-build',
      config?.file ?? null,
      `${evidence} with ${adapter.rule}: Forge serves the prerendered pages; pages rendered on demand (prerender = false) run only on ${hosting.platform} and are not in the preview`,
    );
    ctx.log.add(
      'outputDir',
      dir,
      config?.file ?? null,
      `${adapter.name} writes the prerendered pages and client files to ${dir}/`,
    );
    return withBuild(
      ctx,
      { framework: 'astro', kind: 'static-build', outputDir: dir, start: null },
      fallbackBuild,
    );
  }

  const start = adapter || onDemand || mode === 'hybrid' ? startScript(ctx) : null;
  if (start) {
    decide(
      ctx,
      'astro',
      'server',
      config?.file ?? PACKAGE_JSON,
      `${evidence}${adapter ? ` with ${adapter.rule}` : ` and output: '${mode}'`}, and a production "start" script`,
    );
    ctx.log.add('start', formatCommand(start.argv), PACKAGE_JSON, start.rule);
    return withBuild(
      ctx,
      { framework: 'astro', kind: 'server', outputDir: null, start: start.argv },
      fallbackBuild,
    );
  }
  // Astro 4's 'hybrid' also renders on demand, and needs an adapter to build at all.
  if (onDemand || (mode === 'hybrid' && !adapter)) {
    return unknown(
      ctx,
      'astro',
      config?.file ?? null,
      `Astro output '${mode}' needs the @astrojs/node adapter (or a production "start" script) for Forge to run it${adapter ? ` (${adapter.rule})` : ''}`,
    );
  }
  if (adapter) {
    // Any adapter moves the prerendered pages to Astro's client folder.
    const dir = projectDir(outDir, 'client') ?? 'dist/client';
    decide(
      ctx,
      'astro',
      'static-build',
      config?.file ?? null,
      `${evidence}; ${adapter.rule}: Forge serves the prerendered pages, which Astro writes to its client folder when an adapter is set`,
    );
    ctx.log.add(
      'outputDir',
      dir,
      config?.file ?? null,
      `Astro's build.client folder with an adapter (${dir}/)`,
    );
    return withBuild(
      ctx,
      { framework: 'astro', kind: 'static-build', outputDir: dir, start: null },
      fallbackBuild,
    );
  }
  const rule =
    output?.value.kind === 'computed'
      ? `${evidence}; output in ${config?.file} is computed, so Astro's default (static) is assumed`
      : `${evidence}: Astro builds a static site unless output is 'server'`;
  decide(ctx, 'astro', 'static-build', config?.file ?? PACKAGE_JSON, rule);
  const outputDir = resolveOutputDir(ctx, {
    file: config?.file ?? null,
    key: 'outDir',
    value: outDirSetting?.value,
    fallback: 'dist',
    fallbackRule: "Astro's default dist/",
  });
  return withBuild(ctx, { framework: 'astro', kind: 'static-build', outputDir, start: null }, fallbackBuild);
}

export async function detectSvelteKit(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, '@sveltejs/kit');
  if (!dep) return null;
  const configFile = await ctx.files.firstFile(configNames('svelte.config', ['js', 'mjs', 'ts', 'cjs']));
  const configText = configFile ? ((await ctx.files.read(configFile))?.text ?? '') : '';
  const config = configFile ? { file: configFile, objects: scanObjects(configText) } : null;
  const uses = (adapter: string): string | null =>
    depRule(ctx, adapter) ?? (configText.includes(adapter) ? `${configFile} imports ${adapter}` : null);
  const fallbackBuild = { bin: 'vite', args: ['build'], label: 'SvelteKit (vite build)' };

  const staticAdapter = uses('@sveltejs/adapter-static');
  if (staticAdapter) {
    decide(
      ctx,
      'sveltekit-static',
      'static-build',
      configFile ?? PACKAGE_JSON,
      `${dep} with ${staticAdapter}`,
    );
    const pages = config ? findProp(config.objects, 'pages') : null;
    const outputDir = resolveOutputDir(ctx, {
      file: configFile,
      key: 'adapter-static pages',
      value: pages?.value,
      fallback: 'build',
      fallbackRule: "adapter-static's default build/",
    });
    return withBuild(
      ctx,
      { framework: 'sveltekit-static', kind: 'static-build', outputDir, start: null },
      fallbackBuild,
    );
  }
  const nodeAdapter = uses('@sveltejs/adapter-node');
  if (nodeAdapter) {
    decide(ctx, 'sveltekit', 'server', configFile ?? PACKAGE_JSON, `${dep} with ${nodeAdapter}`);
    const out = config ? findProp(config.objects, 'out') : null;
    const outDir = (out?.value.kind === 'string' ? projectDir(out.value.value) : null) ?? 'build';
    const start = chooseStart(ctx, {
      argv: ['node', outDir],
      file: configFile ?? PACKAGE_JSON,
      rule: `adapter-node's built server in ${outDir}/`,
    });
    return withBuild(ctx, { framework: 'sveltekit', kind: 'server', outputDir: null, start }, fallbackBuild);
  }
  const start = startScript(ctx);
  if (start) {
    decide(ctx, 'sveltekit', 'server', PACKAGE_JSON, `${dep} with a production "start" script`);
    ctx.log.add('start', formatCommand(start.argv), PACKAGE_JSON, start.rule);
    return withBuild(
      ctx,
      { framework: 'sveltekit', kind: 'server', outputDir: null, start: start.argv },
      fallbackBuild,
    );
  }
  // Any other adapter (adapter-auto, -vercel, -netlify, -cloudflare, …) targets a hosting platform:
  // its output only runs there. SvelteKit's own `vite preview` serves the same build locally.
  const hosting = hostingAdapter(ctx, configFile, configText);
  const why = hosting
    ? `${dep} with ${hosting}, a hosting adapter whose output only runs on its platform: Forge previews the build with vite preview`
    : `${dep} with no adapter Forge can read: Forge previews the build with vite preview`;
  decide(ctx, 'sveltekit', 'server', configFile ?? PACKAGE_JSON, why);
  const preview = vitePreviewStart(
    ctx,
    configFile ?? PACKAGE_JSON,
    "SvelteKit's preview of the build (vite preview)",
  );
  return withBuild(
    ctx,
    { framework: 'sveltekit', kind: 'server', outputDir: null, start: preview },
    fallbackBuild,
  );
}

/**
 * `vite preview` on the preview's port, on this machine only, as the start of a framework whose build
 * targets a hosting platform: the framework's own preview serves that build locally. Records the
 * start and output decisions.
 */
export function vitePreviewStart(ctx: FrameworkContext, file: string, what: string): Argv {
  const preview = execBin(ctx.pm, 'vite', [
    'preview',
    '--port',
    PORT_PLACEHOLDER,
    '--strictPort',
    '--host',
    '127.0.0.1',
  ]);
  ctx.log.add(
    'start',
    formatCommand(preview),
    file,
    `${what}, on the preview's port (${PORT_PLACEHOLDER}) and on this machine only`,
  );
  ctx.log.add('outputDir', 'none', file, 'vite preview serves the build itself');
  return preview;
}

/** The adapter svelte.config imports, else the one package.json lists, as a rule; null when none. */
function hostingAdapter(ctx: FrameworkContext, configFile: string | null, configText: string): string | null {
  const imported = /\bfrom\s+['"]((?:@sveltejs\/adapter-|svelte-adapter-)[\w.-]+)['"]/.exec(configText);
  if (imported) return `${configFile} imports ${imported[1]}`;
  for (const prefix of ['@sveltejs/adapter-', 'svelte-adapter-']) {
    const name = ctx.pkg.depNames().find((n) => n.startsWith(prefix));
    if (name) return depRule(ctx, name);
  }
  return null;
}
