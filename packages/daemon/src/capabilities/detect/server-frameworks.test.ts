import { describe, expect, it } from 'vitest';
import { PORT_PLACEHOLDER } from '@forge/shared';
import { detectBlueprint } from './detect-blueprint.ts';
import { devServerOfScript } from './dev-servers.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();
const detect = async (tree: ProjectTree) => detectBlueprint(await makeProject(tree));

const pkg = (deps: Record<string, string>, scripts: Record<string, string>, extra = {}) => ({
  name: 'app',
  type: 'module',
  scripts,
  dependencies: deps,
  ...extra,
});

describe('SolidStart', () => {
  const solid1 = {
    'package.json': pkg(
      { '@solidjs/start': '^1.1.0', 'solid-js': '^1.9.5', vinxi: '^0.5.7', vite: '^6.0.0' },
      { dev: 'vinxi dev', build: 'vinxi build', start: 'vinxi start' },
    ),
    'app.config.ts':
      'import { defineConfig } from "@solidjs/start/config";\nexport default defineConfig({});\n',
    'public/favicon.ico': 'icon',
  };

  it('runs its Nitro server with its `vinxi start` script, never the public/ icons as a site', async () => {
    const bp = await detect(solid1);
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'solid-start',
      outputDir: null,
      build: ['npm', 'run', 'build'],
      start: ['npm', 'run', 'start'],
    });
    expect(decision(bp, 'framework')).toMatchObject({ file: 'app.config.ts' });
    expect(decision(bp, 'framework').rule).toContain('@solidjs/start in dependencies with vinxi');
    expect(decision(bp, 'framework').rule).toContain('.output/server/index.mjs');
    expect(decision(bp, 'start').rule).toBe('"start" script: vinxi start');
    expect(bp.decisions.some((d) => d.field === 'start' && d.value === 'none')).toBe(false);
  });

  it('starts .output/server/index.mjs itself when the start script is the dev server', async () => {
    const bp = await detect({
      ...solid1,
      'package.json': pkg(
        { '@solidjs/start': '^1.1.0', vinxi: '^0.5.7' },
        { build: 'vinxi build', start: 'vinxi dev' },
      ),
    });
    expect(bp.start).toEqual(['node', '.output/server/index.mjs']);
    expect(bp.decisions).toContainEqual(expect.objectContaining({ field: 'start', value: 'dev server' }));
  });

  it("serves .output/public for server: { preset: 'static' } in app.config", async () => {
    const bp = await detect({
      ...solid1,
      'app.config.ts':
        "import { defineConfig } from '@solidjs/start/config';\nexport default defineConfig({ server: { preset: 'static', prerender: { crawlLinks: true } } });\n",
    });
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'solid-start-static',
      outputDir: '.output/public',
    });
    expect(decision(bp, 'framework').rule).toContain("preset: 'static' in app.config.ts");
  });

  it('says plainly that a hosting preset only runs on its platform', async () => {
    const bp = await detect({
      ...solid1,
      'app.config.ts': "export default defineConfig({ server: { preset: 'netlify' } });\n",
    });
    expect(bp).toMatchObject({ kind: 'unknown', framework: 'solid-start' });
    expect(decision(bp, 'kind').rule).toMatch(/preset: 'netlify'.*runs only on that platform/);
  });

  it('reads NITRO_PRESET in the build script', async () => {
    const bp = await detect({
      ...solid1,
      'package.json': pkg(
        { '@solidjs/start': '^1.1.0', vinxi: '^0.5.7' },
        { build: 'NITRO_PRESET=vercel vinxi build', start: 'vinxi start' },
      ),
    });
    expect(bp.kind).toBe('unknown');
    expect(decision(bp, 'kind')).toMatchObject({ file: 'package.json' });
  });

  it('2.x on Vite with the Nitro plugin: the .output server', async () => {
    const bp = await detect({
      'package.json': pkg(
        { '@solidjs/start': '^2.0.0', vite: '^8.0.0', nitro: '^3.0.0' },
        { dev: 'vite dev', build: 'vite build', start: 'vite preview' },
      ),
      'vite.config.ts':
        'import { nitro } from "nitro/vite";\nimport { defineConfig } from "vite";\nimport { solidStart } from "@solidjs/start/config";\nexport default defineConfig({ plugins: [solidStart(), nitro()] });\n',
    });
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'solid-start',
      start: ['node', '.output/server/index.mjs'],
    });
    expect(decision(bp, 'framework').rule).toContain('nitro/vite in vite.config.ts');
  });

  it('2.x without a Nitro plugin: vite preview on the preview port', async () => {
    const bp = await detect({
      'package.json': pkg(
        { '@solidjs/start': '^2.0.0', vite: '^8.0.0' },
        { build: 'vite build', start: 'vite preview' },
      ),
      'vite.config.ts': 'export default defineConfig({ plugins: [solidStart()] });\n',
    });
    expect(bp.kind).toBe('server');
    expect(bp.start).toEqual(expect.arrayContaining(['vite', 'preview', PORT_PLACEHOLDER, '127.0.0.1']));
  });
});

