import { describe, expect, it } from 'vitest';
import type { Blueprint } from '@forge/shared';
import { expandWorkspace, rankApps } from './apps.ts';
import { BlueprintError } from './blueprint-error.ts';
import { detectBlueprint, type DetectOptions } from './detect-blueprint.ts';
import { openProject } from './project-files.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();
const detect = async (tree: ProjectTree, opts?: DetectOptions) =>
  detectBlueprint(await makeProject(tree), opts);
const others = (bp: Blueprint) => bp.decisions.filter((d) => d.field === 'otherApp');
const without = (tree: ProjectTree, file: string): ProjectTree =>
  Object.fromEntries(Object.entries(tree).filter(([name]) => name !== file));

const viteApp = (name: string, deps: Record<string, string> = {}) => ({
  name,
  private: true,
  type: 'module',
  scripts: { dev: 'vite', build: 'tsc -b && vite build', preview: 'vite preview' },
  dependencies: { react: '^19.2.0', 'react-dom': '^19.2.0', ...deps },
  devDependencies: { '@vitejs/plugin-react': '^5.1.1', vite: '^7.2.4', typescript: '~5.9.3' },
});
const library = (
  name: string,
  deps: Record<string, string> = {},
  build: string | null = 'tsup src/index.ts',
) => ({
  name,
  version: '0.0.0',
  exports: { '.': { import: './dist/index.js', types: './dist/index.d.ts' } },
  ...(build ? { scripts: { build } } : {}),
  dependencies: deps,
});

