import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliBuildResult, type Build } from '@forge/shared';
import type { ProjectFiles } from '@forge/testing';
import { makeZip } from '../build-helpers.ts';
import { RealDaemon, blueprintOf, get, json, lastDecision, page } from './harness.ts';

/**
 * Static sites as their generators and authors write them (docs/pipeline.md, detection table), built
 * by a real daemon with real installs from the npm registry: VitePress with its netlify.toml, VuePress
 * 2, Docusaurus, Gatsby, Eleventy, Hexo, Expo (web), Storybook, a webpack site whose output folder is
 * computed in its config, and a build that writes no index.html. One daemon for the file; every
 * project is uploaded up front and built side by side; each `it` awaits its own build and checks the
 * plan's evidence, the page the preview serves, and (through the built CLI) the exit code.
 */

const BUILD_TIMEOUT_MS = 540_000;
const TEST_TIMEOUT_MS = BUILD_TIMEOUT_MS + 30_000;

type Name =
  | 'vitepress'
  | 'vuepress'
  | 'docusaurus'
  | 'gatsby'
  | 'eleventy'
  | 'hexo'
  | 'expo'
  | 'storybook'
  | 'computed'
  | 'noIndex';

/** `npx vitepress init` at the root (config in .vitepress/), deployed by Netlify from .vitepress/dist. */
const vitepressSite = (): ProjectFiles => ({
  'package.json': json({
    name: 'vitepress-site',
    private: true,
    type: 'module',
    scripts: {
      'docs:dev': 'vitepress dev',
      'docs:build': 'vitepress build',
      'docs:preview': 'vitepress preview',
    },
    devDependencies: { vitepress: '1.6.4' },
  }),
  '.vitepress/config.mts': `import { defineConfig } from 'vitepress'

export default defineConfig({
  title: "Forge Docs",
  description: "A VitePress site",
  themeConfig: { nav: [{ text: 'Home', link: '/' }, { text: 'Guide', link: '/guide' }] }
})
`,
  'index.md': '---\nlayout: home\nhero:\n  name: "Forge Docs"\n  text: "Built where VitePress writes"\n---\n',
  'guide.md': '# Guide\n\nEverything about the guide page.\n',
  'netlify.toml': '[build]\n  command = "npm run docs:build"\n  publish = ".vitepress/dist"\n',
  '.gitignore': 'node_modules\n.vitepress/dist\n.vitepress/cache\n',
});

/** VuePress 2 with the Vite bundler and the default theme, sources in docs/. */
const vuepressSite = (): ProjectFiles => ({
  'package.json': json({
    name: 'vuepress-site',
    private: true,
    type: 'module',
    scripts: { 'docs:dev': 'vuepress dev docs', 'docs:build': 'vuepress build docs' },
    devDependencies: {
      vuepress: '2.0.0-rc.30',
      '@vuepress/bundler-vite': '2.0.0-rc.30',
      '@vuepress/theme-default': '2.0.0-rc.132',
      'sass-embedded': '1.100.0',
      vue: '3.5.40',
    },
  }),
  'docs/.vuepress/config.js': `import { viteBundler } from '@vuepress/bundler-vite'
import { defaultTheme } from '@vuepress/theme-default'
import { defineUserConfig } from 'vuepress'

export default defineUserConfig({
  lang: 'en-US',
  title: 'VuePress on Forge',
  bundler: viteBundler(),
  theme: defaultTheme(),
})
`,
  'docs/README.md': '# Hello VuePress\n\nA page VuePress 2 renders.\n',
});

/** Docusaurus with only its pages plugin (no theme): the smallest site it builds. */
const docusaurusSite = (): ProjectFiles => ({
  'package.json': json({
    name: 'docusaurus-site',
    private: true,
    scripts: { start: 'docusaurus start', build: 'docusaurus build', serve: 'docusaurus serve' },
    dependencies: {
      '@docusaurus/core': '3.10.2',
      '@docusaurus/plugin-content-pages': '3.10.2',
      react: '19.2.0',
      'react-dom': '19.2.0',
    },
  }),
  'docusaurus.config.js': `export default {
  title: 'Docusaurus on Forge',
  url: 'https://example.com',
  baseUrl: '/',
  onBrokenLinks: 'throw',
  plugins: ['@docusaurus/plugin-content-pages'],
};
`,
  'src/pages/index.js': `import React from 'react';

export default function Home() {
  return <main><h1>Docusaurus on Forge</h1><p>Pages by the content-pages plugin.</p></main>;
}
`,
});

