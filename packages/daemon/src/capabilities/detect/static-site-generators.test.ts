import { describe, expect, it } from 'vitest';
import { detectBlueprint } from './detect-blueprint.ts';
import { devServerIn } from './dev-servers.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();
const detect = async (tree: ProjectTree, app?: string) =>
  detectBlueprint(await makeProject(tree), app ? { app } : {});

const pkg = (devDependencies: Record<string, string>, scripts: Record<string, string> = {}, extra = {}) => ({
  name: 'site',
  private: true,
  scripts,
  devDependencies,
  ...extra,
});

describe('VitePress', () => {
  it('builds the root its script names into <root>/.vitepress/dist (the template `npx vitepress init` writes)', async () => {
    const bp = await detect({
      'package.json': pkg(
        { vitepress: '^1.6.4' },
        {
          'docs:dev': 'vitepress dev docs',
          'docs:build': 'vitepress build docs',
          'docs:preview': 'vitepress preview docs',
        },
      ),
      'docs/.vitepress/config.mts': "export default { title: 'Docs' }",
      'docs/index.md': '# Hello',
    });
    expect(bp).toMatchObject({
      framework: 'vitepress',
      kind: 'static-build',
      outputDir: 'docs/.vitepress/dist',
      build: ['npm', 'run', 'docs:build'],
      start: null,
    });
    expect(decision(bp, 'build').rule).toBe(
      '"docs:build" script: vitepress build docs (it builds the VitePress site)',
    );
    expect(decision(bp, 'outputDir')).toMatchObject({
      file: 'docs/.vitepress/config.mts',
      rule: "no outDir in docs/.vitepress/config.mts: VitePress's default docs/.vitepress/dist/",
    });
  });

  it("uses its netlify.toml's command and publish folder when the project states neither", async () => {
    const bp = await detect({
      'package.json': pkg({ vitepress: '^1.6.4', vue: '^3.5.0' }, { 'docs:build': 'vitepress build' }),
      '.vitepress/config.ts': "export default { title: 'Site', vite: { build: { outDir: 'nope' } } }",
      'netlify.toml': '[build]\n  command = "npm run docs:build"\n  publish = ".vitepress/dist"\n',
      'index.md': '# Hi',
    });
    expect(bp).toMatchObject({
      framework: 'vitepress',
      outputDir: '.vitepress/dist',
      build: ['npm', 'run', 'docs:build'],
    });
    expect(decision(bp, 'build')).toMatchObject({
      file: 'netlify.toml',
      rule: expect.stringContaining('build.command = "npm run docs:build" in netlify.toml'),
    });
    // The config names no outDir (Vite's nested one is not VitePress's): the deploy config says where.
    expect(decision(bp, 'outputDir')).toMatchObject({
      value: '.vitepress/dist',
      file: 'netlify.toml',
      rule: expect.stringContaining('build.publish = ".vitepress/dist" in netlify.toml'),
    });
  });

  it('reads outDir relative to the VitePress root, and says where a deploy config disagrees', async () => {
    const bp = await detect({
      'package.json': pkg({ vitepress: '^1.6.4' }, { build: 'vitepress build docs' }),
      'docs/.vitepress/config.js': "export default defineConfig({ outDir: '../public', title: 'x' })",
      'vercel.json': JSON.stringify({ outputDirectory: 'docs/.vitepress/dist' }),
    });
    expect(bp.outputDir).toBe('public');
    expect(decision(bp, 'outputDir')).toMatchObject({ file: 'docs/.vitepress/config.js' });
    expect(decision(bp, 'deployConfig')).toMatchObject({
      value: 'docs/.vitepress/dist',
      file: 'vercel.json',
      rule: expect.stringContaining('differs from the planned public/'),
    });
  });

  it('is not a site for a theme package that only names VitePress as a peer', async () => {
    const bp = await detect({
      'package.json': { name: 'theme', scripts: { build: 'tsup' }, peerDependencies: { vitepress: '^1' } },
    });
    expect(bp.framework).not.toBe('vitepress');
  });
});

