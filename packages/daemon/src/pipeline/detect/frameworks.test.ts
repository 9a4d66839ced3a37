import { describe, expect, it } from 'vitest';
import { detectBlueprint } from './detect-blueprint.ts';
import { decision, useProjects, type ProjectTree } from './test-project.ts';

const makeProject = useProjects();

const pkg = (
  deps: Record<string, string>,
  scripts: Record<string, string> = { build: 'vite build' },
  extra = {},
) => ({
  name: 'app',
  scripts,
  dependencies: deps,
  ...extra,
});

const detect = async (tree: ProjectTree) => detectBlueprint(await makeProject(tree));

describe('Vite', () => {
  it('builds to dist/ by default and names the UI library it saw', async () => {
    const bp = await detect({
      'package.json': pkg(
        { react: '^19', vite: '^8', '@vitejs/plugin-react': '^5' },
        { build: 'tsc -b && vite build' },
      ),
      'package-lock.json': '{}',
      'index.html': '<div id="root"></div>',
    });
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'vite',
      outputDir: 'dist',
      build: ['npm', 'run', 'build'],
      start: null,
    });
    expect(decision(bp, 'framework')).toMatchObject({ file: 'package.json' });
    expect(decision(bp, 'framework').rule).toMatch(/^vite in dependencies \(React: /);
    expect(decision(bp, 'outputDir')).toMatchObject({
      value: 'dist',
      file: null,
      rule: "Vite's default dist/",
    });
    expect(decision(bp, 'build').rule).toBe('"build" script: tsc -b && vite build');
  });

  it.each([
    ['Preact', { preact: '^10', '@preact/preset-vite': '^2', vite: '^8' }],
    ['Lit', { lit: '^3', vite: '^8' }],
    ['Solid', { 'solid-js': '^1', 'vite-plugin-solid': '^2', vite: '^8' }],
    ['Vue', { vue: '^3', '@vitejs/plugin-vue': '^6', vite: '^8' }],
    ['Svelte', { svelte: '^5', '@sveltejs/vite-plugin-svelte': '^6', vite: '^8' }],
  ])('recognises a %s app built with Vite', async (label, deps) => {
    const bp = await detect({ 'package.json': pkg(deps) });
    expect(bp).toMatchObject({ kind: 'static-build', framework: 'vite', outputDir: 'dist' });
    expect(decision(bp, 'framework').rule).toContain(`(${label}: `);
  });

  it('reads build.outDir from the config text, past comments, nested objects, regexes and decoy strings', async () => {
    const bp = await detect({
      'package.json': pkg({ vite: '^8' }),
      'vite.config.ts': `import { defineConfig } from 'vite';
// build: { outDir: 'commented-out' }
/* build: { outDir: 'also-commented' } */
const banner = "build: { outDir: 'in-a-string' } }";
export default defineConfig(({ mode }) => ({
  plugins: [inspect({ include: /\\.(t|j)sx?$/ }), { name: 'x', transform(code) { return code.replace(/[{}'"]/g, ''); } }],
  server: { port: 3000, proxy: { '/api': { target: \`http://localhost:\${8080}\` } } },
  build: {
    rollupOptions: { input: { main: 'index.html', admin: 'admin.html' } },
    sourcemap: mode !== 'production',
    outDir: 'web-dist/',
  },
}));
`,
    });
    expect(bp.outputDir).toBe('web-dist');
    expect(decision(bp, 'outputDir')).toMatchObject({
      file: 'vite.config.ts',
      rule: 'build.outDir: "web-dist/" in vite.config.ts',
    });
  });

  it('puts the output under `root` when the config moves the root', async () => {
    const inRoot = await detect({
      'package.json': pkg({ vite: '^8' }),
      'vite.config.js': "export default { root: 'src', build: { emptyOutDir: true } }",
    });
    expect(inRoot.outputDir).toBe('src/dist');
    const besideRoot = await detect({
      'package.json': pkg({ vite: '^8' }),
      'vite.config.mjs': "export default { root: 'src', build: { outDir: '../public-build' } }",
    });
    expect(besideRoot.outputDir).toBe('public-build');
  });

  it('says so, and uses dist/, when outDir is computed', async () => {
    const bp = await detect({
      'package.json': pkg({ vite: '^8' }),
      'vite.config.ts': "export default { build: { outDir: resolve(__dirname, 'out') } }",
    });
    expect(bp.outputDir).toBe('dist');
    expect(decision(bp, 'outputDir').rule).toMatch(
      /build\.outDir in vite\.config\.ts is computed, and Forge does not run project code/,
    );
  });

  it('never serves an outDir outside the project', async () => {
    const bp = await detect({
      'package.json': pkg({ vite: '^8' }),
      'vite.config.ts': "export default { build: { outDir: '../../etc' } }",
    });
    expect(bp.outputDir).toBe('dist');
    expect(decision(bp, 'outputDir').rule).toContain('is outside the project');
  });

  it('takes --outDir from the build script over the config', async () => {
    const bp = await detect({
      'package.json': pkg({ vite: '^8' }, { build: 'vite build --outDir=site' }),
      'vite.config.ts': "export default { build: { outDir: 'www' } }",
    });
    expect(bp.outputDir).toBe('site');
    expect(decision(bp, 'outputDir')).toMatchObject({ file: 'package.json' });
  });

  it('is recognised from vite.config.* alone, and builds with vite itself when there is no build script', async () => {
    const bp = await detect({
      'package.json': { name: 'bare', devDependencies: { typescript: '^6' } },
      'vite.config.ts': 'export default {}',
    });
    expect(bp).toMatchObject({ framework: 'vite', kind: 'static-build' });
    expect(decision(bp, 'framework')).toMatchObject({
      file: 'vite.config.ts',
      rule: 'vite.config.ts present',
    });
    expect(bp.build).toEqual(['npm', 'exec', '--no', '--', 'vite', 'build']);
    expect(decision(bp, 'build').rule).toContain('no "build" script');
  });
});