describe('TanStack Start', () => {
  const files = (
    version: string,
    viteConfig: string,
    scripts: Record<string, string> = { build: 'vite build' },
  ) => ({
    'package.json': pkg(
      { '@tanstack/react-start': version, '@tanstack/react-router': version, vite: '^7' },
      scripts,
    ),
    'vite.config.ts': viteConfig,
  });
  const plain =
    "import { tanstackStart } from '@tanstack/react-start/plugin/vite'\nexport default defineConfig({ plugins: [tanstackStart()] })\n";

  it('before 1.132 its Vite plugin builds a Nitro server into .output', async () => {
    const bp = await detect(files('1.131.50', plain));
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'tanstack-start',
      start: ['node', '.output/server/index.mjs'],
    });
    expect(decision(bp, 'framework').rule).toContain(
      '1.131.50: releases before 1.132.0 build a Nitro server',
    );
  });

  it('reads tanstackStart({ target }) as the Nitro preset of those releases', async () => {
    const bp = await detect(
      files('~1.130.0', "export default defineConfig({ plugins: [tanstackStart({ target: 'vercel' })] })\n"),
    );
    expect(bp.kind).toBe('unknown');
    expect(decision(bp, 'kind').rule).toContain("target: 'vercel'");
  });

  it('from 1.132 with nitro() in vite.config: the .output server', async () => {
    const bp = await detect(
      files(
        '^1.169.0',
        "import { nitro } from 'nitro/vite'\nimport { tanstackStart } from '@tanstack/react-start/plugin/vite'\nexport default defineConfig({ plugins: [tanstackStart(), nitro()] })\n",
      ),
    );
    expect(bp).toMatchObject({ kind: 'server', start: ['node', '.output/server/index.mjs'] });
  });

  it('from 1.132 without Nitro (a range that reaches it): vite preview', async () => {
    const bp = await detect(files('^1.120.0', plain));
    expect(bp.kind).toBe('server');
    expect(bp.start).toEqual(expect.arrayContaining(['vite', 'preview']));
    expect(decision(bp, 'framework').rule).toContain('without a Nitro plugin');
  });

  it('the vinxi releases: app.config and vinxi start', async () => {
    const bp = await detect({
      'package.json': pkg(
        { '@tanstack/react-start': '^1.100.0', vinxi: '^0.5.3' },
        { build: 'vinxi build', start: 'vinxi start' },
      ),
      'app.config.ts':
        "import { defineConfig } from '@tanstack/react-start/config'\nexport default defineConfig({})\n",
    });
    expect(bp).toMatchObject({ kind: 'server', framework: 'tanstack-start', start: ['npm', 'run', 'start'] });
  });
});