describe('VuePress', () => {
  it.each([
    ['VuePress 1', { vuepress: '^1.9.10' }, 'docs/.vuepress/config.js', "module.exports = { title: 'v1' }"],
    [
      'VuePress 2',
      {
        vuepress: '2.0.0-rc.24',
        '@vuepress/bundler-vite': '2.0.0-rc.24',
        '@vuepress/theme-default': '2.0.0-rc.112',
      },
      'docs/.vuepress/config.ts',
      'export default defineUserConfig({ bundler: viteBundler(), theme: defaultTheme() })',
    ],
  ])('%s builds `vuepress build docs` into docs/.vuepress/dist', async (_label, deps, config, text) => {
    const bp = await detect({
      'package.json': pkg(deps, { 'docs:dev': 'vuepress dev docs', 'docs:build': 'vuepress build docs' }),
      [config]: text,
      'docs/README.md': '# Hello',
    });
    expect(bp).toMatchObject({
      framework: 'vuepress',
      kind: 'static-build',
      outputDir: 'docs/.vuepress/dist',
      build: ['npm', 'run', 'docs:build'],
    });
  });

  it('takes `dest` from the config (from the working folder) and --dest from the script', async () => {
    const config = await detect({
      'package.json': pkg({ vuepress: '^1.9.10' }, { build: 'vuepress build docs' }),
      'docs/.vuepress/config.js': "module.exports = { dest: 'site', themeConfig: { nav: [] } }",
    });
    expect(config.outputDir).toBe('site');
    const flag = await detect({
      'package.json': pkg({ vuepress: '^1.9.10' }, { build: 'vuepress build src -d out' }),
      'src/.vuepress/config.js': "module.exports = { dest: 'site' }",
    });
    expect(flag).toMatchObject({ outputDir: 'out' });
    expect(decision(flag, 'outputDir').rule).toContain('vuepress build src -d out');
  });

  it('lets an app folder write elsewhere in the project (dest: "../../vuepress")', async () => {
    const bp = await detect({
      'package.json': { name: 'repo', private: true, workspaces: ['packages/*'] },
      'packages/docs/package.json': pkg({ vuepress: '^1.9.10' }, { build: 'vuepress build docs' }),
      'packages/docs/docs/.vuepress/config.js': "module.exports = { dest: '../../vuepress' }",
    });
    expect(bp).toMatchObject({ framework: 'vuepress', appDir: 'packages/docs', outputDir: 'vuepress' });
  });

  it('is not a site for a plugin that depends on @vuepress/core', async () => {
    const bp = await detect({
      'package.json': { name: 'plugin', main: 'index.js', dependencies: { '@vuepress/core': '^1' } },
    });
    expect(bp.framework).toBe('unknown');
  });
});

describe('Docusaurus, Gatsby, Eleventy', () => {
  it('Docusaurus writes build/, or --out-dir (from the site folder)', async () => {
    const plain = await detect({
      'package.json': pkg(
        { '@docusaurus/core': '3.9.2' },
        { start: 'docusaurus start', build: 'docusaurus build' },
      ),
    });
    expect(plain).toMatchObject({
      framework: 'docusaurus',
      outputDir: 'build',
      build: ['npm', 'run', 'build'],
    });
    const flagged = await detect({
      'package.json': pkg(
        { '@docusaurus/core': '3.9.2' },
        { build: 'docusaurus build website --out-dir ../site' },
      ),
    });
    expect(flagged.outputDir).toBe('site');
  });

  it('Gatsby writes public/; a deploy config that says otherwise is followed (its build may move it)', async () => {
    const bp = await detect({
      'package.json': pkg({ gatsby: '^5.15.0' }, { build: 'gatsby build', develop: 'gatsby develop' }),
    });
    expect(bp).toMatchObject({ framework: 'gatsby', outputDir: 'public', build: ['npm', 'run', 'build'] });
    expect(decision(bp, 'outputDir').rule).toBe('Gatsby always builds to public/');
    const moved = await detect({
      'package.json': pkg({ gatsby: '^5.15.0' }, { build: 'gatsby build && mv public site' }),
      'firebase.json': JSON.stringify({ hosting: { public: 'site', ignore: ['firebase.json'] } }),
    });
    expect(moved.outputDir).toBe('site');
    expect(decision(moved, 'outputDir')).toMatchObject({
      file: 'firebase.json',
      rule: expect.stringContaining('hosting.public'),
    });
  });

  it.each([
    [
      '.eleventy.js (returned dir.output)',
      '.eleventy.js',
      'module.exports = function (c) { return { dir: { input: "src", output: "dist" } }; };',
      'dist',
    ],
    [
      'eleventy.config.js (exported config)',
      'eleventy.config.js',
      'export default function (c) {}\nexport const config = { dir: { input: "content", output: "_site" } };',
      '_site',
    ],
    [
      'setOutputDirectory (Eleventy 3)',
      'eleventy.config.mjs',
      'export default function (c) { c.setOutputDirectory("www"); }',
      'www',
    ],
  ])('Eleventy reads %s', async (_label, file, text, out) => {
    const bp = await detect({
      'package.json': pkg(
        { '@11ty/eleventy': '^3.1.2' },
        { build: 'npx @11ty/eleventy', start: 'npx @11ty/eleventy --serve' },
      ),
      [file]: text,
    });
    expect(bp).toMatchObject({ framework: 'eleventy', outputDir: out, build: ['npm', 'run', 'build'] });
    expect(decision(bp, 'outputDir').file).toBe(file);
  });

  it('Eleventy takes --output from the script that builds, through npm-run-all', async () => {
    const bp = await detect({
      'package.json': pkg(
        { '@11ty/eleventy': '^3.1.2', 'npm-run-all': '^4.1.5' },
        {
          build: 'run-s build:*',
          'build:css': 'sass a.scss b.css',
          'build:site': 'eleventy --output=public',
        },
      ),
    });
    expect(bp.outputDir).toBe('public');
  });
});