describe('Create React App, Vue CLI, Gatsby, Docusaurus, Eleventy, Parcel', () => {
  it('builds Create React App to build/ and does not run its dev-server start script', async () => {
    const bp = await detect({
      'package.json': pkg(
        { react: '^18', 'react-dom': '^18', 'react-scripts': '5.0.1' },
        { start: 'react-scripts start', build: 'react-scripts build', test: 'react-scripts test' },
      ),
    });
    expect(bp).toMatchObject({ kind: 'static-build', framework: 'cra', outputDir: 'build', start: null });
    expect(bp.test).toEqual(['npm', 'run', 'test']);
    expect(decision(bp, 'framework').rule).toBe('react-scripts in dependencies: Create React App');
    expect(decision(bp, 'start').rule).toContain('"start" script not used');
  });

  it('reads Vue CLI outputDir from vue.config.js', async () => {
    const byDefault = await detect({ 'package.json': pkg({ vue: '^3', '@vue/cli-service': '^5' }) });
    expect(byDefault).toMatchObject({ framework: 'vue-cli', outputDir: 'dist' });
    const configured = await detect({
      'package.json': pkg({ vue: '^3', '@vue/cli-service': '^5' }),
      'vue.config.js': "module.exports = { publicPath: '/', outputDir: 'public-dist' }",
    });
    expect(configured.outputDir).toBe('public-dist');
    expect(decision(configured, 'outputDir').file).toBe('vue.config.js');
  });

  it.each([
    ['gatsby', 'gatsby', 'public'],
    ['@docusaurus/core', 'docusaurus', 'build'],
    ['@11ty/eleventy', 'eleventy', '_site'],
    ['parcel', 'parcel', 'dist'],
  ])('%s → %s, output %s/', async (dep, framework, outputDir) => {
    const bp = await detect({ 'package.json': pkg({ [dep]: '*' }, { build: 'build-it' }) });
    expect(bp).toMatchObject({ kind: 'static-build', framework, outputDir });
  });

  it('reads Eleventy dir.output and Parcel --dist-dir', async () => {
    const eleventy = await detect({
      'package.json': pkg({ '@11ty/eleventy': '^3' }, {}),
      'eleventy.config.js':
        "export default function (c) { return { dir: { input: 'src', output: 'www' } }; }",
    });
    expect(eleventy.outputDir).toBe('www');
    expect(eleventy.build).toEqual(['npm', 'exec', '--no', '--', 'eleventy']);
    const parcel = await detect({
      'package.json': pkg({ parcel: '^2' }, { build: 'parcel build src/index.html --dist-dir out' }),
    });
    expect(parcel.outputDir).toBe('out');
  });
});

