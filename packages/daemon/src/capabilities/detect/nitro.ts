/**
 * Apps whose production server is a Nitro build: SolidStart (vinxi, or Vite with the Nitro plugin),
 * TanStack Start, Analog, plain Nitro. Nitro writes `<output>/server/index.mjs` (listening on PORT and
 * HOST) and `<output>/public`; its preset decides whether that is a Node server, static files, or a
 * bundle that only a hosting platform runs. Nuxt, the other Nitro framework, is in nuxt.ts.
 */
import semver from 'semver';
import { formatCommand } from '@forge/shared';
import { childObject, findProp, stringProp, type ConfigObject } from './config-text.ts';
import {
  configNames,
  decide,
  depRule,
  firstDep,
  productionStart,
  projectDir,
  readConfigObjects,
  scriptFlag,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { chooseStart, unknown, vitePreviewStart } from './meta-frameworks.ts';
import { PACKAGE_JSON } from './package-json.ts';
import { commandsOfScript } from './script-commands.ts';

export const VITE_CONFIGS = configNames('vite.config', ['ts', 'js', 'mjs', 'mts', 'cjs', 'cts']);
const APP_CONFIGS = configNames('app.config', ['ts', 'js', 'mjs', 'mts']);

/** Nitro's output folder unless `output.dir` moves it. */
export const NITRO_OUTPUT = '.output';

/** Presets that build `<output>/server/index.mjs`, a Node server listening on PORT. */
const NODE_SERVER_PRESETS = new Set([
  'node-server',
  'node-cluster',
  'heroku',
  'render-com',
  'koyeb',
  'digital-ocean',
  'cleavr',
  'alwaysdata',
  'platform-sh',
  'zerops',
  'flight-control',
  'iis-node',
]);

/** Static presets and the folder each writes the site to (`{output}` is the output folder). */
const STATIC_PRESETS: Record<string, string> = {
  static: '{output}/public',
  'github-pages': '{output}/public',
  'gitlab-pages': '{output}/public',
  'netlify-static': 'dist',
  'vercel-static': '.vercel/output/static',
  'cloudflare-pages-static': 'dist',
  'zeabur-static': '.zeabur/output/static',
  'zerops-static': '.zerops/output/static',
};

/** Nitro accepts `node_server`, `node-server`, `render.com`: one spelling for the tables above. */
const normalisePreset = (preset: string): string => preset.trim().toLowerCase().replace(/[_.]/g, '-');

/** The Nitro preset a project builds with, and where Forge read it. */
interface PresetSetting {
  preset: string;
  file: string;
  where: string;
}

/** `--preset x` or `NITRO_PRESET=x` in the build script, else `preset` (or another key) in the config. */
function findPreset(
  ctx: FrameworkContext,
  config: { file: string; objects: ConfigObject[] } | null,
  keys: readonly string[],
): PresetSetting | 'computed' | null {
  const build = ctx.pkg.scripts.build;
  const flag = scriptFlag(build, ['--preset']);
  if (flag) return { preset: flag, file: PACKAGE_JSON, where: `--preset ${flag} in the "build" script` };
  const env = /\b(?:NITRO_PRESET|SERVER_PRESET)=["']?([\w.-]+)/.exec(build ?? '');
  if (env) return { preset: env[1]!, file: PACKAGE_JSON, where: `${env[0]} in the "build" script` };
  if (!config) return null;
  for (const key of keys) {
    const found = findProp(config.objects, key);
    if (!found) continue;
    if (found.value.kind !== 'string') return 'computed';
    return {
      preset: found.value.value,
      file: config.file,
      where: `${key}: '${found.value.value}' in ${config.file}`,
    };
  }
  return null;
}

/** Nitro's `output: { dir }`, when the config moves it; else the default. */
function nitroOutputDir(config: { objects: ConfigObject[] } | null, fallback: string): string {
  if (!config) return fallback;
  const owner = findProp(
    config.objects,
    'output',
    (o) => stringProp(childObject(o, 'output'), 'dir') !== undefined,
  );
  const dir = owner ? stringProp(childObject(owner.owner, 'output'), 'dir') : undefined;
  return (dir !== undefined ? projectDir(dir) : null) ?? fallback;
}

/** A Nitro-built app, as its framework's rule describes it. */
export interface NitroApp {
  /** Framework id of the server, e.g. "solid-start". */
  framework: string;
  /** Framework id when a static preset makes it a site of prerendered pages, e.g. "solid-start-static". */
  staticFramework: string;
  /** What recognised it, for the rule: "@solidjs/start in dependencies with vinxi in dependencies". */
  evidence: string;
  /** Where Nitro's settings are read (app.config.ts, vite.config.ts, nuxt.config.ts), if anywhere. */
  config: { file: string; objects: ConfigObject[] } | null;
  /** Config keys that name the preset, most specific first (default `preset`). */
  presetKeys?: readonly string[];
  /** Nitro's output folder for this framework (default .output). */
  output?: string;
  /** The framework's build command when there is no "build" script. */
  fallbackBuild: { bin: string; args: string[]; label: string } | null;
}

/**
 * Plan an app whose build is Nitro's: a Node server started by the production `start` script or by
 * `node <output>/server/index.mjs`; a static preset's folder of prerendered pages; or, for a preset
 * that targets a hosting platform, a plain statement that Forge cannot run it.
 */
export function planNitroApp(ctx: FrameworkContext, app: NitroApp): FrameworkPlan {
  const output = nitroOutputDir(app.config, app.output ?? NITRO_OUTPUT);
  const setting = findPreset(ctx, app.config, app.presetKeys ?? ['preset']);
  const file = app.config?.file ?? PACKAGE_JSON;
  const preset = setting && setting !== 'computed' ? normalisePreset(setting.preset) : null;

  const staticDir = preset !== null ? STATIC_PRESETS[preset] : undefined;
  if (setting && setting !== 'computed' && staticDir !== undefined) {
    const dir = projectDir(staticDir.replace('{output}', output)) ?? `${NITRO_OUTPUT}/public`;
    decide(
      ctx,
      app.staticFramework,
      'static-build',
      setting.file,
      `${app.evidence}, Nitro preset ${setting.where}: the build prerenders the site to static files`,
    );
    ctx.log.add('outputDir', dir, setting.file, `Nitro's ${preset} preset writes the site to ${dir}/`);
    return withBuild(
      ctx,
      { framework: app.staticFramework, kind: 'static-build', outputDir: dir, start: null },
      app.fallbackBuild,
    );
  }
  if (setting && setting !== 'computed' && !NODE_SERVER_PRESETS.has(preset!)) {
    return unknown(
      ctx,
      app.framework,
      setting.file,
      `${app.evidence}, Nitro preset ${setting.where}: its build runs only on that platform, so Forge cannot run it here ` +
        `(without the preset, or with 'node-server', Nitro builds a Node server Forge runs)`,
    );
  }

  const presetRule =
    setting === 'computed'
      ? `; its preset in ${file} is computed, so Nitro's default node-server is assumed`
      : setting
        ? `, Nitro preset ${setting.where}`
        : '';
  decide(
    ctx,
    app.framework,
    'server',
    setting && setting !== 'computed' ? setting.file : file,
    `${app.evidence}${presetRule}: a Nitro server, built to ${output}/server/index.mjs`,
  );
  const start = chooseStart(ctx, {
    argv: ['node', `${output}/server/index.mjs`],
    file,
    rule: `no production "start" script: the Nitro server the build writes (it listens on PORT and HOST)`,
  });
  ctx.log.add('outputDir', 'none', file, `the Nitro server serves ${output}/public itself`);
  return withBuild(
    ctx,
    { framework: app.framework, kind: 'server', outputDir: null, start },
    app.fallbackBuild,
  );
}

/** Vite plugins that build a Nitro server into .output (Nitro 3's own, and the Nitro 2 bridges). */
const NITRO_VITE_PLUGINS = ['nitro/vite', '@solidjs/vite-plugin-nitro-2', '@tanstack/nitro-v2-vite-plugin'];

/** The vite config (objects and text), and the Nitro plugin it imports, if any. */
async function viteConfigOf(
  ctx: FrameworkContext,
): Promise<{ file: string; objects: ConfigObject[]; text: string; nitro: string | null } | null> {
  const config = await readConfigObjects(ctx, VITE_CONFIGS);
  if (!config) return null;
  const text = (await ctx.files.read(config.file))?.text ?? '';
  const nitro = NITRO_VITE_PLUGINS.find((name) => new RegExp(`['"]${name}['"]`).test(text)) ?? null;
  return { ...config, text, nitro };
}

const VITE_BUILD = { bin: 'vite', args: ['build'], label: 'Vite' };

/**
 * A framework that builds with Vite's environment API (SolidStart 2, TanStack Start 1.132+): a Nitro
 * server when vite.config adds Nitro's plugin; else the production start script; else the
 * framework's `vite preview`, as its build is a fetch handler that needs a host to listen for it.
 */
function planViteServerApp(
  ctx: FrameworkContext,
  app: { framework: string; staticFramework: string; label: string; evidence: string },
  vite: { file: string; objects: ConfigObject[]; nitro: string | null } | null,
): FrameworkPlan {
  if (vite?.nitro) {
    return planNitroApp(ctx, {
      ...app,
      evidence: `${app.evidence}, with ${vite.nitro} in ${vite.file}`,
      config: vite,
      fallbackBuild: VITE_BUILD,
    });
  }
  const file = vite?.file ?? PACKAGE_JSON;
  const start = productionStart(ctx);
  if (start) {
    decide(ctx, app.framework, 'server', PACKAGE_JSON, `${app.evidence} and a production "start" script`);
    ctx.log.add('start', formatCommand(start.argv), PACKAGE_JSON, start.rule);
    return withBuild(
      ctx,
      { framework: app.framework, kind: 'server', outputDir: null, start: start.argv },
      VITE_BUILD,
    );
  }
  decide(
    ctx,
    app.framework,
    'server',
    file,
    `${app.evidence} without a Nitro plugin in ${vite?.file ?? 'a vite config'}: its server build is a request handler with no server of its own, so Forge previews the build with vite preview`,
  );
  const preview = vitePreviewStart(ctx, file, `${app.label}'s preview of the build (vite preview)`);
  return withBuild(
    ctx,
    { framework: app.framework, kind: 'server', outputDir: null, start: preview },
    VITE_BUILD,
  );
}

/** SolidStart: 1.x on vinxi (app.config.ts, `vinxi build` → .output), 2.x a Vite plugin. */
export async function detectSolidStart(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, '@solidjs/start');
  if (!dep) return null;
  const vinxi = depRule(ctx, 'vinxi');
  const appConfig = await readConfigObjects(ctx, APP_CONFIGS);
  const app = { framework: 'solid-start', staticFramework: 'solid-start-static', label: 'SolidStart' };
  if (vinxi || appConfig) {
    return planNitroApp(ctx, {
      ...app,
      evidence: `${dep} with ${vinxi ?? `${appConfig!.file} (vinxi)`}`,
      // vinxi passes `server: { preset }` of app.config to Nitro.
      config: appConfig,
      fallbackBuild: { bin: 'vinxi', args: ['build'], label: 'SolidStart (vinxi)' },
    });
  }
  return planViteServerApp(ctx, { ...app, evidence: dep }, await viteConfigOf(ctx));
}

const TANSTACK_START = ['@tanstack/react-start', '@tanstack/solid-start', '@tanstack/start'];

/** Releases before this one bundle Nitro in their Vite plugin (`tanstackStart({ target })` → .output). */
const TANSTACK_WITHOUT_NITRO = '1.132.0';

/**
 * TanStack Start: on vinxi before 1.121 (app.config.ts → .output), a Vite plugin with Nitro inside
 * until 1.131, and from 1.132 a Vite plugin that builds dist/client and dist/server with a Nitro
 * plugin optional. Without a lockfile the version is the newest its range allows.
 */
export async function detectTanStackStart(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const hit = firstDep(ctx, TANSTACK_START);
  if (!hit) return null;
  const app = {
    framework: 'tanstack-start',
    staticFramework: 'tanstack-start-static',
    label: 'TanStack Start',
  };
  const vinxi = depRule(ctx, 'vinxi');
  if (vinxi) {
    return planNitroApp(ctx, {
      ...app,
      evidence: `${hit.rule} with ${vinxi}`,
      config: await readConfigObjects(ctx, APP_CONFIGS),
      fallbackBuild: { bin: 'vinxi', args: ['build'], label: 'TanStack Start (vinxi)' },
    });
  }
  const vite = await viteConfigOf(ctx);
  if (vite?.nitro) return planViteServerApp(ctx, { ...app, evidence: hit.rule }, vite);
  const range = ctx.pkg.depVersion(hit.name);
  const bundlesNitro =
    range !== null &&
    semver.validRange(range) !== null &&
    !semver.intersects(range, `>=${TANSTACK_WITHOUT_NITRO}`, { includePrerelease: true });
  if (bundlesNitro) {
    return planNitroApp(ctx, {
      ...app,
      evidence: `${hit.rule} (${range}: releases before ${TANSTACK_WITHOUT_NITRO} build a Nitro server)`,
      config: vite,
      presetKeys: ['target', 'preset'],
      fallbackBuild: VITE_BUILD,
    });
  }
  return planViteServerApp(ctx, { ...app, evidence: `${hit.rule}${range ? ` (${range})` : ''}` }, vite);
}

/**
 * Analog (`@analogjs/platform`): `vite build` writes a Nitro server to dist/analog/server and the
 * client to dist/analog/public; `static: true` or `ssr: false` in `analog({ … })` builds only the site.
 */
export async function detectAnalog(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const dep = depRule(ctx, '@analogjs/platform');
  if (!dep) return null;
  const vite = await viteConfigOf(ctx);
  // analog({ static: true }) or analog({ ssr: false }); Vite's own `ssr: { … }` is an object, not these.
  const flag = (key: string) =>
    vite && findProp(vite.objects, key, (o) => o.props.get(key)?.kind === 'boolean')?.value;
  const isStatic = flag('static');
  const ssr = flag('ssr');
  const file = vite?.file ?? PACKAGE_JSON;
  const spa = !!ssr && ssr.kind === 'boolean' && !ssr.value;
  if ((isStatic && isStatic.kind === 'boolean' && isStatic.value) || spa) {
    const framework = spa ? 'analog-spa' : 'analog-static';
    decide(
      ctx,
      framework,
      'static-build',
      file,
      `${dep} with ${spa ? 'ssr: false' : 'static: true'} in ${file}: the build writes only the ${spa ? 'client (a single-page app)' : 'prerendered site'}`,
    );
    const dir = 'dist/analog/public';
    ctx.log.add('outputDir', dir, file, `Analog writes the site to ${dir}/`);
    return withBuild(ctx, { framework, kind: 'static-build', outputDir: dir, start: null }, VITE_BUILD);
  }
  return planNitroApp(ctx, {
    framework: 'analog',
    staticFramework: 'analog-static',
    evidence: dep,
    config: vite,
    output: 'dist/analog',
    fallbackBuild: VITE_BUILD,
  });
}

/** Plain Nitro (`nitropack`, or Nitro 3's `nitro`): nitro.config, or a Vite app with Nitro's plugin. */
export async function detectNitro(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const hit = firstDep(ctx, ['nitropack', 'nitro']);
  if (!hit) return null;
  const vite = await viteConfigOf(ctx);
  const builds = (bin: string): boolean =>
    commandsOfScript('build', ctx.pkg.scripts).some((c) => c.bin === bin && c.args[0] === 'build');
  if (vite?.nitro && !builds('nitro') && !builds('nitropack')) {
    return planNitroApp(ctx, {
      framework: 'nitro',
      staticFramework: 'nitro-static',
      evidence: `${hit.rule}, with ${vite.nitro} in ${vite.file}`,
      config: vite,
      fallbackBuild: VITE_BUILD,
    });
  }
  const config = await readConfigObjects(ctx, configNames('nitro.config', ['ts', 'js', 'mjs', 'mts']));
  if (!config && !builds('nitro') && !builds('nitropack')) return null;
  return planNitroApp(ctx, {
    framework: 'nitro',
    staticFramework: 'nitro-static',
    evidence: `${hit.rule}${config ? ` and ${config.file}` : ''}`,
    config,
    fallbackBuild: { bin: hit.name === 'nitro' ? 'nitro' : 'nitropack', args: ['build'], label: 'Nitro' },
  });
}