/** Gatsby's "hello world" starter, trimmed to its one page. */
const gatsbySite = (): ProjectFiles => ({
  'package.json': json({
    name: 'gatsby-site',
    private: true,
    scripts: {
      develop: 'gatsby develop',
      start: 'gatsby develop',
      build: 'gatsby build',
      serve: 'gatsby serve',
    },
    dependencies: { gatsby: '5.16.1', react: '18.3.1', 'react-dom': '18.3.1' },
    // sharp 0.32 (gatsby-sharp's) downloads libvips from GitHub at install; 0.33 ships it on npm.
    overrides: { sharp: '0.33.5' },
  }),
  'gatsby-config.js': "module.exports = { siteMetadata: { title: 'Gatsby on Forge' }, plugins: [] };\n",
  'src/pages/index.js': `import * as React from "react"

export default function Home() {
  return <main><h1>Hello from Gatsby</h1><p>Built into public/.</p></main>
}

export const Head = () => <title>Gatsby on Forge</title>
`,
});

/** Eleventy writing to dist/ (its .eleventy.js says so). */
const eleventySite = (): ProjectFiles => ({
  'package.json': json({
    name: 'eleventy-site',
    private: true,
    scripts: { build: 'npx @11ty/eleventy', start: 'npx @11ty/eleventy --serve' },
    devDependencies: { '@11ty/eleventy': '3.1.8' },
  }),
  '.eleventy.js': `module.exports = function (eleventyConfig) {
  return { dir: { input: "src", output: "dist" } };
};
`,
  'src/index.md': '---\ntitle: Eleventy on Forge\n---\n# Eleventy on Forge\n\nWritten to dist/.\n',
  'src/about.md': '# About\n',
});

/** A Hexo blog with a theme of its own (two EJS layouts). */
const hexoSite = (): ProjectFiles => ({
  'package.json': json({
    name: 'hexo-site',
    version: '0.0.0',
    private: true,
    scripts: { build: 'hexo generate', clean: 'hexo clean', server: 'hexo server' },
    hexo: { version: '8.1.2' },
    dependencies: {
      hexo: '8.1.2',
      'hexo-generator-index': '4.0.0',
      'hexo-renderer-ejs': '2.0.0',
      'hexo-renderer-marked': '7.0.1',
    },
  }),
  '_config.yml':
    'title: Hexo on Forge\nurl: http://example.com\ntheme: mini\nsource_dir: source\npublic_dir: public\n',
  'themes/mini/layout/layout.ejs':
    '<!doctype html><html><head><title><%= config.title %></title></head><body><%- body %></body></html>\n',
  'themes/mini/layout/index.ejs':
    '<h1><%= config.title %></h1><% page.posts.each(function (post) { %><article><%- post.content %></article><% }) %>\n',
  'themes/mini/layout/post.ejs': '<article><%- page.content %></article>\n',
  'source/_posts/hello.md': '---\ntitle: Hello\n---\nA post Hexo rendered.\n',
});

/** `create-expo-app --template blank` with web support (single-page web output). */
const expoApp = (): ProjectFiles => ({
  'package.json': json({
    name: 'expo-web-app',
    version: '1.0.0',
    main: 'index.js',
    scripts: {
      start: 'expo start',
      android: 'expo start --android',
      ios: 'expo start --ios',
      web: 'expo start --web',
    },
    dependencies: {
      expo: '54.0.38',
      '@expo/metro-runtime': '6.1.2',
      react: '19.1.0',
      'react-dom': '19.1.0',
      'react-native': '0.81.5',
      'react-native-web': '0.21.2',
    },
    private: true,
  }),
  'app.json': json({
    expo: {
      name: 'expo-web-app',
      slug: 'expo-web-app',
      platforms: ['web'],
      web: { output: 'single', bundler: 'metro' },
    },
  }),
  'index.js':
    "import { registerRootComponent } from 'expo';\nimport App from './App';\n\nregisterRootComponent(App);\n",
  'App.js': `import { Text, View } from 'react-native';

export default function App() {
  return (
    <View>
      <Text>Expo web on Forge</Text>
    </View>
  );
}
`,
});