describe('Angular', () => {
  const angularJson = (projects: object, extra: object = {}) =>
    JSON.stringify({ version: 1, projects, ...extra });
  const app = (builder: string, outputPath?: unknown) => ({
    projectType: 'application',
    architect: {
      build: { builder, options: outputPath === undefined ? { index: 'src/index.html' } : { outputPath } },
    },
  });

  it('puts the application builder (17+) output in <outputPath>/browser of the default project', async () => {
    const bp = await detect({
      'package.json': pkg({ '@angular/core': '^19' }, { build: 'ng build' }),
      'angular.json': angularJson(
        { lib: { projectType: 'library' }, shop: app('@angular/build:application', 'dist/shop') },
        { defaultProject: 'shop' },
      ),
    });
    expect(bp).toMatchObject({ kind: 'static-build', framework: 'angular', outputDir: 'dist/shop/browser' });
    expect(decision(bp, 'framework').rule).toContain('defaultProject "shop"');
    expect(decision(bp, 'outputDir')).toMatchObject({ file: 'angular.json' });
    expect(decision(bp, 'outputDir').rule).toContain('<outputPath>/browser');
  });

  it('uses outputPath directly with the older browser builder', async () => {
    const bp = await detect({
      'package.json': pkg({ '@angular/core': '^15' }, { build: 'ng build' }),
      'angular.json': angularJson({ site: app('@angular-devkit/build-angular:browser', 'dist/site') }),
    });
    expect(bp.outputDir).toBe('dist/site');
  });

  it('understands outputPath objects, the default outputPath, and comments in angular.json', async () => {
    const objectForm = await detect({
      'package.json': pkg({ '@angular/core': '^19' }, {}),
      'angular.json': angularJson({
        web: app('@angular-devkit/build-angular:application', { base: 'out', browser: '' }),
      }),
    });
    expect(objectForm.outputDir).toBe('out');
    expect(objectForm.build).toEqual(['npm', 'exec', '--no', '--', 'ng', 'build']);

    const defaults = await detect({
      'package.json': pkg({ '@angular/core': '^19' }),
      'angular.json': `{
        // generated by ng new
        "projects": { "other": { "projectType": "library" }, "my-app": ${JSON.stringify(app('@angular/build:application'))} }
      }`,
    });
    expect(defaults.outputDir).toBe('dist/my-app/browser');
    expect(decision(defaults, 'framework').rule).toContain('the first application project, "my-app"');
  });

  it('is unknown without angular.json, saying why', async () => {
    const bp = await detect({ 'package.json': pkg({ '@angular/core': '^19' }) });
    expect(bp).toMatchObject({ kind: 'unknown', framework: 'angular' });
    expect(decision(bp, 'kind').rule).toContain('no angular.json');
  });
});

