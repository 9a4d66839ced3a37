import { describe, expect, it } from 'vitest';
import { PORT_PLACEHOLDER } from '@forge/shared';
import { detectBlueprint } from './detect-blueprint.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

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
      'vite.config.ts': "export default { build: { outDir: process.env.OUT_DIR ?? 'out' } }",
    });
    expect(bp.outputDir).toBe('dist');
    expect(decision(bp, 'outputDir').rule).toMatch(
      /build\.outDir in vite\.config\.ts is computed, and Forge does not run project code/,
    );
  });

  it('reads an outDir written as resolve(__dirname, …), which ignores root', async () => {
    const bp = await detect({
      'package.json': pkg({ vite: '^8' }),
      'vite.config.ts':
        "import { resolve } from 'node:path';\nexport default { root: 'src', build: { outDir: resolve(__dirname, 'out') } }",
    });
    expect(bp.outputDir).toBe('out');
    expect(decision(bp, 'outputDir')).toMatchObject({
      file: 'vite.config.ts',
      rule: "build.outDir: resolve(__dirname, 'out') in vite.config.ts",
    });
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
    // react-scripts test watches outside CI: Forge runs it once (detect/test-command.ts).
    expect(bp.test).toEqual(['npm', 'exec', '--no', '--', 'react-scripts', 'test', '--watchAll=false']);
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

  it('replaces a start script that runs next dev with next start, and says so', async () => {
    const bp = await detect({
      'package.json': pkg(
        { next: '^15', react: '^19' },
        { dev: 'next dev --turbopack', build: 'next build', start: 'next dev' },
      ),
      'next.config.ts':
        "import type { NextConfig } from 'next';\nconst nextConfig: NextConfig = {};\nexport default nextConfig;",
      'yarn.lock': '',
    });
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'next',
      build: ['yarn', 'run', 'build'],
      start: ['yarn', 'run', 'next', 'start'],
    });
    const starts = bp.decisions.filter((d) => d.field === 'start');
    expect(starts.map((d) => d.value)).toEqual(['dev server', 'yarn run next start']);
    expect(starts[0]!.rule).toBe(
      'the "start" script runs next dev, Next.js\'s dev server: never used as the production server',
    );
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

  // What `npx sv create` writes (minimal template, TypeScript off).
  const svCreate = (adapter: string, extra: object = {}) => ({
    'package.json': {
      name: 'my-app',
      private: true,
      version: '0.0.1',
      type: 'module',
      scripts: {
        dev: 'vite dev',
        build: 'vite build',
        preview: 'vite preview',
        prepare: 'svelte-kit sync || echo ""',
      },
      devDependencies: {
        [adapter]: '^7.0.0',
        '@sveltejs/kit': '^2.49.1',
        '@sveltejs/vite-plugin-svelte': '^6.2.1',
        svelte: '^5.45.6',
        vite: '^7.2.6',
      },
      ...extra,
    },
    'svelte.config.js': `import adapter from '${adapter}';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	kit: {
		// adapter-auto only supports some environments, see https://svelte.dev/docs/kit/adapter-auto for a list.
		// If your environment is not supported, or you settled on a specific environment, switch out the adapter.
		// See https://svelte.dev/docs/kit/adapters for more information about adapters.
		adapter: adapter()
	}
};

export default config;
`,
    'vite.config.js':
      "import { sveltekit } from '@sveltejs/kit/vite';\nimport { defineConfig } from 'vite';\n\nexport default defineConfig({ plugins: [sveltekit()] });\n",
    'src/routes/+page.svelte': '<h1>Welcome to SvelteKit</h1>',
  });

  it.each([
    '@sveltejs/adapter-auto',
    '@sveltejs/adapter-vercel',
    '@sveltejs/adapter-netlify',
    '@sveltejs/adapter-cloudflare',
  ])('builds with %s and previews the build with vite preview on the preview port', async (adapter) => {
    const bp = await detect(svCreate(adapter));
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'sveltekit',
      outputDir: null,
      build: ['npm', 'run', 'build'],
      start: [
        'npm',
        'exec',
        '--no',
        '--',
        'vite',
        'preview',
        '--port',
        PORT_PLACEHOLDER,
        '--strictPort',
        '--host',
        '127.0.0.1',
      ],
    });
    expect(decision(bp, 'framework')).toMatchObject({ file: 'svelte.config.js' });
    expect(decision(bp, 'framework').rule).toContain(
      `svelte.config.js imports ${adapter}, a hosting adapter`,
    );
    expect(decision(bp, 'framework').rule).toContain('Forge previews the build with vite preview');
    expect(decision(bp, 'start').rule).toContain('vite preview');
    expect(decision(bp, 'build').rule).toBe('"build" script: vite build');
  });

  it("previews SvelteKit's RealWorld app (adapter-vercel, pnpm 10) with pnpm", async () => {
    const bp = await detect({
      'package.json': {
        name: 'realworld.svelte.dev',
        version: '1.0.1-next.0',
        private: true,
        license: 'MIT',
        type: 'module',
        scripts: {
          dev: 'vite dev',
          build: 'vite build',
          preview: 'vite preview',
          lint: 'prettier --check .',
          format: 'prettier --write .',
        },
        devDependencies: {
          '@sveltejs/adapter-vercel': '^6.3.2',
          '@sveltejs/kit': '^2.52.2',
          '@sveltejs/vite-plugin-svelte': '^6.2.1',
          marked: '^16.4.1',
          svelte: '^5.53.5',
          vite: '^7.3.2',
        },
        packageManager: 'pnpm@10.20.0',
      },
      // Settings only, no `packages`: not a workspace.
      'pnpm-workspace.yaml': 'onlyBuiltDependencies:\n  - esbuild\n',
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      'svelte.config.js':
        "import adapter from '@sveltejs/adapter-vercel';\n\n/** @type {import('@sveltejs/kit').Config} */\nconst config = {\n\tcompilerOptions: {\n\t\trunes: true\n\t},\n\tkit: {\n\t\tadapter: adapter()\n\t}\n};\n\nexport default config;\n",
      'vite.config.js':
        "import { sveltekit } from '@sveltejs/kit/vite';\nimport { defineConfig } from 'vite';\n\nexport default defineConfig({\n\tplugins: [sveltekit()]\n});\n",
    });
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'sveltekit',
      packageManager: 'pnpm',
      build: ['pnpm', 'run', 'build'],
      start: [
        'pnpm',
        'exec',
        'vite',
        'preview',
        '--port',
        PORT_PLACEHOLDER,
        '--strictPort',
        '--host',
        '127.0.0.1',
      ],
      appDir: '.',
      installDir: '.',
      apps: [],
    });
    expect(bp.decisions.some((d) => d.field === 'workspace')).toBe(false);
  });

  it('keeps a production start script over vite preview', async () => {
    const bp = await detect({
      ...svCreate('@sveltejs/adapter-auto'),
      'package.json': {
        ...kit('@sveltejs/adapter-auto'),
        scripts: { build: 'vite build', start: 'node server.js' },
      },
    });
    expect(bp.start).toEqual(['npm', 'run', 'start']);
  });
});