describe('Hexo, Slidev, Rspress', () => {
  it('Hexo generates into public_dir of _config.yml', async () => {
    const bp = await detect({
      'package.json': {
        name: 'hexo-site',
        private: true,
        scripts: { build: 'hexo generate', server: 'hexo server' },
        dependencies: { hexo: '^7.3.0', 'hexo-renderer-marked': '^7.0.0' },
      },
      '_config.yml': 'title: Hexo\npublic_dir: site\nsource_dir: source\n',
    });
    expect(bp).toMatchObject({ framework: 'hexo', outputDir: 'site', build: ['npm', 'run', 'build'] });
    expect(decision(bp, 'outputDir')).toMatchObject({ file: '_config.yml' });
  });

  it('Slidev builds slides.md into dist/, or --out', async () => {
    const bp = await detect({
      'package.json': pkg(
        { '@slidev/cli': '^52.0.0' },
        { dev: 'slidev --open', build: 'slidev build', export: 'slidev export' },
      ),
      'slides.md': '# Hi',
    });
    expect(bp).toMatchObject({
      framework: 'slidev',
      outputDir: 'dist',
      build: ['npm', 'run', 'build'],
      start: null,
    });
    const out = await detect({
      'package.json': pkg({ '@slidev/cli': '^52.0.0' }, { build: 'slidev build --out talk' }),
    });
    expect(out.outputDir).toBe('talk');
  });

  it('Rspress writes doc_build/, or outDir of rspress.config', async () => {
    const plain = await detect({ 'package.json': pkg({ rspress: '^1.45.0' }, { build: 'rspress build' }) });
    expect(plain).toMatchObject({ framework: 'rspress', outputDir: 'doc_build' });
    const set = await detect({
      'package.json': pkg({ '@rspress/core': '^2.0.0' }, { build: 'rspress build' }),
      'rspress.config.ts':
        "export default defineConfig({ root: 'docs', outDir: 'site', builderConfig: { output: { distPath: { root: 'x' } } } })",
    });
    expect(set.outputDir).toBe('site');
  });
});