describe('Astro', () => {
  it('is a static site in dist/ by default, or in its outDir', async () => {
    const bp = await detect({
      'package.json': pkg({ astro: '^5' }, { build: 'astro build', start: 'astro dev' }),
    });
    expect(bp).toMatchObject({ kind: 'static-build', framework: 'astro', outputDir: 'dist', start: null });
    const moved = await detect({
      'package.json': pkg({ astro: '^5' }, { build: 'astro build' }),
      'astro.config.mjs':
        "import { defineConfig } from 'astro/config';\nexport default defineConfig({ outDir: './build', site: 'https://x.dev' });",
    });
    expect(moved.outputDir).toBe('build');
    expect(decision(moved, 'outputDir').file).toBe('astro.config.mjs');
  });

  it("is a server with output: 'server' and the Node adapter", async () => {
    const bp = await detect({
      'package.json': pkg(
        { astro: '^5', '@astrojs/node': '^9' },
        { build: 'astro build', start: 'astro dev' },
      ),
      'astro.config.mjs':
        "export default defineConfig({ output: 'server', adapter: node({ mode: 'standalone' }) });",
    });
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'astro',
      start: ['node', 'dist/server/entry.mjs'],
    });
    expect(decision(bp, 'framework')).toMatchObject({ file: 'astro.config.mjs' });
    expect(decision(bp, 'framework').rule).toContain("output: 'server'");
  });

  it("is unknown with output: 'server' and nothing that can run it", async () => {
    const bp = await detect({
      'package.json': pkg({ astro: '^5' }, { build: 'astro build', start: 'astro dev' }),
      'astro.config.mjs': "export default { output: 'server' }",
    });
    expect(bp.kind).toBe('unknown');
    expect(decision(bp, 'kind').rule).toContain('@astrojs/node');
  });
});

describe('Next.js', () => {
  it("builds a static export to out/ with output: 'export'", async () => {
    const bp = await detect({
      'package.json': pkg({ next: '^15', react: '^19' }, { build: 'next build', start: 'next start' }),
      'next.config.mjs':
        "/** @type {import('next').NextConfig} */\nconst nextConfig = { output: 'export', images: { unoptimized: true } };\nexport default nextConfig;",
    });
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'next-export',
      outputDir: 'out',
      start: null,
    });
    expect(decision(bp, 'framework')).toMatchObject({ file: 'next.config.mjs' });
    expect(decision(bp, 'framework').rule).toContain("output: 'export'");
  });

  it('exports into a custom distDir', async () => {
    const bp = await detect({
      'package.json': pkg({ next: '^15' }, { build: 'next build' }),
      'next.config.ts':
        "const config: NextConfig = { output: 'export', distDir: 'dist' };\nexport default config;",
    });
    expect(bp.outputDir).toBe('dist');
  });

  it('supports the legacy next export script', async () => {
    const bp = await detect({
      'package.json': pkg({ next: '^12' }, { build: 'next build && next export -o static' }),
    });
    expect(bp).toMatchObject({ framework: 'next-export', outputDir: 'static' });
  });

  it('is a server otherwise, started by its start script or next start', async () => {
    const withScript = await detect({
      'package.json': pkg({ next: '^15' }, { build: 'next build', start: 'next start', dev: 'next dev' }),
      'next.config.js': 'module.exports = { reactStrictMode: true }',
    });
    expect(withScript).toMatchObject({
      kind: 'server',
      framework: 'next',
      outputDir: null,
      start: ['npm', 'run', 'start'],
    });
    const without = await detect({
      'package.json': pkg({ next: '^15' }, { build: 'next build' }),
      'pnpm-lock.yaml': '',
    });
    expect(without.start).toEqual(['pnpm', 'exec', 'next', 'start']);
    expect(decision(without, 'start').rule).toContain("Next.js's own server");
  });
});

