/**
 * Qwik City (`@builder.io/qwik-city`, Qwik 2's `@qwik.dev/router`). `qwik build` runs the
 * `build.client` script (dist/) and `build.server`, which builds with the adapter `qwik add` wrote to
 * adapters/<name>/vite.config.ts: `static` prerenders the site into dist/; `express`, `fastify`,
 * `node-server`, `cloud-run` write a Node server (server/entry.<name>.js, started by the "serve"
 * script); any other adapter targets a hosting platform. Without a server adapter, Forge builds Qwik's
 * preview server (`qwik build preview`) and runs `vite preview`, as the `preview` script does.
 */
import { formatCommand } from '@forge/shared';
import { execBin, runScript } from './command-line.ts';
import { devServerOfScript } from './dev-servers.ts';
import {
  decide,
  firstDep,
  withBuild,
  type FrameworkContext,
  type FrameworkPlan,
} from './framework-context.ts';
import { unknown, vitePreviewStart } from './meta-frameworks.ts';
import { PACKAGE_JSON } from './package-json.ts';

/** Adapters whose build is a Node server listening on PORT. */
const NODE_ADAPTERS = new Set(['express', 'fastify', 'node-server', 'cloud-run']);

/** The adapter `build.server` builds with (`-c adapters/<name>/vite.config.ts`), else the only one there. */
async function qwikAdapter(
  ctx: FrameworkContext,
): Promise<{ name: string; file: string; rule: string } | null> {
  const script = ctx.pkg.scripts['build.server'];
  const named = script ? /adapters\/([\w.-]+)\/vite\.config\.[cm]?[jt]s/.exec(script) : null;
  if (named) {
    return {
      name: named[1]!,
      file: PACKAGE_JSON,
      rule: `the "build.server" script builds with adapters/${named[1]}/`,
    };
  }
  const dirs = await ctx.files.listDirs('adapters');
  const withConfig: string[] = [];
  for (const dir of dirs) {
    if (
      await ctx.files.firstFile([
        `adapters/${dir}/vite.config.ts`,
        `adapters/${dir}/vite.config.js`,
        `adapters/${dir}/vite.config.mts`,
      ])
    ) {
      withConfig.push(dir);
    }
  }
  if (withConfig.length === 1) {
    const name = withConfig[0]!;
    return {
      name,
      file: `adapters/${name}/vite.config.ts`,
      rule: `adapters/${name}/ holds the only adapter`,
    };
  }
  return null;
}

export async function detectQwik(ctx: FrameworkContext): Promise<FrameworkPlan | null> {
  const hit = firstDep(ctx, ['@builder.io/qwik-city', '@qwik.dev/router']);
  if (!hit) return null;
  const fallbackBuild = { bin: 'qwik', args: ['build'], label: 'Qwik' };
  const adapter = await qwikAdapter(ctx);

  if (adapter?.name === 'static') {
    decide(
      ctx,
      'qwik-static',
      'static-build',
      adapter.file,
      `${hit.rule}; ${adapter.rule}: the static adapter prerenders every page`,
    );
    ctx.log.add(
      'outputDir',
      'dist',
      adapter.file,
      "the static adapter writes the pages into Qwik's client folder dist/",
    );
    return withBuild(
      ctx,
      { framework: 'qwik-static', kind: 'static-build', outputDir: 'dist', start: null },
      fallbackBuild,
    );
  }

  if (adapter && NODE_ADAPTERS.has(adapter.name)) {
    decide(ctx, 'qwik', 'server', adapter.file, `${hit.rule}; ${adapter.rule}: a Node server`);
    // Qwik's "start" is its dev server; the production server is the "serve" script.
    const serve = ctx.pkg.scripts.serve;
    let start: string[];
    if (serve !== undefined && !devServerOfScript('serve', ctx.pkg.scripts)) {
      start = runScript(ctx.pm, 'serve');
      ctx.log.add(
        'start',
        formatCommand(start),
        PACKAGE_JSON,
        `"serve" script: ${serve} (the ${adapter.name} adapter's server)`,
      );
    } else {
      start = ['node', `server/entry.${adapter.name}`];
      ctx.log.add('start', formatCommand(start), adapter.file, `the ${adapter.name} adapter's built server`);
    }
    ctx.log.add('outputDir', 'none', adapter.file, 'the server serves dist/ itself');
    return withBuild(ctx, { framework: 'qwik', kind: 'server', outputDir: null, start }, fallbackBuild);
  }

  // No server adapter: the build of a hosting adapter runs only on its platform; Qwik's own preview
  // server (the "build.preview" script's entry.preview) serves the same app locally.
  const why = adapter
    ? `${hit.rule}; ${adapter.rule}, a hosting platform's adapter whose build runs only there`
    : `${hit.rule} with no adapter (qwik add has not been run)`;
  if (ctx.pkg.scripts['build.preview'] === undefined) {
    return unknown(
      ctx,
      'qwik',
      adapter?.file ?? PACKAGE_JSON,
      `${why}, and no "build.preview" script to build Qwik's preview server`,
    );
  }
  decide(
    ctx,
    'qwik',
    'server',
    adapter?.file ?? PACKAGE_JSON,
    `${why}: Forge builds Qwik's preview server and runs vite preview`,
  );
  const build = execBin(ctx.pm, 'qwik', ['build', 'preview']);
  ctx.log.add(
    'build',
    formatCommand(build),
    PACKAGE_JSON,
    `qwik build preview: the client and the "build.preview" script (${ctx.pkg.scripts['build.preview']}), as the "preview" script does`,
  );
  const start = vitePreviewStart(ctx, PACKAGE_JSON, "Qwik's preview server (vite preview)");
  return { framework: 'qwik', kind: 'server', outputDir: null, build, start };
}