describe('Analog', () => {
  const analog = (options: string) => ({
    'package.json': pkg(
      { '@analogjs/platform': '^2.7.0', '@angular/core': '^20.0.0', vite: '^7.0.0' },
      { dev: 'vite', build: 'vite build', preview: 'vite preview', start: 'npm run dev' },
    ),
    'angular.json': '{}',
    'vite.config.ts': `import analog from '@analogjs/platform';\nexport default defineConfig(({ mode }) => ({ build: { target: ['es2020'] }, ssr: { noExternal: ['@analogjs/trpc'] }, plugins: [analog(${options})] }));\n`,
  });

  it('runs the Nitro server it writes to dist/analog/server (its start script is the dev server)', async () => {
    const bp = await detect(analog(''));
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'analog',
      build: ['npm', 'run', 'build'],
      start: ['node', 'dist/analog/server/index.mjs'],
    });
  });

  it('static: true → the prerendered site in dist/analog/public', async () => {
    const bp = await detect(analog("{ static: true, prerender: { routes: ['/'] } }"));
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'analog-static',
      outputDir: 'dist/analog/public',
    });
  });

  it('ssr: false → a single-page app in dist/analog/public', async () => {
    const bp = await detect(analog('{ ssr: false }'));
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'analog-spa',
      outputDir: 'dist/analog/public',
    });
  });
});

describe('Nitro', () => {
  it('a nitro.config app: nitropack build, then .output/server/index.mjs', async () => {
    const bp = await detect({
      'package.json': pkg(
        { nitropack: '^2.12.0' },
        { build: 'nitropack build', dev: 'nitropack dev', preview: 'node .output/server/index.mjs' },
      ),
      'nitro.config.ts': 'export default defineNitroConfig({ srcDir: "server" });\n',
    });
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'nitro',
      start: ['node', '.output/server/index.mjs'],
    });
    expect(decision(bp, 'framework')).toMatchObject({ file: 'nitro.config.ts' });
  });

  it('follows output.dir', async () => {
    const bp = await detect({
      'package.json': pkg({ nitro: '^3.0.0' }, {}),
      'nitro.config.ts': "export default defineNitroConfig({ output: { dir: 'out' } });\n",
    });
    expect(bp.start).toEqual(['node', 'out/server/index.mjs']);
    expect(bp.build).toEqual(['npm', 'exec', '--no', '--', 'nitro', 'build']);
  });

  it('`nitro dev` is a dev server', () => {
    expect(devServerOfScript('dev', { dev: 'nitro dev' })).not.toBeNull();
    expect(devServerOfScript('start', { start: 'vinxi start' })).toBeNull();
    expect(devServerOfScript('dev', { dev: 'vinxi dev' })).not.toBeNull();
  });
});

describe('Nuxt', () => {
  const nuxt = (
    scripts: Record<string, string>,
    config = 'export default defineNuxtConfig({})\n',
    version = '^4.2.0',
  ) => ({
    'package.json': pkg({ nuxt: version, vue: '^3.5.0' }, scripts),
    'nuxt.config.ts': config,
  });
  const template = {
    build: 'nuxt build',
    dev: 'nuxt dev',
    generate: 'nuxt generate',
    preview: 'nuxt preview',
    postinstall: 'nuxt prepare',
  };

  it('nuxt build → the Nitro server, even with the template\'s "generate" script', async () => {
    const bp = await detect(nuxt(template));
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'nuxt',
      build: ['npm', 'run', 'build'],
      start: ['node', '.output/server/index.mjs'],
    });
    expect(decision(bp, 'start').rule).toContain('listens on PORT and HOST');
  });

  it('a "build" script that runs nuxt generate → .output/public, static', async () => {
    const bp = await detect(nuxt({ ...template, build: 'nuxt generate' }));
    expect(bp).toMatchObject({ kind: 'static-build', framework: 'nuxt-static', outputDir: '.output/public' });
    expect(decision(bp, 'framework').rule).toContain('"build" script runs nuxt generate');
  });

  it('ssr: false with a generate script → the generate script, a single-page app', async () => {
    const bp = await detect(
      nuxt(template, 'export default defineNuxtConfig({ ssr: false, devtools: { enabled: true } })\n'),
    );
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'nuxt-spa',
      outputDir: '.output/public',
      build: ['npm', 'run', 'generate'],
    });
    expect(decision(bp, 'framework')).toMatchObject({ file: 'nuxt.config.ts' });
  });

  it("nitro: { preset: 'static' } → nuxt build prerenders", async () => {
    const bp = await detect(
      nuxt(template, "export default defineNuxtConfig({ nitro: { preset: 'static' } })\n"),
    );
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'nuxt-static',
      outputDir: '.output/public',
      build: ['npm', 'run', 'build'],
    });
  });

  it('a hosting preset cannot run here; a Node host preset can', async () => {
    const vercel = await detect(
      nuxt(template, "export default defineNuxtConfig({ nitro: { preset: 'vercel' } })\n"),
    );
    expect(vercel.kind).toBe('unknown');
    const heroku = await detect(
      nuxt(template, "export default defineNuxtConfig({ nitro: { preset: 'heroku' } })\n"),
    );
    expect(heroku).toMatchObject({ kind: 'server', start: ['node', '.output/server/index.mjs'] });
  });

  it('a production start script wins over the default entry', async () => {
    const bp = await detect(nuxt({ ...template, start: 'node .output/server/index.mjs' }));
    expect(bp.start).toEqual(['npm', 'run', 'start']);
  });

  it('Nuxt 2: nuxt build and nuxt start; target static → nuxt generate to dist/', async () => {
    const server = await detect(
      nuxt(
        { dev: 'nuxt', build: 'nuxt build', start: 'nuxt start', generate: 'nuxt generate' },
        'export default { head: {} }\n',
        '^2.15.8',
      ),
    );
    expect(server).toMatchObject({ kind: 'server', framework: 'nuxt', start: ['npm', 'run', 'start'] });
    expect(decision(server, 'framework').rule).toContain('Nuxt 2');
    const site = await detect(
      nuxt(
        { dev: 'nuxt', build: 'nuxt build', start: 'nuxt start', generate: 'nuxt generate' },
        "export default { target: 'static', generate: { dir: 'public-site' } }\n",
        '^2.15.8',
      ),
    );
    expect(site).toMatchObject({
      kind: 'static-build',
      framework: 'nuxt-static',
      build: ['npm', 'run', 'generate'],
      outputDir: 'public-site',
    });
  });
});

