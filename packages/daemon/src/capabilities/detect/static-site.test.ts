import { describe, expect, it } from 'vitest';
import { DecisionLog } from './decisions.ts';
import { detectBlueprint } from './detect-blueprint.ts';
import { openProject } from './project-files.ts';
import { detectStaticSite } from './static-site.ts';
import { decision, useProjects } from '../../../test/support/detect-project.ts';

const project = useProjects();

const pkg = (deps: Record<string, string>, scripts: Record<string, string> = { build: 'vite build' }) => ({
  name: 'site',
  private: true,
  scripts,
  devDependencies: deps,
});

describe('single-page app or multi-page site (plan.site.spa)', () => {
  it('a Vite app with one page is a single-page app, said with its evidence', async () => {
    const bp = await detectBlueprint(
      await project({ 'package.json': pkg({ vite: '^7.0.0' }), 'index.html': '<div id=app>' }),
    );
    expect(bp.site).toEqual({ spa: true, cleanUrls: false, trailingSlash: null, rules: [] });
    expect(decision(bp, 'spa')).toMatchObject({
      value: 'true',
      file: 'package.json',
      rule: expect.stringContaining('single-page vite app'),
    });
  });

  it('a Vite app whose rollupOptions.input names several pages is a multi-page site', async () => {
    const bp = await detectBlueprint(
      await project({
        'package.json': pkg({ vite: '^7.0.0' }),
        'index.html': '<h1>home</h1>',
        'nested/index.html': '<h1>nested</h1>',
        'vite.config.js': `import { resolve } from 'node:path'
import { defineConfig } from 'vite'
export default defineConfig({
  build: { rollupOptions: { input: { main: resolve(__dirname, 'index.html'), nested: resolve(__dirname, 'nested/index.html') } } },
})
`,
      }),
    );
    expect(bp.site?.spa).toBe(false);
    expect(decision(bp, 'spa')).toMatchObject({
      value: 'false',
      file: 'vite.config.js',
      rule: expect.stringContaining('2 html entry pages'),
    });
  });

  it('a webpack app with two HtmlWebpackPlugin pages, and a Vue CLI app with `pages`, are multi-page', async () => {
    const webpack = await detectBlueprint(
      await project({
        'package.json': pkg(
          { webpack: '^5.0.0', 'webpack-cli': '^6.0.0' },
          { build: 'webpack --mode production' },
        ),
        'webpack.config.js':
          "module.exports = { plugins: [new HtmlWebpackPlugin({ filename: 'index.html' }), new HtmlWebpackPlugin({ filename: 'about.html' })] };",
      }),
    );
    expect(webpack).toMatchObject({ framework: 'webpack', site: { spa: false } });
    expect(decision(webpack, 'spa').file).toBe('webpack.config.js');
    const vue = await detectBlueprint(
      await project({
        'package.json': pkg({ '@vue/cli-service': '^5.0.0' }, { build: 'vue-cli-service build' }),
        'vue.config.js': "module.exports = { pages: { index: 'src/main.js', admin: 'src/admin.js' } };",
      }),
    );
    expect(vue).toMatchObject({ framework: 'vue-cli', site: { spa: false } });
  });

  it('a custom build with several pages in src/ is multi-page; Create React App stays a single-page app', async () => {
    const custom = await detectBlueprint(
      await project({
        'package.json': pkg({}, { build: 'node build.mjs' }),
        'src/index.html': 'home',
        'src/about.html': 'about',
        'src/404.html': 'not found',
      }),
    );
    expect(custom).toMatchObject({ framework: 'custom', site: { spa: false } });
    expect(decision(custom, 'spa').rule).toContain('2 .html pages in src/');
    const cra = await detectBlueprint(
      await project({
        'package.json': pkg({ 'react-scripts': '5.0.1' }, { build: 'react-scripts build' }),
        'public/index.html': 'x',
        'public/other.html': 'y',
      }),
    );
    expect(cra).toMatchObject({ framework: 'cra', site: { spa: true } });
  });

  it('a plain static site of several pages is multi-page (its 404.html is no page); of one page, a single page', async () => {
    const many = await detectBlueprint(
      await project({
        'index.html': 'home',
        'edit.html': 'edit',
        '404.html': 'nope',
        'docs/index.html': 'docs',
      }),
    );
    expect(many).toMatchObject({ kind: 'static', site: { spa: false } });
    expect(decision(many, 'spa')).toMatchObject({
      file: 'edit.html',
      rule: expect.stringContaining('2 pages'),
    });
    const one = await detectBlueprint(await project({ 'index.html': 'home', '404.html': 'nope' }));
    expect(one).toMatchObject({ kind: 'static', site: { spa: true } });
  });

  it('every static framework that is not a single-page bundler writes a page per route', async () => {
    const bp = await detectBlueprint(
      await project({ 'package.json': pkg({ '@11ty/eleventy': '^3.0.0' }, { build: 'eleventy' }) }),
    );
    expect(bp).toMatchObject({ framework: 'eleventy', site: { spa: false } });
    expect(decision(bp, 'spa').rule).toContain('eleventy writes a page per route');
    // Frameworks added later get the same answer without a change here.
    const dir = await project({ 'package.json': pkg({ vitepress: '^1.6.0' }, { build: 'vitepress build' }) });
    const log = new DecisionLog();
    const site = await detectStaticSite(
      await openProject(dir),
      { kind: 'static-build', framework: 'vitepress', outputDir: '.vitepress/dist', appDir: '.' },
      null,
      log,
    );
    expect(site?.spa).toBe(false);
    expect(log.list.at(-1)?.rule).toContain('vitepress writes a page per route');
  });

  it('a `/* /index.html 200` line in _redirects makes any site a single-page app, naming the line', async () => {
    const bp = await detectBlueprint(
      await project({
        'package.json': pkg({ '@11ty/eleventy': '^3.0.0' }, { build: 'eleventy' }),
        'src/_redirects':
          '/old  /new  301\n/*  /index.html  200\n/api/*  https://api.example.com/:splat  200\n',
      }),
    );
    expect(bp.site?.spa).toBe(true);
    expect(decision(bp, 'spa')).toMatchObject({
      value: 'true',
      file: 'src/_redirects',
      rule: expect.stringContaining('src/_redirects:2'),
    });
    // Read by the preview from the output folder: only listed here, with what cannot be applied.
    expect(bp.site?.rules).toEqual([]);
    expect(bp.decisions).toContainEqual(
      expect.objectContaining({
        field: 'siteRule',
        value: 'ignored',
        file: 'src/_redirects',
        rule: expect.stringContaining('proxies to api.example.com'),
      }),
    );
  });

  it("puts vercel.json's rules in the plan, lists what needs Vercel, and reads a rewrite of everything as a SPA", async () => {
    const bp = await detectBlueprint(
      await project({
        'package.json': pkg({ '@11ty/eleventy': '^3.0.0' }, { build: 'eleventy' }),
        'vercel.json': JSON.stringify({
          cleanUrls: true,
          redirects: [{ source: '/old', destination: '/new' }],
          rewrites: [
            { source: '/api/(.*)', destination: 'https://api.example.com/$1' },
            { source: '/(.*)', destination: '/index.html' },
          ],
        }),
      }),
    );
    expect(bp.site).toMatchObject({ spa: true, cleanUrls: true, trailingSlash: null });
    expect(bp.site?.rules.map((r) => [r.from, r.to, r.status])).toEqual([
      ['/old', '/new', 308],
      ['/:1*', '/index.html', 200],
    ]);
    expect(decision(bp, 'spa')).toMatchObject({ file: 'vercel.json' });
    expect(decision(bp, 'siteRule')).toMatchObject({
      value: 'ignored',
      rule: expect.stringContaining('vercel.json rewrites[0]'),
    });
  });

  it('has no site for a server app', async () => {
    const bp = await detectBlueprint(
      await project({
        'package.json': {
          name: 's',
          scripts: { start: 'node server.js' },
          dependencies: { express: '^5.0.0' },
        },
      }),
    );
    expect(bp.kind).toBe('server');
    expect(bp.site).toBeNull();
  });
});