/** A small HTML component library whose site is its Storybook (`build` is the library's own). */
const storybookLibrary = (): ProjectFiles => ({
  'package.json': json({
    name: 'forge-buttons',
    version: '1.0.0',
    type: 'module',
    main: 'src/button.js',
    scripts: {
      build: 'node -e "console.log(\'library: nothing to compile\')"',
      storybook: 'storybook dev -p 6006',
      'build-storybook': 'storybook build',
    },
    devDependencies: { storybook: '9.1.8', '@storybook/html-vite': '9.1.8', vite: '7.1.12' },
  }),
  '.storybook/main.js':
    "export default { framework: '@storybook/html-vite', stories: ['../src/**/*.stories.js'] };\n",
  'src/button.js':
    "export const createButton = ({ label }) => {\n  const b = document.createElement('button');\n  b.innerText = label;\n  return b;\n};\n",
  'src/button.stories.js': `import { createButton } from './button.js';

export default { title: 'Forge/Button', render: (args) => createButton(args) };
export const Primary = { args: { label: 'Forge button' } };
`,
});

/** webpack writing to dist/<target>, the folder computed from the environment in its config. */
const computedOutput = (): ProjectFiles => ({
  'package.json': json({
    name: 'computed-output',
    private: true,
    scripts: { build: 'webpack --mode production' },
    devDependencies: { webpack: '5.113.0', 'webpack-cli': '6.0.1', 'html-webpack-plugin': '5.6.8' },
  }),
  'webpack.config.js': `const path = require('path');
const HtmlWebpackPlugin = require('html-webpack-plugin');

module.exports = {
  entry: './src/index.js',
  output: { path: path.resolve(__dirname, 'dist', process.env.DEPLOY_TARGET || 'web'), filename: 'main.js' },
  plugins: [new HtmlWebpackPlugin({ title: 'Computed output on Forge' })],
};
`,
  'src/index.js': "document.body.append('Rendered from dist/web');\n",
});

/** A build that writes pages, none of them index.html. */
const noIndexSite = (): ProjectFiles => ({
  'package.json': json({
    name: 'no-index',
    private: true,
    scripts: {
      build:
        "node -e \"const fs=require('fs');fs.mkdirSync('dist/blog',{recursive:true});fs.writeFileSync('dist/about.html','<h1>About</h1>');fs.writeFileSync('dist/blog/post.html','<p>post</p>')\"",
    },
  }),
});

let daemon: RealDaemon;
const builds = {} as Record<Name, Promise<Build>>;
/** `forge upload x.zip --wait --json` of two projects: the exit code and the JSON answer. */
const cli = {} as Record<'vitepress' | 'noIndex', Promise<{ code: number | null; json: CliBuildResult }>>;
const started = Date.now();