describe('React Router framework mode', () => {
  const rr = (config: string, scripts: Record<string, string> = {}) => ({
    'package.json': pkg(
      {
        '@react-router/node': '^7',
        '@react-router/serve': '^7',
        react: '^19',
        'react-router': '^7',
        '@react-router/dev': '^7',
        vite: '^7',
      },
      {
        build: 'react-router build',
        dev: 'react-router dev',
        start: 'react-router-serve ./build/server/index.js',
        ...scripts,
      },
    ),
    'react-router.config.ts': config,
    'vite.config.ts':
      'import { reactRouter } from "@react-router/dev/vite";\nexport default defineConfig({ plugins: [reactRouter()] });\n',
    // Its netlify.toml would say `publish = "build/client"`; the framework rule reads the same thing.
    'index.html': '<p>an old index.html nobody builds</p>',
  });

  it('SSR (the default): react-router-serve through the start script', async () => {
    const bp = await detect(rr('export default { ssr: true } satisfies Config;\n'));
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'react-router',
      start: ['npm', 'run', 'start'],
      outputDir: null,
    });
    expect(decision(bp, 'framework')).toMatchObject({ file: 'react-router.config.ts' });
    expect(decision(bp, 'framework').rule).toContain('ssr: true in react-router.config.ts');
  });

  it('ssr: false → build/client, a single-page app; the template start is not used', async () => {
    const bp = await detect(rr('export default {\n  // SPA mode\n  ssr: false,\n} satisfies Config;\n'));
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'react-router-spa',
      outputDir: 'build/client',
      start: null,
    });
    expect(bp.decisions).toContainEqual(
      expect.objectContaining({
        field: 'start',
        value: 'none',
        rule: expect.stringContaining('react-router-serve'),
      }),
    );
  });

  it('prerender with ssr: false → a site of prerendered pages; buildDirectory moves it', async () => {
    const bp = await detect(
      rr(
        "export default { ssr: false, buildDirectory: 'out', async prerender() { return ['/', '/about']; } };\n",
      ),
    );
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'react-router-static',
      outputDir: 'out/client',
    });
    expect(decision(bp, 'outputDir').rule).toContain('buildDirectory "out"');
  });

  it('no start script: react-router-serve on the server build', async () => {
    const files = rr("export default { buildDirectory: 'dist' };\n");
    const manifest = JSON.parse(JSON.stringify(files['package.json'])) as { scripts: Record<string, string> };
    delete manifest.scripts.start;
    const bp = await detect({ ...files, 'package.json': manifest });
    expect(bp.start).toEqual(['npm', 'exec', '--no', '--', 'react-router-serve', 'dist/server/index.js']);
  });
  it("the Cloudflare template (no server package): the plugin's vite preview", async () => {
    const bp = await detect({
      'package.json': pkg(
        {
          react: '^19',
          'react-router': '7.16.0',
          '@react-router/dev': '7.16.0',
          '@cloudflare/vite-plugin': '^1.29.1',
          vite: '^8',
        },
        {
          build: 'react-router build',
          preview: 'react-router build && vite preview',
          deploy: 'react-router build && wrangler deploy',
        },
      ),
      'react-router.config.ts':
        'export default { ssr: true, future: { v8_viteEnvironmentApi: true } } satisfies Config;\n',
      'vite.config.ts':
        'import { reactRouter } from "@react-router/dev/vite";\nimport { cloudflare } from "@cloudflare/vite-plugin";\nexport default defineConfig({ plugins: [cloudflare({ viteEnvironment: { name: "ssr" } }), reactRouter()] });\n',
    });
    expect(bp).toMatchObject({ kind: 'server', framework: 'react-router' });
    expect(bp.start).toEqual(expect.arrayContaining(['vite', 'preview', PORT_PLACEHOLDER]));
    expect(decision(bp, 'framework')).toMatchObject({ file: 'vite.config.ts' });
  });

  it('SSR with nothing to run the server build is unknown, and says why', async () => {
    const bp = await detect({
      'package.json': pkg(
        { react: '^19', 'react-router': '^7', '@react-router/dev': '^7' },
        { build: 'react-router build' },
      ),
      'react-router.config.ts': 'export default {} satisfies Config;\n',
    });
    expect(bp.kind).toBe('unknown');
    expect(decision(bp, 'kind').rule).toContain('no production "start" script and no @react-router/serve');
  });
});