describe('a pnpm workspace', () => {
  const tree: ProjectTree = {
    'package.json': {
      name: 'mono',
      private: true,
      packageManager: 'pnpm@10.20.0',
      scripts: { build: 'turbo run build', dev: 'turbo run dev' },
      devDependencies: { turbo: '^2.6.0' },
    },
    'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  - 'packages/*'\n",
    'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    'turbo.json': '{ "tasks": { "build": { "dependsOn": ["^build"] } } }',
    'apps/web/package.json': viteApp('web', { '@repo/ui': 'workspace:*' }),
    'apps/web/index.html': '<div id="root"></div>',
    'apps/docs/package.json': {
      name: 'docs',
      private: true,
      scripts: { start: 'docusaurus start', build: 'docusaurus build' },
      dependencies: { '@docusaurus/core': '^3.9.2', '@repo/ui': 'workspace:*' },
    },
    'packages/ui/package.json': library('@repo/ui', { '@repo/tokens': 'workspace:*' }),
    'packages/tokens/package.json': library('@repo/tokens'),
    'packages/eslint-config/package.json': { name: '@repo/eslint-config', private: true, main: 'index.js' },
  };

  it('installs at the root, builds apps/web and what it depends on, and lists the other apps', async () => {
    const bp = await detect(tree);
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'vite',
      packageManager: 'pnpm',
      install: ['pnpm', 'install', '--frozen-lockfile', '--reporter=append-only'],
      // The root has turbo.json and turbo: Turborepo builds the app and what it depends on.
      build: ['pnpm', 'exec', 'turbo', 'run', 'build', '--filter=web...'],
      outputDir: 'apps/web/dist',
      appDir: 'apps/web',
      installDir: '.',
      apps: [
        { dir: 'apps/docs', name: 'docs', framework: 'docusaurus', kind: 'static-build' },
        { dir: 'apps/web', name: 'web', framework: 'vite', kind: 'static-build' },
      ],
    });
    expect(decision(bp, 'workspace')).toMatchObject({
      value: 'apps/*, packages/*',
      file: 'pnpm-workspace.yaml',
    });
    expect(decision(bp, 'app')).toMatchObject({ value: 'apps/web', file: 'apps/web/package.json' });
    expect(decision(bp, 'app').rule).toMatch(
      /^named "web", a usual name for the front-end app; build another with --app/,
    );
    expect(decision(bp, 'apps').rule).toContain(
      'packages/ui (a library: exports in its package.json and no index.html)',
    );
    expect(decision(bp, 'apps').rule).toContain('packages/eslint-config (nothing to build or serve)');
    expect(others(bp)).toEqual([
      {
        field: 'otherApp',
        value: 'apps/docs',
        file: 'apps/docs/package.json',
        rule: 'docusaurus (static-build): build it instead with --app apps/docs or "app": "apps/docs" in the forge config',
      },
    ]);
    expect(decision(bp, 'workspaceDeps')).toMatchObject({ value: '@repo/tokens, @repo/ui' });
    expect(decision(bp, 'build')).toMatchObject({ file: 'turbo.json' });
    expect(decision(bp, 'installDir')).toMatchObject({ value: '.', file: 'pnpm-workspace.yaml' });
    // The app's own evidence is named from the project root.
    expect(decision(bp, 'framework').file).toBe('apps/web/package.json');
  });

  it('builds another app when asked, by folder or package name, the option winning over the config', async () => {
    const byOption = await detect(tree, { app: './apps/docs/' });
    expect(byOption).toMatchObject({
      framework: 'docusaurus',
      appDir: 'apps/docs',
      outputDir: 'apps/docs/build',
      build: ['pnpm', 'exec', 'turbo', 'run', 'build', '--filter=docs...'],
    });
    expect(decision(byOption, 'app')).toMatchObject({
      file: null,
      rule: expect.stringMatching(/^asked for by the app option/),
    });

    const byName = await detect({ ...tree, '.forgerc.json': '{ "app": "docs" }' });
    expect(byName.appDir).toBe('apps/docs');
    expect(decision(byName, 'app')).toMatchObject({
      file: '.forgerc.json',
      rule: expect.stringMatching(/^asked for by "app" in \.forgerc\.json/),
    });

    const both = await detect({ ...tree, '.forgerc.json': '{ "app": "apps/docs" }' }, { app: 'apps/web' });
    expect(both.appDir).toBe('apps/web');
  });

  it('refuses an app that is not there, naming the apps that are', async () => {
    const dir = await makeProject(tree);
    const missing = await detectBlueprint(dir, { app: 'apps/admin' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(BlueprintError);
    expect(missing).toMatchObject({ code: 'BLUEPRINT_UNKNOWN_APP', status: 422, file: null });
    expect((missing as Error).message).toBe(
      'No app "apps/admin" in this project (the app option): there is no package.json or index.html there. ' +
        'The apps Forge found: apps/docs (docusaurus), apps/web (vite).',
    );
    const lib = await detectBlueprint(dir, { app: 'packages/ui' }).catch((e: unknown) => e);
    expect((lib as Error).message).toContain('a library: exports in its package.json');
    const outside = await detectBlueprint(dir, { app: '../elsewhere' }).catch((e: unknown) => e);
    expect((outside as Error).message).toContain('it is not a folder inside the project');
    const fromConfig = await detect({ ...tree, 'forge.config.json': '{ "app": "apps/nope" }' }).catch(
      (e: unknown) => e,
    );
    expect(fromConfig).toMatchObject({ code: 'BLUEPRINT_UNKNOWN_APP', file: 'forge.config.json' });
  });

  it('builds only the app when nothing it depends on has a build script', async () => {
    const bp = await detect({
      ...tree,
      'packages/ui/package.json': library('@repo/ui', {}, null),
    });
    expect(bp.build).toEqual(['pnpm', 'run', 'build']);
    expect(decision(bp, 'workspaceDeps').rule).toContain('none has a "build" script');
  });

  it('falls back to the root when no workspace package is an app', async () => {
    const bp = await detect({
      'package.json': {
        name: 'libs',
        private: true,
        scripts: { build: 'tsc -b' },
        workspaces: ['packages/*'],
      },
      'packages/a/package.json': library('a'),
      'packages/b/package.json': library('b'),
    });
    expect(bp).toMatchObject({ appDir: '.', installDir: '.', framework: 'custom', apps: [] });
    expect(decision(bp, 'apps')).toMatchObject({ value: 'none' });
  });
});

describe('npm and yarn workspaces', () => {
  const npmTree: ProjectTree = {
    'package.json': { name: 'acme', private: true, workspaces: ['packages/*'] },
    'package-lock.json': '{"lockfileVersion": 3}',
    'packages/client/package.json': viteApp('@acme/client', { '@acme/shared': '*' }),
    'packages/client/index.html': '<div id="root"></div>',
    'packages/shared/package.json': library('@acme/shared', { '@acme/utils': '^1.0.0' }, 'tsc'),
    'packages/utils/package.json': { ...library('@acme/utils', {}, 'tsc'), main: 'dist/index.js' },
    'packages/server/package.json': {
      name: '@acme/server',
      main: 'index.js',
      scripts: { start: 'node index.js' },
      dependencies: { express: '^5.1.0', '@acme/shared': '*' },
    },
  };

  it('npm: builds the packages the app depends on first, in dependency order, then the app', async () => {
    const bp = await detect(npmTree);
    expect(bp).toMatchObject({
      appDir: 'packages/client',
      installDir: '.',
      packageManager: 'npm',
      install: ['npm', 'ci', '--no-audit', '--no-fund'],
      build: [
        'npm',
        'run',
        'build',
        '--workspace',
        '@acme/utils',
        '--workspace',
        '@acme/shared',
        '--workspace',
        '@acme/client',
      ],
      outputDir: 'packages/client/dist',
    });
    expect(bp.apps.map((a) => a.dir)).toEqual(['packages/client', 'packages/server']);
    expect(decision(bp, 'app').rule).toMatch(/^a web app \(vite\); web apps come before/);
    expect(decision(bp, 'workspace')).toMatchObject({ file: 'package.json', value: 'packages/*' });
  });

  it('npm: a server app picked by the option starts in its folder with the workspace install', async () => {
    const bp = await detect(npmTree, { app: 'packages/server' });
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'express',
      appDir: 'packages/server',
      installDir: '.',
      start: ['npm', 'run', 'start'],
      build: null,
      outputDir: null,
    });
  });

  it('Yarn 2+: workspaces foreach from the app, dependencies first', async () => {
    const bp = await detect({
      ...without(npmTree, 'package-lock.json'),
      'package.json': {
        name: 'acme',
        private: true,
        packageManager: 'yarn@4.12.0',
        workspaces: ['packages/*'],
      },
      'yarn.lock': '__metadata:\n  version: 8\n',
    });
    expect(bp.packageManager).toBe('yarn');
    expect(bp.build).toEqual([
      'yarn',
      'workspaces',
      'foreach',
      '--recursive',
      '--topological-dev',
      '--from',
      '@acme/client',
      'run',
      'build',
    ]);
  });

  it('Yarn 1: builds with turbo when the root has it, else only the app, saying what to set', async () => {
    const yarn1 = {
      ...without(npmTree, 'package-lock.json'),
      'yarn.lock': '# yarn lockfile v1\n',
    };
    const plain = await detect(yarn1);
    expect(plain.build).toEqual(['yarn', 'run', 'build']);
    expect(decision(plain, 'build')).toMatchObject({ value: 'app only' });
    expect(decision(plain, 'build').rule).toContain('Yarn 1 cannot run a script across chosen workspaces');
    const turbo = await detect({
      ...yarn1,
      'package.json': {
        name: 'acme',
        private: true,
        workspaces: { packages: ['packages/*'] },
        devDependencies: { turbo: '^2' },
      },
      'turbo.json': '{ "tasks": { "build": { "dependsOn": ["^build"] } } }',
    });
    expect(turbo.build).toEqual(['yarn', 'run', 'turbo', 'run', 'build', '--filter=@acme/client...']);
  });
});

describe('apps in subfolders without a workspace config', () => {
  // Like bulletproof-react: three apps under apps/, each with its own yarn.lock, and a root
  // package.json with no dependencies and only a `prepare` script.
  const nextApp = (name: string) => ({
    name,
    version: '1.0.0',
    private: true,
    type: 'module',
    scripts: { dev: 'next dev', build: 'next build', start: 'next start', lint: 'next lint', test: 'vitest' },
    dependencies: { next: '^14.2.5', react: '^18.3.1', 'react-dom': '^18.3.1' },
    devDependencies: { vitest: '^2.0.5' },
  });
  const tree: ProjectTree = {
    'package.json': {
      name: 'bulletproof-react',
      private: true,
      version: '1.0.0',
      scripts: {
        prepare: 'cd ./apps/nextjs-app && yarn && cd ../nextjs-pages && yarn && cd ../react-vite && yarn',
      },
      license: 'MIT',
    },
    'docs/application-overview.md': '# Application overview',
    'apps/react-vite/package.json': {
      ...viteApp('bulletproof-react-vite'),
      scripts: { dev: 'vite', build: 'tsc && vite build --base=/', preview: 'vite preview', test: 'vitest' },
    },
    'apps/react-vite/index.html': '<div id="root"></div>',
    'apps/react-vite/vite.config.ts': "export default defineConfig({ base: './', server: { port: 3000 } });",
    'apps/react-vite/yarn.lock':
      '# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n',
    'apps/nextjs-app/package.json': nextApp('bulletproof-react-nextjs-pages'),
    'apps/nextjs-app/next.config.mjs':
      'const nextConfig = { reactStrictMode: true };\nexport default nextConfig;',
    'apps/nextjs-app/yarn.lock': '# yarn lockfile v1\n',
    'apps/nextjs-pages/package.json': nextApp('bulletproof-react-nextjs-pages'),
    'apps/nextjs-pages/next.config.mjs':
      'const nextConfig = { reactStrictMode: true };\nexport default nextConfig;',
    'apps/nextjs-pages/yarn.lock': '# yarn lockfile v1\n',
  };

  it('finds the three apps, picks one by the stated rule, and installs it in its own folder with its own lockfile', async () => {
    const bp = await detect(tree);
    expect(bp.apps).toEqual([
      { dir: 'apps/nextjs-app', name: 'bulletproof-react-nextjs-pages', framework: 'next', kind: 'server' },
      { dir: 'apps/nextjs-pages', name: 'bulletproof-react-nextjs-pages', framework: 'next', kind: 'server' },
      { dir: 'apps/react-vite', name: 'bulletproof-react-vite', framework: 'vite', kind: 'static-build' },
    ]);
    expect(bp).toMatchObject({
      appDir: 'apps/nextjs-app',
      installDir: 'apps/nextjs-app',
      packageManager: 'yarn',
      install: ['yarn', 'install', '--frozen-lockfile', '--non-interactive', '--no-progress'],
      kind: 'server',
      build: ['yarn', 'run', 'build'],
      start: ['yarn', 'run', 'start'],
    });
    expect(decision(bp, 'app').rule).toMatch(/^first in alphabetical order among equally likely apps/);
    expect(decision(bp, 'packageManager')).toMatchObject({ file: 'apps/nextjs-app/yarn.lock' });
    expect(decision(bp, 'installDir').rule).toContain(
      "the app's own folder, with its own package manager and lockfile",
    );
    expect(others(bp).map((d) => d.value)).toEqual(['apps/nextjs-pages', 'apps/react-vite']);
    expect(others(bp)[1]!.rule).toBe(
      'vite (static-build): build it instead with --app apps/react-vite or "app": "apps/react-vite" in the forge config',
    );
  });

  it('builds the app the option names, with its output from the project root', async () => {
    const bp = await detect(tree, { app: 'apps/react-vite' });
    expect(bp).toMatchObject({
      framework: 'vite',
      kind: 'static-build',
      appDir: 'apps/react-vite',
      installDir: 'apps/react-vite',
      outputDir: 'apps/react-vite/dist',
      build: ['yarn', 'run', 'build'],
    });
    expect(decision(bp, 'outputDir')).toMatchObject({ value: 'apps/react-vite/dist' });
  });

  it("applies the app's own forge config (its outputDir relative to the app), then the root's", async () => {
    const bp = await detect(
      {
        ...tree,
        'apps/react-vite/.forgerc.json': '{ "outputDir": "build", "env": { "A": "1" } }',
        '.forgerc.json': '{ "env": { "B": "2" } }',
      },
      { app: 'apps/react-vite' },
    );
    expect(bp.outputDir).toBe('apps/react-vite/build');
    expect(bp.env).toEqual({ B: '2' });
    expect(bp.decisions).toContainEqual(
      expect.objectContaining({ field: 'forgeConfig', file: 'apps/react-vite/.forgerc.json' }),
    );
  });

  it('prefers a web app over a server, and a front-end folder name, saying which rule decided', async () => {
    const bp = await detect({
      'server/package.json': {
        name: 'server',
        scripts: { start: 'node index.js' },
        dependencies: { express: '^5' },
      },
      'server/package-lock.json': '{}',
      'client/package.json': viteApp('client'),
      'client/index.html': '',
      'client/pnpm-lock.yaml': '',
    });
    expect(bp).toMatchObject({
      appDir: 'client',
      installDir: 'client',
      packageManager: 'pnpm',
      outputDir: 'client/dist',
    });
    expect(decision(bp, 'app').rule).toMatch(/^a web app \(vite\)/);

    const named = await detect({
      'admin/package.json': viteApp('admin'),
      'frontend/package.json': viteApp('frontend'),
    });
    expect(named.appDir).toBe('frontend');
    expect(decision(named, 'app').rule).toMatch(/^in frontend\/, a usual front-end folder/);
  });

  it('keeps the root when it is itself an app, and lists the apps in subfolders', async () => {
    const bp = await detect({
      'package.json': { name: 'api', scripts: { start: 'node server.js' }, dependencies: { express: '^5' } },
      'client/package.json': {
        name: 'client',
        scripts: { start: 'react-scripts start', build: 'react-scripts build' },
        dependencies: { 'react-scripts': '5.0.1' },
      },
      'client/public/index.html': '',
    });
    expect(bp).toMatchObject({ appDir: '.', installDir: '.', framework: 'express', kind: 'server' });
    expect(bp.apps.map((a) => `${a.dir}:${a.framework}`)).toEqual(['.:express', 'client:cra']);
    expect(decision(bp, 'app').rule).toMatch(/^the project root is itself an app/);
    const client = await detect(
      {
        'package.json': {
          name: 'api',
          scripts: { start: 'node server.js' },
          dependencies: { express: '^5' },
        },
        'client/package.json': {
          name: 'client',
          scripts: { build: 'react-scripts build' },
          dependencies: { 'react-scripts': '5' },
        },
      },
      { app: 'client' },
    );
    expect(client).toMatchObject({ appDir: 'client', outputDir: 'client/build', framework: 'cra' });
  });

  it('skips a subfolder whose package.json is broken, saying so, and names it when it is asked for', async () => {
    const files = {
      'web/package.json': viteApp('web'),
      'legacy/package.json': '{ "name": ',
    };
    const bp = await detect(files);
    expect(bp.appDir).toBe('web');
    expect(decision(bp, 'apps').rule).toContain('legacy (its package.json cannot be read');
    await expect(detect(files, { app: 'legacy' })).rejects.toMatchObject({
      code: 'BLUEPRINT_UNKNOWN_APP',
    });
  });

  it('plans a folder the scan does not look into when it is asked for', async () => {
    const bp = await detect(
      { ...tree, 'examples/demo/package.json': viteApp('demo'), 'examples/demo/package-lock.json': '{}' },
      { app: 'examples/demo' },
    );
    expect(bp).toMatchObject({ appDir: 'examples/demo', installDir: 'examples/demo', packageManager: 'npm' });
  });
});

describe('static sites in a subfolder', () => {
  it('serves the only index.html of a conventional site folder as is when the root has nothing', async () => {
    const bp = await detect({
      'README.md': '# site',
      'public/index.html': '<h1>hi</h1>',
      'public/style.css': '',
    });
    expect(bp).toMatchObject({
      kind: 'static',
      framework: 'static',
      hasPackageJson: false,
      appDir: 'public',
      installDir: 'public',
      outputDir: 'public',
      install: null,
      build: null,
      apps: [],
    });
    expect(decision(bp, 'app')).toMatchObject({ value: 'public', file: 'public/index.html' });
  });

  it('does not take an index.html in src/ (a bundler template) or beside a root app', async () => {
    const src = await detect({ 'src/index.html': '<p>template</p>' });
    expect(src.kind).toBe('unknown');
    const withRoot = await detect({ 'index.html': '<h1>root</h1>', 'dist/index.html': '<h1>old build</h1>' });
    expect(withRoot).toMatchObject({ kind: 'static', appDir: '.', outputDir: '.', apps: [] });
  });
});

describe('expandWorkspace', () => {
  it('expands *, ** and {a,b}, keeps folders with a package.json, and applies ! exclusions', async () => {
    const dir = await makeProject({
      'apps/web/package.json': {},
      'apps/notes/README.md': '',
      'packages/ui/package.json': {},
      'packages/ui/node_modules/dep/package.json': {},
      'packages/test/fixture/package.json': {},
      'packages/nested/deep/lib/package.json': {},
      'tools/cli/package.json': {},
      'docs/package.json': {},
    });
    const files = await openProject(dir);
    expect(await expandWorkspace(files, ['apps/*', './packages/**', '!**/test/**', '{docs,site}'])).toEqual([
      'apps/web',
      'docs',
      'packages/nested/deep/lib',
      'packages/ui',
    ]);
  });
});

describe('rankApps', () => {
  const app = (dir: string, framework = 'vite', kind: Blueprint['kind'] = 'static-build') => ({
    dir,
    name: null,
    framework,
    kind,
  });

  it('orders by kind of app, then folder, then name, then alphabet', () => {
    expect(rankApps([app('apps/api', 'express', 'server'), app('packages/site')]).app.dir).toBe(
      'packages/site',
    );
    expect(rankApps([app('packages/web'), app('apps/dashboard')]).rule).toBe(
      'in apps/, which comes before other folders and packages/',
    );
    expect(rankApps([app('apps/admin'), app('apps/client')]).app.dir).toBe('apps/client');
    expect(rankApps([app('x'), app('custom', 'custom')]).app.dir).toBe('x');
    expect(rankApps([app('apps/b'), app('apps/a')]).app.dir).toBe('apps/a');
    expect(rankApps([app('only')]).rule).toBe('the only app found');
  });

  it('a Storybook comes after a web app wherever each is, and before a server', () => {
    const ranked = rankApps([app('apps/storybook', 'storybook'), app('packages/web')]);
    expect(ranked.app.dir).toBe('packages/web');
    expect(ranked.rule).toContain('web apps come before');
    const vsServer = rankApps([app('apps/api', 'express', 'server'), app('packages/ui', 'storybook')]);
    expect(vsServer.app.dir).toBe('packages/ui');
    expect(vsServer.rule).toBe('a Storybook; it comes after web apps, before servers and custom builds');
  });
});