describe('SvelteKit', () => {
  const kit = (adapter: string) => pkg({ '@sveltejs/kit': '^2', [adapter]: '^3', vite: '^8' });

  it('builds to build/ with adapter-static, or to its pages option', async () => {
    const bp = await detect({
      'package.json': kit('@sveltejs/adapter-static'),
      'svelte.config.js':
        "import adapter from '@sveltejs/adapter-static';\nexport default { kit: { adapter: adapter() } };",
    });
    expect(bp).toMatchObject({ kind: 'static-build', framework: 'sveltekit-static', outputDir: 'build' });
    const pages = await detect({
      'package.json': kit('@sveltejs/adapter-static'),
      'svelte.config.js':
        "import adapter from '@sveltejs/adapter-static';\nexport default { kit: { adapter: adapter({ pages: 'public', fallback: '200.html' }) } };",
    });
    expect(pages.outputDir).toBe('public');
    expect(decision(pages, 'outputDir')).toMatchObject({ file: 'svelte.config.js' });
  });

  it('is a Node server with adapter-node', async () => {
    const bp = await detect({ 'package.json': kit('@sveltejs/adapter-node') });
    expect(bp).toMatchObject({ kind: 'server', framework: 'sveltekit', start: ['node', 'build'] });
  });

  it('is unknown with adapter-auto, saying what to use', async () => {
    const bp = await detect({ 'package.json': kit('@sveltejs/adapter-auto') });
    expect(bp.kind).toBe('unknown');
    expect(decision(bp, 'kind').rule).toContain('adapter-static');
  });
});

describe('servers, custom builds, static sites, unknown', () => {
  it('treats an Express app with a start script as a server', async () => {
    const bp = await detect({
      'package.json': pkg({ express: '^5' }, { start: 'node server.js', dev: 'node --watch server.js' }),
      'server.js': "require('express')().listen(process.env.PORT)",
    });
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'express',
      start: ['npm', 'run', 'start'],
      build: null,
      outputDir: null,
    });
    expect(decision(bp, 'framework').rule).toBe(
      'express in dependencies and a "start" script, with no static framework',
    );
    expect(decision(bp, 'start')).toMatchObject({
      file: 'package.json',
      rule: '"start" script: node server.js',
    });
  });

  it('builds a project with a build script and no known framework to dist/, or its --out-dir', async () => {
    const bp = await detect({ 'package.json': { name: 'zero', scripts: { build: 'node build.mjs' } } });
    expect(bp).toMatchObject({ kind: 'static-build', framework: 'custom', outputDir: 'dist', install: null });
    expect(decision(bp, 'outputDir').rule).toContain('conventional dist/');
    const flagged = await detect({
      'package.json': { name: 'x', scripts: { build: 'esbuild src/app.ts --bundle --outdir=public/js' } },
    });
    expect(flagged.outputDir).toBe('public/js');
  });

  it('serves a root index.html as is when package.json has no build or start script', async () => {
    const bp = await detect({
      'package.json': { name: 'site', scripts: { serve: 'npx serve .' } },
      'index.html': '<h1>hi</h1>',
    });
    expect(bp).toMatchObject({
      kind: 'static',
      framework: 'static',
      outputDir: '.',
      build: null,
      start: null,
    });
    expect(decision(bp, 'kind')).toMatchObject({ file: 'index.html' });
    expect(decision(bp, 'start').rule).toContain('"serve" is a dev preview, never used as start');
  });

  it('serves a plain static site with no package.json (no build needed)', async () => {
    const bp = await detect({ 'index.html': '<h1>hi</h1>', 'style.css': 'h1{}' });
    expect(bp).toMatchObject({
      kind: 'static',
      framework: 'static',
      hasPackageJson: false,
      outputDir: '.',
      install: null,
      build: null,
    });
    expect(decision(bp, 'framework')).toMatchObject({ file: 'index.html' });
  });

  it('is unknown, with the reason, when there is nothing to build or serve', async () => {
    const noPkg = await detect({ 'README.md': '# hi', 'src/index.html': '<p>nested</p>' });
    expect(noPkg).toMatchObject({ kind: 'unknown', framework: 'unknown', outputDir: null });
    expect(decision(noPkg, 'kind').rule).toBe(
      'no package.json and no index.html at the project root: nothing Forge knows how to build or serve',
    );
    const noScripts = await detect({ 'package.json': { name: 'lib', main: 'index.js' } });
    expect(noScripts.kind).toBe('unknown');
    expect(decision(noScripts, 'kind')).toMatchObject({ file: 'package.json' });
    expect(decision(noScripts, 'kind').rule).toContain('no "build" or "start" script');
  });
});
