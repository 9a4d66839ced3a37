/** Frameworks that can build either a static site or a server: Next.js, Astro, SvelteKit. */
import { formatCommand, PORT_PLACEHOLDER } from '@forge/shared';
import { execBin, type Argv } from './command-line.ts';
import { findProp, scanObjects, stringProp, type ConfigValue } from './config-text.ts';
import {
  configNames,
  decide,
  depRule,
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
function chooseStart(
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

const unknown = (
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

export async function detectAstro(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, 'astro');
  const config = await readConfigObjects(ctx, configNames('astro.config', JS_CONFIG_EXTS));
  if (!dep && !config) return null;
  const evidence = dep ?? `${config?.file} present`;
  const output = config ? findProp(config.objects, 'output') : null;
  const outDirSetting = config ? findProp(config.objects, 'outDir') : null;
  const mode = plainString(output?.value);
  const fallbackBuild = { bin: 'astro', args: ['build'], label: 'Astro' };

  if (mode === 'server' || mode === 'hybrid') {
    const nodeAdapter = depRule(ctx, '@astrojs/node');
    if (!nodeAdapter && !startScript(ctx)) {
      return unknown(
        ctx,
        'astro',
        config?.file ?? null,
        `Astro output '${mode}' needs the @astrojs/node adapter (or a production "start" script) for Forge to run it`,
      );
    }
    decide(
      ctx,
      'astro',
      'server',
      config?.file ?? null,
      `${evidence} and output: '${mode}' in ${config?.file}`,
    );
    const outDir = outDirSetting?.value.kind === 'string' ? projectDir(outDirSetting.value.value) : null;
    const start = chooseStart(
      ctx,
      nodeAdapter
        ? {
            argv: ['node', `${outDir ?? 'dist'}/server/entry.mjs`],
            file: PACKAGE_JSON,
            rule: `${nodeAdapter}: the built standalone server`,
          }
        : null,
    );
    return withBuild(ctx, { framework: 'astro', kind: 'server', outputDir: null, start }, fallbackBuild);
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
    configFile ?? PACKAGE_JSON,
    `SvelteKit's preview of the build (vite preview), on the preview's port (${PORT_PLACEHOLDER}) and on this machine only`,
  );
  ctx.log.add('outputDir', 'none', configFile ?? PACKAGE_JSON, 'vite preview serves the build itself');
  return withBuild(
    ctx,
    { framework: 'sveltekit', kind: 'server', outputDir: null, start: preview },
    fallbackBuild,
  );
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