describe('webpack', () => {
  // html5-boilerplate's webpack project (its dist/ folder, as `npm create h5bp` writes it).
  const h5bp = {
    'package.json': {
      name: ' ',
      version: '0.0.1',
      description: '',
      private: true,
      keywords: [''],
      license: '',
      author: '',
      scripts: {
        test: 'echo "Error: no test specified" && exit 1',
        start: 'webpack serve --open --config webpack.config.dev.js',
        build: 'webpack --config webpack.config.prod.js',
      },
      devDependencies: {
        'copy-webpack-plugin': '^14.0.0',
        'html-webpack-plugin': '^5.6.7',
        webpack: '^5.105.3',
        'webpack-cli': '^7.0.3',
        'webpack-dev-server': '^5.2.4',
        'webpack-merge': '^6.0.1',
      },
    },
    'webpack.common.js': `const path = require('path');

module.exports = {
  entry: {
    app: './js/app.js',
  },
  output: {
    path: path.resolve(__dirname, 'dist'),
    clean: true,
    filename: './js/app.js',
  },
};
`,
    'webpack.config.dev.js': `const { merge } = require('webpack-merge');
const common = require('./webpack.common.js');

module.exports = merge(common, {
  mode: 'development',
  devtool: 'inline-source-map',
  devServer: {
    liveReload: true,
    hot: true,
    open: true,
    static: ['./'],
  },
});
`,
    'webpack.config.prod.js': `const { merge } = require('webpack-merge');
const common = require('./webpack.common.js');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const CopyPlugin = require('copy-webpack-plugin');

module.exports = merge(common, {
  mode: 'production',
  plugins: [
    new HtmlWebpackPlugin({
      template: './index.html',
    }),
    new CopyPlugin({
      patterns: [
        { from: 'img', to: 'img' },
        { from: 'css', to: 'css' },
        { from: 'js/vendor', to: 'js/vendor' },
        { from: '404.html', to: '404.html' },
      ],
    }),
  ],
});
`,
    'index.html':
      '<!doctype html><html lang="en"><head><title></title></head><body><p>Hello world! This is HTML5 Boilerplate.</p><script src="js/app.js"></script></body></html>',
    'js/app.js': '',
    'package-lock.json': '{"lockfileVersion": 3}',
  };

  it("builds html5-boilerplate's webpack project to the output.path of the config its prod config merges", async () => {
    const bp = await detect(h5bp);
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'webpack',
      outputDir: 'dist',
      build: ['npm', 'run', 'build'],
      start: null,
      test: null,
    });
    expect(decision(bp, 'framework').rule).toBe(
      'webpack in devDependencies; the "build" script runs webpack --config webpack.config.prod.js',
    );
    expect(decision(bp, 'outputDir')).toMatchObject({
      file: 'webpack.common.js',
      rule: "output.path: path.resolve(__dirname, 'dist') in webpack.common.js",
    });
    expect(decision(bp, 'start').rule).toBe(
      '"start" script not used (webpack serve --open --config webpack.config.dev.js: the webpack dev server): the preview serves the built files',
    );
  });

  it('builds with webpack in production mode and the production config when there is no build script', async () => {
    const bp = await detect({
      ...h5bp,
      'package.json': {
        ...h5bp['package.json'],
        scripts: { start: 'webpack serve --config webpack.config.dev.js' },
      },
    });
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'webpack',
      outputDir: 'dist',
      build: [
        'npm',
        'exec',
        '--no',
        '--',
        'webpack',
        '--mode',
        'production',
        '--config',
        'webpack.config.prod.js',
      ],
    });
    expect(decision(bp, 'build')).toMatchObject({ file: 'webpack.config.prod.js' });
  });

  it.each([
    ['webpack.prod.js', 'webpack.common.js'],
    ['webpack.config.prod.js', 'webpack.config.js'],
    ['webpack.production.js', 'webpack.config.js'],
  ])('prefers %s over %s without a build script', async (prod, other) => {
    const bp = await detect({
      'package.json': { name: 'x', devDependencies: { webpack: '^5', 'webpack-cli': '^6' } },
      [prod]:
        "module.exports = { mode: 'production', output: { path: require('path').join(__dirname, 'prod-out') } }",
      [other]: "module.exports = { output: { path: path.join(__dirname, 'other-out') } }",
    });
    expect(bp.build).toEqual([
      'npm',
      'exec',
      '--no',
      '--',
      'webpack',
      '--mode',
      'production',
      '--config',
      prod,
    ]);
  });

  it("reads output.path of webpack.config.js (resolve and join forms), else webpack's default dist/", async () => {
    const resolved = await detect({
      'package.json': {
        name: 'x',
        scripts: { build: 'webpack --mode=production' },
        devDependencies: { webpack: '^5' },
      },
      'webpack.config.js': `const path = require('path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
module.exports = (env, argv) => ({
  entry: './src/index.js',
  output: { filename: '[name].[contenthash].js', path: path.resolve(__dirname, 'build', 'public') },
  module: { rules: [{ test: /\\.css$/i, use: ['style-loader', 'css-loader'] }] },
  plugins: [new HtmlWebpackPlugin({ template: './src/index.html' })],
});
`,
    });
    expect(resolved).toMatchObject({
      framework: 'webpack',
      outputDir: 'build/public',
      build: ['npm', 'run', 'build'],
    });

    const joined = await detect({
      'package.json': { name: 'x', scripts: { build: 'webpack' }, devDependencies: { webpack: '^5' } },
      'webpack.config.mjs':
        "import path from 'node:path';\nexport default { output: { path: path.join(import.meta.dirname, 'www') } };",
    });
    expect(joined.outputDir).toBe('www');

    const configDir = await detect({
      'package.json': {
        name: 'x',
        scripts: {
          build: 'npm run build:prod',
          'build:prod': 'cross-env NODE_ENV=production webpack -c config/webpack.prod.js',
        },
        devDependencies: { webpack: '^5' },
      },
      'config/webpack.prod.js':
        "module.exports = { output: { path: path.resolve(__dirname, '../public') } };",
    });
    expect(configDir.outputDir).toBe('public');
    expect(decision(configDir, 'framework').rule).toContain(
      'the "build" script runs webpack -c config/webpack.prod.js',
    );

    const byDefault = await detect({
      'package.json': { name: 'x', scripts: { build: 'webpack' }, devDependencies: { webpack: '^5' } },
      'webpack.config.js': "module.exports = { entry: './src/main.js' };",
    });
    expect(byDefault.outputDir).toBe('dist');
    expect(decision(byDefault, 'outputDir').rule).toBe(
      "no output.path in webpack.config.js: webpack's default dist/",
    );
  });

  it('takes --output-path from the build script, and never serves a folder outside the project', async () => {
    const flagged = await detect({
      'package.json': {
        name: 'x',
        scripts: { build: 'webpack --output-path site' },
        devDependencies: { webpack: '^5' },
      },
    });
    expect(flagged).toMatchObject({ framework: 'webpack', outputDir: 'site' });
    const outside = await detect({
      'package.json': { name: 'x', scripts: { build: 'webpack' }, devDependencies: { webpack: '^5' } },
      'webpack.config.js': "module.exports = { output: { path: path.resolve(__dirname, '../../srv') } };",
    });
    expect(outside.outputDir).toBe('dist');
    expect(decision(outside, 'outputDir').rule).toContain('is outside the project');
  });

  it('leaves server bundles and apps with a production server to the server rules', async () => {
    const nodeTarget = await detect({
      'package.json': {
        name: 'api',
        scripts: { build: 'webpack', start: 'node dist/server.js' },
        dependencies: { express: '^5' },
        devDependencies: { webpack: '^5' },
      },
      'webpack.config.js':
        "module.exports = { target: 'node', output: { path: path.resolve(__dirname, 'dist') } };",
    });
    expect(nodeTarget).toMatchObject({
      kind: 'server',
      framework: 'express',
      start: ['npm', 'run', 'start'],
    });
    const withServer = await detect({
      'package.json': {
        name: 'app',
        scripts: { build: 'webpack', start: 'node server.js' },
        dependencies: { express: '^5' },
        devDependencies: { webpack: '^5' },
      },
      'webpack.config.js': "module.exports = { output: { path: path.resolve(__dirname, 'public') } };",
    });
    expect(withServer).toMatchObject({ kind: 'server', build: ['npm', 'run', 'build'] });
  });

  it('is not claimed by a build script that runs something else', async () => {
    const bp = await detect({
      'package.json': {
        name: 'x',
        scripts: { build: 'gulp build' },
        devDependencies: { gulp: '^5', webpack: '^5' },
      },
      'webpack.config.js': 'module.exports = {};',
    });
    expect(bp.framework).toBe('custom');
  });
});