beforeAll(async () => {
  // Builds side by side: every project at once.
  daemon = await RealDaemon.start('static-sites', {
    buildTimeoutMs: BUILD_TIMEOUT_MS,
    settings: { maxConcurrentBots: 10 },
  });
  const viaCli = (key: 'vitepress' | 'noIndex', zipName: string, files: ProjectFiles): void => {
    const run = daemon.forge(['upload', makeZip(zipName, files), '--wait', '--json', '--timeout', '9m']);
    cli[key] = run.then(({ code, stdout, stderr }) => {
      const parsed = CliBuildResult.safeParse(JSON.parse(stdout || 'null'));
      if (!parsed.success) {
        throw new Error(`forge upload exited ${code} without its JSON answer:\n${stdout}\n${stderr}`);
      }
      return { code, json: parsed.data };
    });
    cli[key].catch(() => undefined);
    builds[key] = daemon.buildOf(run);
    builds[key].catch(() => undefined);
  };
  // The heaviest installs first, so the light ones fill the gaps.
  builds.expo = daemon.build('expo-web-app.zip', expoApp());
  builds.gatsby = daemon.build('gatsby-site.zip', gatsbySite());
  builds.docusaurus = daemon.build('docusaurus-site.zip', docusaurusSite());
  builds.storybook = daemon.build('forge-buttons.zip', storybookLibrary());
  builds.vuepress = daemon.build('vuepress-site.zip', vuepressSite());
  viaCli('vitepress', 'vitepress-site.zip', vitepressSite());
  builds.computed = daemon.build('computed-output.zip', computedOutput());
  builds.eleventy = daemon.build('eleventy-site.zip', eleventySite());
  builds.hexo = daemon.build('hexo-site.zip', hexoSite());
  viaCli('noIndex', 'no-index.zip', noIndexSite());
}, 120_000);

afterAll(async () => {
  const settled = await Promise.allSettled(Object.values(builds));
  process.stdout.write(
    `static sites: ${settled.length} builds finished ${Math.round((Date.now() - started) / 1000)} s after the daemon started\n`,
  );
  await daemon.stop();
}, 180_000);

const succeeded = (name: Name) => daemon.ended(builds[name]);
const planOf = (name: Name) => blueprintOf(builds[name]);
const logLines = (build: Build) => daemon.logLines(build);
const last = lastDecision;

