/**
 * Nuxt. Nuxt 3 and 4: `nuxt build` makes a Nitro server (.output/server/index.mjs), `nuxt generate`
 * prerenders the site to .output/public; a static Nitro preset makes `nuxt build` prerender too.
 * Nuxt 2: `nuxt build` + `nuxt start`, or `nuxt generate` to dist/.
 */
import semver from 'semver';
import { formatCommand } from '@forge/shared';
import { execBin, runScript, type Argv } from './command-line.ts';
import { childObject, findProp, type ConfigObject } from './config-text.ts';
import {
  configNames,
  decide,
  depRule,
  projectDir,
  readConfigObjects,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { chooseStart } from './meta-frameworks.ts';
import { NITRO_OUTPUT, planNitroApp } from './nitro.ts';
import { PACKAGE_JSON } from './package-json.ts';
import { commandsOfScript } from './script-commands.ts';

const NUXT_CONFIGS = configNames('nuxt.config', ['ts', 'js', 'mjs', 'mts', 'cjs']);
const NUXT_BINS = new Set(['nuxt', 'nuxi', 'nuxt-edge']);

/** The script that runs `nuxt generate`, `build` first, with its rule; null when none does. */
function generateScript(ctx: FrameworkContext): string | null {
  const names = [
    'build',
    'generate',
    ...Object.keys(ctx.pkg.scripts).filter((n) => n !== 'build' && n !== 'generate'),
  ];
  return (
    names.find((name) =>
      commandsOfScript(name, ctx.pkg.scripts).some((c) => NUXT_BINS.has(c.bin) && c.args[0] === 'generate'),
    ) ?? null
  );
}

/** The top-level `ssr` of nuxt.config when it is a literal (`ssr: false` makes a single-page app). */
function ssrSetting(config: { objects: ConfigObject[] } | null): boolean | null {
  const found = config
    ? findProp(config.objects, 'ssr', (o) => o.props.get('ssr')?.kind === 'boolean')
    : null;
  return found?.value.kind === 'boolean' ? found.value.value : null;
}

/** Whether the declared range is Nuxt 2 (every version it allows is below 3). */
function isNuxt2(range: string | null): boolean {
  if (range === null || semver.validRange(range) === null) return false;
  return !semver.intersects(range, '>=3.0.0-0', { includePrerelease: true });
}

export async function detectNuxt(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const name = ['nuxt', 'nuxt3', 'nuxt-edge'].find((n) => ctx.pkg.depField(n));
  if (!name) return null;
  const dep = depRule(ctx, name)!;
  const config = await readConfigObjects(ctx, NUXT_CONFIGS);
  const file = config?.file ?? PACKAGE_JSON;
  const range = ctx.pkg.depVersion(name);
  if (isNuxt2(range)) return planNuxt2(ctx, `${dep} (${range}: Nuxt 2)`, config);

  const ssr = ssrSetting(config);
  const generator = generateScript(ctx);
  // The build script prerenders (`"build": "nuxt generate"`), or a single-page app has a generate script.
  if (generator === 'build' || (generator !== null && ssr === false)) {
    const framework = ssr === false ? 'nuxt-spa' : 'nuxt-static';
    decide(
      ctx,
      framework,
      'static-build',
      ssr === false ? file : PACKAGE_JSON,
      generator === 'build'
        ? `${dep} and the "build" script runs nuxt generate: the site is prerendered to static files${ssr === false ? ' (ssr: false: a single-page app)' : ''}`
        : `${dep} with ssr: false in ${file} and a "${generator}" script that runs nuxt generate: a single-page app built to static files`,
    );
    const argv = runScript(ctx.pm, generator);
    ctx.log.add(
      'build',
      formatCommand(argv),
      PACKAGE_JSON,
      `"${generator}" script: ${ctx.pkg.scripts[generator]}`,
    );
    const dir = `${NITRO_OUTPUT}/public`;
    ctx.log.add('outputDir', dir, PACKAGE_JSON, `nuxt generate writes the site to ${dir}/`);
    return { framework, kind: 'static-build', outputDir: dir, build: argv, start: null };
  }
  // `nitro: { preset, output }` in nuxt.config: only that object is Nitro's.
  const nitro = config
    ? findProp(config.objects, 'nitro', (o) => childObject(o, 'nitro') !== undefined)
    : null;
  const nitroObject = nitro ? childObject(nitro.owner, 'nitro') : undefined;
  return planNitroApp(ctx, {
    framework: 'nuxt',
    staticFramework: 'nuxt-static',
    evidence: dep,
    config: config ? { file: config.file, objects: nitroObject ? [nitroObject] : [] } : null,
    fallbackBuild: { bin: 'nuxt', args: ['build'], label: 'Nuxt' },
  });
}

/**
 * Nuxt 2: `target: 'static'` (or a build script that generates) prerenders to `generate.dir` (dist/);
 * otherwise `nuxt build`, then `nuxt start`, which listens on PORT and HOST.
 */
function planNuxt2(
  ctx: FrameworkContext,
  evidence: string,
  config: { file: string; objects: ConfigObject[] } | null,
): FrameworkPlan {
  const file = config?.file ?? PACKAGE_JSON;
  const target = config
    ? findProp(config.objects, 'target', (o) => o.props.get('target')?.kind === 'string')
    : null;
  const isStaticTarget = target?.value.kind === 'string' && target.value.value === 'static';
  const generator = generateScript(ctx);
  if (generator === 'build' || isStaticTarget) {
    const ssr = ssrSetting(config);
    const framework = ssr === false ? 'nuxt-spa' : 'nuxt-static';
    decide(
      ctx,
      framework,
      'static-build',
      generator === 'build' ? PACKAGE_JSON : file,
      generator === 'build'
        ? `${evidence} and the "build" script runs nuxt generate`
        : `${evidence} with target: 'static' in ${file}: nuxt generate prerenders the site`,
    );
    let argv: Argv;
    if (generator) {
      argv = runScript(ctx.pm, generator);
      ctx.log.add(
        'build',
        formatCommand(argv),
        PACKAGE_JSON,
        `"${generator}" script: ${ctx.pkg.scripts[generator]}`,
      );
    } else {
      argv = execBin(ctx.pm, 'nuxt', ['generate']);
      ctx.log.add('build', formatCommand(argv), file, "no script runs nuxt generate: Nuxt's own command");
    }
    const dirSetting = config
      ? findProp(
          config.objects,
          'generate',
          (o) => childObject(o, 'generate')?.props.get('dir')?.kind === 'string',
        )
      : null;
    const dirValue = dirSetting ? childObject(dirSetting.owner, 'generate')?.props.get('dir') : undefined;
    const custom = dirValue?.kind === 'string' ? projectDir(dirValue.value) : null;
    const dir = custom ?? 'dist';
    ctx.log.add(
      'outputDir',
      dir,
      custom ? file : PACKAGE_JSON,
      custom ? `generate.dir in ${file}` : "Nuxt 2's generate folder dist/",
    );
    return { framework, kind: 'static-build', outputDir: dir, build: argv, start: null };
  }
  decide(ctx, 'nuxt', 'server', file, `${evidence}: nuxt build, then Nuxt's server (nuxt start)`);
  const start = chooseStart(ctx, {
    argv: execBin(ctx.pm, 'nuxt', ['start']),
    file: PACKAGE_JSON,
    rule: 'no production "start" script: nuxt start, which listens on PORT and HOST',
  });
  ctx.log.add('outputDir', 'none', file, 'the Nuxt server serves the site itself');
  return withBuild(
    ctx,
    { framework: 'nuxt', kind: 'server', outputDir: null, start },
    {
      bin: 'nuxt',
      args: ['build'],
      label: 'Nuxt',
    },
  );
}