describe('Remix', () => {
  it('with Vite: remix-serve build/server/index.js; ssr: false → build/client', async () => {
    const files = {
      'package.json': pkg(
        {
          '@remix-run/node': '^2',
          '@remix-run/react': '^2',
          '@remix-run/serve': '^2',
          '@remix-run/dev': '^2',
          vite: '^5',
        },
        { build: 'remix vite:build', dev: 'remix vite:dev', start: 'remix-serve ./build/server/index.js' },
      ),
      'vite.config.ts':
        'import { vitePlugin as remix } from "@remix-run/dev";\nexport default defineConfig({ plugins: [remix({ future: {} })] });\n',
    };
    expect(await detect(files)).toMatchObject({
      kind: 'server',
      framework: 'remix',
      start: ['npm', 'run', 'start'],
    });
    const spa = await detect({
      ...files,
      'vite.config.ts':
        'import { vitePlugin as remix } from "@remix-run/dev";\nexport default defineConfig({ plugins: [remix({ ssr: false })] });\n',
    });
    expect(spa).toMatchObject({ kind: 'static-build', framework: 'remix-spa', outputDir: 'build/client' });
  });

  it('classic: remix.config.js serverBuildPath', async () => {
    const bp = await detect({
      'package.json': pkg(
        { '@remix-run/serve': '^1', '@remix-run/dev': '^1' },
        { build: 'remix build', dev: 'remix dev' },
      ),
      'remix.config.js': "module.exports = { serverBuildPath: 'server/index.js' };\n",
    });
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'remix',
      start: ['npm', 'exec', '--no', '--', 'remix-serve', 'server/index.js'],
    });
  });
});