describe('dev-server start scripts', () => {
  it.each([
    ['webpack serve --open', 'the webpack dev server'],
    ['webpack-dev-server --mode development', 'the webpack dev server'],
    ['vite', "Vite's dev server"],
    ['vite dev --port 3000', "Vite's dev server"],
    ['react-scripts start', "Create React App's dev server"],
    ['ng serve', "the Angular CLI's dev server"],
    ['next dev', "Next.js's dev server"],
    ['astro dev', "Astro's dev server"],
    ['nuxt dev', "Nuxt's dev server"],
    ['svelte-kit dev', "SvelteKit's dev server"],
    ['parcel src/index.html', "Parcel's dev server"],
    ['nodemon --exec ts-node src/index.ts', 'a restart-on-change watcher'],
    ['ts-node-dev --respawn src/index.ts', 'a restart-on-change watcher'],
    ['gatsby develop', "Gatsby's dev server"],
    ['docusaurus start', "Docusaurus's dev server"],
    ['vue-cli-service serve', "Vue CLI's dev server"],
    ['cross-env NODE_ENV=development npx webpack serve', 'the webpack dev server'],
    ['npm run dev', "Vite's dev server"],
    ['concurrently "npm:api" "vite"', "Vite's dev server"],
  ])('is never the production server: %s', async (start, what) => {
    // A server library and no framework rule: before, any start script made this a server.
    const bp = await detect({
      'package.json': {
        name: 'x',
        scripts: { start, dev: 'vite', api: 'node api.js' },
        dependencies: { express: '^5' },
      },
    });
    expect(bp.start).toBeNull();
    expect(bp.kind).toBe('unknown');
    const note = bp.decisions.find((d) => d.field === 'start' && d.value === 'dev server');
    expect(note?.rule).toContain(what);
    expect(note?.rule).toContain('never used as the production server');
    expect(decision(bp, 'kind').rule).toContain('the "start" script runs a dev server');
  });

  it('runs the file a nodemon or node --watch start restarts with plain node', async () => {
    for (const start of ['nodemon server.js', 'node --watch server.js', 'npm run dev']) {
      const bp = await detect({
        'package.json': {
          name: 'api',
          scripts: { start, dev: 'nodemon -w src server.js' },
          dependencies: { express: '^5' },
        },
      });
      expect(bp, start).toMatchObject({ kind: 'server', framework: 'express', start: ['node', 'server.js'] });
      expect(decision(bp, 'start').rule).toMatch(/: Forge runs the same file with node server\.js$/);
    }
  });

  it('uses start:prod when start is a watcher, as Nest projects have it', async () => {
    const bp = await detect({
      'package.json': {
        name: 'api',
        scripts: { build: 'nest build', start: 'nest start --watch', 'start:prod': 'node dist/main' },
        dependencies: { '@nestjs/core': '^11' },
      },
    });
    expect(bp).toMatchObject({ kind: 'server', framework: 'nest', start: ['npm', 'run', 'start:prod'] });
    expect(decision(bp, 'start').rule).toContain('"start:prod" script: node dist/main');
  });

  it('keeps nest start, node server.js and fastify start as production servers', async () => {
    for (const [dep, start] of [
      ['@nestjs/core', 'nest start'],
      ['express', 'node server.js'],
      ['fastify', 'fastify start -l info app.js'],
    ] as const) {
      const bp = await detect({
        'package.json': { name: 'x', scripts: { start }, dependencies: { [dep]: '*' } },
      });
      expect(bp, start).toMatchObject({ kind: 'server', start: ['npm', 'run', 'start'] });
    }
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
