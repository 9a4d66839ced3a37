import { formatCommand } from '@forge/shared';
import { detectAngular } from './angular.ts';
import { detectFixedOutput, detectParcel, detectVite, detectVueCli } from './bundlers.ts';
import { deployEvidence, describeSetting } from './deploy-evidence.ts';
import {
  decide,
  scriptFlag,
  startScript,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { detectAstro, detectNext, detectSvelteKit } from './meta-frameworks.ts';
import { detectAnalog, detectNitro, detectSolidStart, detectTanStackStart } from './nitro.ts';
import { detectNuxt } from './nuxt.ts';
import { detectQwik } from './qwik.ts';
import { detectReactRouter, detectRemix } from './react-router.ts';
import { detectServerWithClient, serverLibrary } from './server-client.ts';
import { describeDevServer, devServerOfScript } from './dev-servers.ts';
import { resolveOutputDir } from './output-dir.ts';
import { PACKAGE_JSON } from './package-json.ts';
import { detectDocusaurus, detectRspress, detectVitePress, detectVuePress } from './docs-generators.ts';
import {
  detectEleventy,
  detectExpoWeb,
  detectGatsby,
  detectHexo,
  detectSlidev,
  detectStorybook,
} from './static-site-generators.ts';
import { detectWebpack } from './webpack.ts';

export const INDEX_HTML = 'index.html';

/**
 * Framework rules, most specific first: meta-frameworks that bundle with Vite come before Vite, and
 * anything with a framework comes before the generic start-script and build-script rules.
 */
const FRAMEWORK_RULES: readonly ((
  ctx: FrameworkContext,
) => FrameworkPlan | null | Promise<FrameworkPlan | null>)[] = [
  detectNext,
  detectAstro,
  detectNuxt,
  detectSvelteKit,
  detectSolidStart,
  detectTanStackStart,
  detectAnalog,
  detectReactRouter,
  detectRemix,
  detectQwik,
  detectNitro,
  detectAngular,
  // Static-site generators (several bundle with Vite or webpack, so they come before both).
  detectVitePress,
  detectVuePress,
  detectDocusaurus,
  detectGatsby,
  detectEleventy,
  detectHexo,
  detectSlidev,
  detectRspress,
  detectExpoWeb,
  // Before the client bundlers: a Node start that serves their build makes the project a server.
  detectServerWithClient,
  detectFixedOutput,
  detectVueCli,
  // Only when the package builds no other site: after every app framework, before the bundlers.
  detectStorybook,
  detectVite,
  detectParcel,
  detectWebpack,
];

/** Flags common build tools use for their output folder (esbuild, tsc, babel, rollup, webpack-cli, …). */
const OUTPUT_FLAGS = ['--out-dir', '--outDir', '--outdir', '--dist-dir', '--output-dir', '--output-path'];

/** Framework, kind, output dir, build and start of a project that has a package.json. */
export async function detectFramework(ctx: FrameworkContext, hasIndexHtml: boolean): Promise<FrameworkPlan> {
  await deployEvidence(ctx);
  for (const rule of FRAMEWORK_RULES) {
    const plan = await rule(ctx);
    if (plan) return noteDeployOutput(ctx, plan);
  }
  const { scripts } = ctx.pkg;

  const start = startScript(ctx);
  if (start) {
    const library = serverLibrary(ctx);
    const { framework } = library;
    decide(
      ctx,
      framework,
      'server',
      PACKAGE_JSON,
      library.rule
        ? `${library.rule} and a "start" script, with no static framework`
        : 'a "start" script, with no static framework',
    );
    ctx.log.add('start', formatCommand(start.argv), PACKAGE_JSON, start.rule);
    ctx.log.add('outputDir', 'none', PACKAGE_JSON, 'a server app serves itself');
    return withBuild(ctx, { framework, kind: 'server', outputDir: null, start: start.argv }, null);
  }

  const deployedStart = ctx.deploy?.start;
  if (deployedStart?.argv && scripts.start === undefined) {
    const { framework } = serverLibrary(ctx);
    decide(
      ctx,
      framework,
      'server',
      deployedStart.setting.file,
      `no "start" script and no static framework; ${describeSetting(deployedStart.setting)} starts the app`,
    );
    ctx.log.add('start', formatCommand(deployedStart.argv), deployedStart.setting.file, deployedStart.how);
    ctx.log.add('outputDir', 'none', deployedStart.setting.file, 'a server app serves itself');
    return withBuild(ctx, { framework, kind: 'server', outputDir: null, start: deployedStart.argv }, null);
  }

  if (scripts.build !== undefined) {
    decide(
      ctx,
      'custom',
      'static-build',
      PACKAGE_JSON,
      'a "build" script, with no framework Forge recognises',
    );
    const flag = scriptFlag(scripts.build, OUTPUT_FLAGS);
    const outputDir = resolveOutputDir(ctx, {
      file: PACKAGE_JSON,
      key: 'output flag in the "build" script',
      value: flag === null ? undefined : { kind: 'string', value: flag },
      fallback: 'dist',
      fallbackRule: 'the conventional dist/ (set outputDir in the forge config if it writes elsewhere)',
    });
    return noteDeployOutput(
      ctx,
      withBuild(ctx, { framework: 'custom', kind: 'static-build', outputDir, start: null }, null),
    );
  }

  if (hasIndexHtml) {
    decide(
      ctx,
      'static',
      'static',
      INDEX_HTML,
      'index.html at the root and no "build" or "start" script: no build needed',
    );
    ctx.log.add('outputDir', '.', INDEX_HTML, 'the project folder itself is the site');
    ctx.log.add('build', 'none', PACKAGE_JSON, 'no "build" script');
    return { framework: 'static', kind: 'static', outputDir: '.', build: null, start: null };
  }

  const dev = devServerOfScript('start', scripts);
  const why = dev
    ? `the "start" script runs a dev server (${describeDevServer(dev)}), there is no "build" script, and no framework Forge recognises`
    : 'package.json has no "build" or "start" script, no framework Forge recognises, and there is no index.html at the root';
  decide(ctx, 'unknown', 'unknown', PACKAGE_JSON, why);
  return { framework: 'unknown', kind: 'unknown', outputDir: null, build: null, start: null };
}

/**
 * Say where a deploy config names another output folder than the one planned: the framework's own
 * setting wins (the forge config overrides both), and the folder the config names is still looked
 * in when the build leaves the planned one empty (features/builds/found-output.ts).
 */
function noteDeployOutput(ctx: FrameworkContext, plan: FrameworkPlan): FrameworkPlan {
  const config = ctx.deploy?.config;
  if (!config || plan.kind !== 'static-build' || plan.outputDir === null) return plan;
  for (const setting of [config.publish, ...config.otherPublish]) {
    if (!setting || setting.value === plan.outputDir || setting.value === '.') continue;
    ctx.log.add(
      'deployConfig',
      setting.value,
      setting.file,
      `${describeSetting(setting)} differs from the planned ${plan.outputDir}/ (${plan.framework}'s own setting is used; if the build writes ${setting.value}/ instead, Forge serves that)`,
    );
  }
  return plan;
}