/** The page's own scripts, fetched from the preview, joined. */
async function scriptsOf(build: Build, html: string): Promise<string> {
  const sources = [...html.matchAll(/<script[^>]*\ssrc=["']?([^"'\s>]+\.js)/g)].map((m) => m[1]!);
  expect(sources.length).toBeGreaterThan(0);
  const bodies = await Promise.all(
    sources.map(async (src) => (await get(new URL(src, build.previewUrl!))).body),
  );
  return bodies.join('\n');
}

describe('static sites as their authors keep them', { timeout: TEST_TIMEOUT_MS }, () => {
  it('VitePress: built with its netlify.toml command into .vitepress/dist, and `forge upload --wait` exits 0', async () => {
    const { code, json } = await cli.vitepress;
    expect(json).toMatchObject({ status: 'succeeded' });
    expect(code).toBe(0);
    const bp = await planOf('vitepress');
    expect(bp).toMatchObject({ framework: 'vitepress', kind: 'static-build', outputDir: '.vitepress/dist' });
    expect(last(bp, 'build')).toMatchObject({
      file: 'netlify.toml',
      rule: expect.stringContaining('build.command = "npm run docs:build" in netlify.toml'),
    });
    expect(last(bp, 'outputDir')).toMatchObject({
      value: '.vitepress/dist',
      file: 'netlify.toml',
      rule: expect.stringContaining('build.publish = ".vitepress/dist"'),
    });
    const build = await succeeded('vitepress');
    expect(await page(build)).toContain('Built where VitePress writes');
    expect(await page(build, '/guide.html')).toContain('Everything about the guide page.');
  });

  it('VuePress 2: `vuepress build docs` into docs/.vuepress/dist', async () => {
    const bp = await planOf('vuepress');
    expect(bp).toMatchObject({
      framework: 'vuepress',
      outputDir: 'docs/.vuepress/dist',
      build: ['npm', 'run', 'docs:build'],
    });
    expect(last(bp, 'build')?.rule).toContain('"docs:build" script: vuepress build docs');
    const build = await succeeded('vuepress');
    expect(await page(build)).toContain('A page VuePress 2 renders.');
  });

  it('Docusaurus: build/', async () => {
    const bp = await planOf('docusaurus');
    expect(bp).toMatchObject({
      framework: 'docusaurus',
      outputDir: 'build',
      build: ['npm', 'run', 'build'],
      start: null,
    });
    const build = await succeeded('docusaurus');
    expect(await page(build)).toContain('Pages by the content-pages plugin.');
  });

  it('Gatsby: public/, its `gatsby develop` start never run', async () => {
    const bp = await planOf('gatsby');
    expect(bp).toMatchObject({ framework: 'gatsby', outputDir: 'public', start: null });
    expect(last(bp, 'outputDir')?.rule).toBe('Gatsby always builds to public/');
    const build = await succeeded('gatsby');
    expect(await page(build)).toContain('Hello from Gatsby');
  });

  it('Eleventy: dir.output of .eleventy.js', async () => {
    const bp = await planOf('eleventy');
    expect(bp).toMatchObject({ framework: 'eleventy', outputDir: 'dist' });
    expect(last(bp, 'outputDir')).toMatchObject({
      file: '.eleventy.js',
      rule: 'dir.output: "dist" in .eleventy.js',
    });
    const build = await succeeded('eleventy');
    expect(await page(build)).toContain('Written to dist/.');
  });

  it('Hexo: `hexo generate` into public_dir', async () => {
    const bp = await planOf('hexo');
    expect(bp).toMatchObject({ framework: 'hexo', outputDir: 'public' });
    expect(last(bp, 'outputDir')).toMatchObject({ file: '_config.yml' });
    const build = await succeeded('hexo');
    const html = await page(build);
    expect(html).toContain('Hexo on Forge');
    expect(html).toContain('A post Hexo rendered.');
  });

  it('Expo: `expo export --platform web` into dist/, `expo start` never run', async () => {
    const bp = await planOf('expo');
    expect(bp).toMatchObject({
      framework: 'expo-web',
      kind: 'static-build',
      outputDir: 'dist',
      build: ['npm', 'exec', '--no', '--', 'expo', 'export', '--platform', 'web'],
      start: null,
    });
    const build = await succeeded('expo');
    const html = await page(build);
    expect(await scriptsOf(build, html)).toContain('Expo web on Forge');
  });

  it("Storybook: a component library's site is its Storybook, built to storybook-static/", async () => {
    const bp = await planOf('storybook');
    expect(bp).toMatchObject({
      framework: 'storybook',
      outputDir: 'storybook-static',
      build: ['npm', 'run', 'build-storybook'],
    });
    expect(last(bp, 'framework')?.rule).toContain('component library');
    const build = await succeeded('storybook');
    expect(await page(build)).toMatch(/storybook/i);
    const index = await get(new URL('/index.json', build.previewUrl!));
    expect(index.body).toContain('forge-button--primary');
  });

  it('a webpack output folder computed from the environment is found where the build wrote it', async () => {
    const bp = await planOf('computed');
    // Planned: webpack's default, as the config's folder is computed; recorded: where it was found.
    expect(bp.decisions.find((d) => d.field === 'outputDir')).toMatchObject({
      value: 'dist',
      file: 'webpack.config.js',
      rule: expect.stringContaining('computed'),
    });
    const build = await succeeded('computed');
    // The record's plan says where the output was found, with the index.html as evidence.
    expect(build.blueprint?.outputDir).toBe('dist/web');
    expect(last(build.blueprint!, 'outputDir')).toMatchObject({
      value: 'dist/web',
      file: 'dist/web/index.html',
      rule: expect.stringContaining('found after the build'),
    });
    expect(
      (await logLines(build)).some((l) => l.includes('The output is "dist/web", not the planned "dist"')),
    ).toBe(true);
    const html = await page(build);
    expect(html).toContain('<title>Computed output on Forge</title>');
    expect(await scriptsOf(build, html)).toContain('Rendered from dist/web');
  });

  it('a build that writes no index.html fails OUTPUT_NO_INDEX naming its pages, and the CLI exits 1', async () => {
    const { code, json } = await cli.noIndex;
    expect(code).toBe(1);
    expect(json).toMatchObject({ status: 'failed', error: { code: 'OUTPUT_NO_INDEX' } });
    expect(json.error?.message).toContain('It holds about.html, blog/post.html.');
    const build = await builds.noIndex;
    expect(build).toMatchObject({ status: 'failed', previewUrl: null });
  });
});