describe('Qwik City', () => {
  const qwik = (scripts: Record<string, string>, adapter?: string) => ({
    'package.json': pkg(
      { '@builder.io/qwik': '^1.20.0', '@builder.io/qwik-city': '^1.20.0', vite: '^7' },
      {
        build: 'qwik build',
        'build.client': 'vite build',
        'build.preview': 'vite build --ssr src/entry.preview.tsx',
        preview: 'qwik build preview && vite preview --open',
        start: 'vite --open --mode ssr',
        ...scripts,
      },
    ),
    'vite.config.ts': 'export default defineConfig(() => ({ plugins: [qwikCity(), qwikVite()] }));\n',
    ...(adapter
      ? { [`adapters/${adapter}/vite.config.ts`]: 'export default extendConfig(baseConfig, () => ({}));\n' }
      : {}),
  });

  it('the express adapter: its "serve" script, not the dev-server start', async () => {
    const bp = await detect(
      qwik(
        {
          'build.server': 'qwik check-client src dist && vite build -c adapters/express/vite.config.ts',
          serve: 'node server/entry.express',
        },
        'express',
      ),
    );
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'qwik',
      start: ['npm', 'run', 'serve'],
      build: ['npm', 'run', 'build'],
    });
    expect(decision(bp, 'framework').rule).toContain('adapters/express/');
  });

  it('the static adapter prerenders into dist/', async () => {
    const bp = await detect(
      qwik(
        { 'build.server': 'qwik check-client src dist && vite build -c adapters/static/vite.config.ts' },
        'static',
      ),
    );
    expect(bp).toMatchObject({ kind: 'static-build', framework: 'qwik-static', outputDir: 'dist' });
  });

  it('no adapter: qwik build preview, then vite preview', async () => {
    const bp = await detect(qwik({}));
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'qwik',
      build: ['npm', 'exec', '--no', '--', 'qwik', 'build', 'preview'],
    });
    expect(bp.start).toEqual(expect.arrayContaining(['vite', 'preview', PORT_PLACEHOLDER]));
  });

  it('a hosting adapter is previewed the same way, and the plan says why', async () => {
    const bp = await detect(
      qwik({ 'build.server': 'vite build -c adapters/cloudflare-pages/vite.config.ts' }, 'cloudflare-pages'),
    );
    expect(bp.start).toEqual(expect.arrayContaining(['vite', 'preview']));
    expect(decision(bp, 'framework').rule).toContain('cloudflare-pages');
  });
});

describe('Astro adapters', () => {
  const astro = (deps: Record<string, string>, config: string) => ({
    'package.json': pkg(
      { astro: '^5.18.0', ...deps },
      { dev: 'astro dev', build: 'astro build', preview: 'astro preview' },
    ),
    'astro.config.mjs': config,
  });

  it('the node adapter without output: server is still a server (Astro writes dist/client + dist/server)', async () => {
    const bp = await detect(
      astro(
        { '@astrojs/node': '^9' },
        "import node from '@astrojs/node';\nexport default defineConfig({ adapter: node({ mode: 'standalone' }) });\n",
      ),
    );
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'astro',
      start: ['node', 'dist/server/entry.mjs'],
    });
    expect(decision(bp, 'framework').rule).toContain('adapter: @astrojs/node in astro.config.mjs');
  });

  it('the node adapter in middleware mode needs a start script', async () => {
    const bp = await detect(
      astro(
        { '@astrojs/node': '^9' },
        "import node from '@astrojs/node';\nexport default defineConfig({ output: 'server', adapter: node({ mode: 'middleware' }) });\n",
      ),
    );
    expect(bp.kind).toBe('unknown');
    expect(decision(bp, 'kind').rule).toContain('middleware mode');
  });

  it.each([
    ['@astrojs/vercel', "import vercel from '@astrojs/vercel';", '.vercel/output/static'],
    ['@astrojs/netlify', "import netlify from '@astrojs/netlify';", 'dist'],
    ['@astrojs/cloudflare', "import cloudflare from '@astrojs/cloudflare';", 'dist'],
  ])('%s: the prerendered pages, where the adapter puts them', async (name, imported, dir) => {
    const bp = await detect(
      astro({ [name]: '*' }, `${imported}\nexport default defineConfig({ adapter: adapter() });\n`),
    );
    expect(bp).toMatchObject({ kind: 'static-build', framework: 'astro', outputDir: dir });
    expect(decision(bp, 'framework').rule).toContain('rendered on demand');
  });

  it("a hosting adapter with output: 'server' cannot run here, and the plan says so", async () => {
    const bp = await detect(
      astro(
        { '@astrojs/vercel': '^8' },
        "import vercel from '@astrojs/vercel';\nexport default defineConfig({ output: 'server', adapter: vercel() });\n",
      ),
    );
    expect(bp.kind).toBe('unknown');
    expect(decision(bp, 'kind').rule).toMatch(/run only on Vercel.*@astrojs\/node/);
  });
});