describe('Expo (web)', () => {
  const expoApp = (scripts: Record<string, string>, web: object = {}) => ({
    'package.json': {
      name: 'expo-app',
      main: 'index.ts',
      scripts,
      dependencies: {
        expo: '~54.0.0',
        react: '19.1.0',
        'react-dom': '19.1.0',
        'react-native': '0.81.5',
        'react-native-web': '^0.21.0',
      },
    },
    'app.json': JSON.stringify({ expo: { name: 'expo-app', slug: 'expo-app', web } }),
  });

  it('exports the web app with `expo export --platform web` into dist/; `expo start` is a dev server', async () => {
    const bp = await detect(expoApp({ start: 'expo start', web: 'expo start --web' }, { output: 'static' }));
    expect(bp).toMatchObject({
      framework: 'expo-web',
      kind: 'static-build',
      outputDir: 'dist',
      build: ['npm', 'exec', '--no', '--', 'expo', 'export', '--platform', 'web'],
      start: null,
    });
    expect(decision(bp, 'framework')).toMatchObject({
      file: 'app.json',
      rule: expect.stringContaining('expo.web.output "static"'),
    });
  });

  it('uses the script that exports for the web, and its --output-dir', async () => {
    const bp = await detect(
      expoApp({ start: 'expo start', 'build:web': 'expo export -p web --output-dir web-dist' }),
    );
    expect(bp).toMatchObject({ outputDir: 'web-dist', build: ['npm', 'run', 'build:web'] });
    const legacy = await detect(expoApp({ 'build:web': 'expo export:web' }));
    expect(legacy.outputDir).toBe('web-build');
  });

  it('says an Expo app without react-native-web has no web build', async () => {
    const bp = await detect({
      'package.json': {
        name: 'native',
        scripts: { start: 'expo start' },
        dependencies: { expo: '~54.0.0', 'react-native': '0.81.5' },
      },
    });
    expect(bp).toMatchObject({ framework: 'expo', kind: 'unknown' });
    expect(decision(bp, 'kind').rule).toContain('no web build');
  });
});

describe('Storybook', () => {
  it('is the site of a component library (exports, no page of its own)', async () => {
    const bp = await detect({
      'package.json': pkg(
        { storybook: '^9.1.0', '@storybook/react-vite': '^9.1.0', vite: '^7.0.0', typescript: '^5.9.0' },
        {
          build: 'tsc -p tsconfig.build.json',
          storybook: 'storybook dev -p 6006',
          'build-storybook': 'storybook build',
        },
        { main: 'dist/index.js', types: 'dist/index.d.ts' },
      ),
      '.storybook/main.ts':
        "export default { framework: '@storybook/react-vite', stories: ['../src/**/*.stories.tsx'] }",
    });
    expect(bp).toMatchObject({
      framework: 'storybook',
      kind: 'static-build',
      outputDir: 'storybook-static',
      build: ['npm', 'run', 'build-storybook'],
    });
    expect(decision(bp, 'framework').rule).toContain('component library');
  });

  it('takes -o / --output-dir', async () => {
    const bp = await detect({
      'package.json': pkg(
        { storybook: '^8.6.0' },
        { 'build-storybook': 'storybook build -o docs/storybook' },
        { main: 'x.js' },
      ),
      '.storybook/main.js': 'module.exports = {}',
    });
    expect(bp.outputDir).toBe('docs/storybook');
  });

  it('never wins beside an app in the same package', async () => {
    const bp = await detect({
      'package.json': pkg(
        { storybook: '^9.1.0', '@storybook/react-vite': '^9.1.0', vite: '^7.0.0', react: '^19.0.0' },
        { dev: 'vite', build: 'vite build', 'build-storybook': 'storybook build' },
      ),
      'index.html': '<div id="root"></div>',
      '.storybook/main.ts': 'export default {}',
    });
    expect(bp).toMatchObject({ framework: 'vite', outputDir: 'dist', build: ['npm', 'run', 'build'] });
  });

  it('never wins over an app of the workspace', async () => {
    const bp = await detect({
      'package.json': { name: 'repo', private: true, workspaces: ['apps/*', 'packages/*'] },
      'apps/web/package.json': pkg({ vite: '^7.0.0' }, { build: 'vite build' }),
      'apps/web/index.html': '<div></div>',
      'packages/ui/package.json': pkg(
        { storybook: '^9.1.0' },
        { 'build-storybook': 'storybook build' },
        { main: 'index.js' },
      ),
      'packages/ui/.storybook/main.js': 'module.exports = {}',
    });
    expect(bp.appDir).toBe('apps/web');
    expect(bp.apps.map((a) => `${a.dir}:${a.framework}`).sort()).toEqual([
      'apps/web:vite',
      'packages/ui:storybook',
    ]);
  });
});

describe("site generators' dev servers", () => {
  it.each([
    ['hexo server', true],
    ['hexo generate', false],
    ['slidev --open', true],
    ['slidev slides.md', true],
    ['slidev build', false],
    ['slidev export', false],
    ['docsify serve docs', true],
    ['vitepress dev docs', true],
    ['vitepress build docs', false],
    ['storybook dev -p 6006', true],
    ['expo start --web', true],
  ])('%s is a dev server: %s', (script, dev) => {
    expect(devServerIn(script, {}) !== null).toBe(dev);
  });
});