describe('a Node server with a client it builds', () => {
  const chat = (
    scripts: Record<string, string>,
    deps: Record<string, string> = { express: '^5.1.0', vite: '^7' },
  ) => ({
    'package.json': pkg(deps, scripts),
    'vite.config.js': "export default { root: 'client', build: { outDir: '../public' } };\n",
    'client/index.html': '<h1>Chat</h1>',
  });

  it('`node index start` and a Vite build: a server app, built then started', async () => {
    const bp = await detect(chat({ dev: 'node index dev', build: 'vite build', start: 'node index start' }));
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'express',
      outputDir: null,
      build: ['npm', 'run', 'build'],
      start: ['npm', 'run', 'start'],
    });
    expect(decision(bp, 'framework').rule).toMatch(
      /runs a Node server \(node index start\) with express in dependencies, and vite in dependencies builds the client/,
    );
  });

  it.each([
    ['serve -s dist', 'a static file server'],
    ['http-server dist', 'a static file server'],
    ['sirv dist --single', 'a static file server'],
    ['vite preview', 'a preview'],
    ['vite', 'the dev server'],
    ['electron .', 'a desktop shell'],
  ])('stays a static Vite site when start is `%s` (%s)', async (start) => {
    const bp = await detect(chat({ build: 'vite build', start }, { vite: '^7', react: '^19' }));
    expect(bp).toMatchObject({ kind: 'static-build', framework: 'vite' });
  });

  it('a server behind `npm run serve:prod` and a CRA client', async () => {
    const bp = await detect({
      'package.json': pkg(
        { 'react-scripts': '5.0.1', fastify: '^5' },
        {
          start: 'npm run serve:prod',
          'serve:prod': 'NODE_ENV=production tsx server/main.ts',
          build: 'react-scripts build',
        },
      ),
    });
    expect(bp).toMatchObject({ kind: 'server', framework: 'fastify', start: ['npm', 'run', 'start'] });
  });
});

describe('a Nuxt app beside a Nitro package', () => {
  it('ranks the Nuxt app first: a plain Nitro server serves an API, not a site', async () => {
    const bp = await detect({
      'apps/shop/package.json': {
        name: 'shop',
        scripts: { build: 'nuxt build' },
        dependencies: { nuxt: '^4.2.0' },
      },
      'apps/shop/nuxt.config.ts': 'export default defineNuxtConfig({})\n',
      'apps/api/package.json': {
        name: 'api',
        scripts: { build: 'nitro build' },
        dependencies: { nitro: '^3.0.0' },
      },
      'apps/api/nitro.config.ts': 'export default defineNitroConfig({})\n',
    });
    expect(bp).toMatchObject({ appDir: 'apps/shop', framework: 'nuxt' });
    expect(decision(bp, 'app').rule).toContain('a web app (nuxt)');
    expect(bp.apps.map((a) => `${a.dir}:${a.framework}`).sort()).toEqual([
      'apps/api:nitro',
      'apps/shop:nuxt',
    ]);
  });
});

describe('Astro 4 hybrid output', () => {
  it('with a hosting adapter serves the pages prerendered by default; with none it cannot run', async () => {
    const withVercel = await detect({
      'package.json': pkg({ astro: '^4.16.0', '@astrojs/vercel': '^7' }, { build: 'astro build' }),
      'astro.config.mjs':
        "import vercel from '@astrojs/vercel/serverless';\nexport default defineConfig({ output: 'hybrid', adapter: vercel() });\n",
    });
    expect(withVercel).toMatchObject({ kind: 'static-build', outputDir: '.vercel/output/static' });
    const alone = await detect({
      'package.json': pkg({ astro: '^4.16.0' }, { build: 'astro build' }),
      'astro.config.mjs': "export default defineConfig({ output: 'hybrid' });\n",
    });
    expect(alone.kind).toBe('unknown');
    expect(decision(alone, 'kind').rule).toContain("output 'hybrid' needs the @astrojs/node adapter");
  });
});
