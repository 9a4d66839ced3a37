import { describe, expect, it } from 'vitest';
import type { Blueprint } from '@forge/shared';
import { detectBlueprint, type DetectOptions } from './detect-blueprint.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();
const detect = async (tree: ProjectTree, opts?: DetectOptions) =>
  detectBlueprint(await makeProject(tree), opts);
const rules = (bp: Blueprint, field: string) => bp.decisions.filter((d) => d.field === field);

/** An Angular workspace as `create-nx-workspace --preset=angular-monorepo` writes it: no angular.json. */
const angularNx: ProjectTree = {
  'package.json': {
    name: '@shop/source',
    version: '0.0.0',
    license: 'MIT',
    scripts: { start: 'nx serve', build: 'nx build', test: 'nx test' },
    private: true,
    dependencies: { '@angular/core': '~20.3.0', '@angular/common': '~20.3.0', rxjs: '~7.8.0' },
    devDependencies: {
      '@angular/build': '~20.3.0',
      '@angular/cli': '~20.3.0',
      '@nx/angular': '21.6.9',
      '@nx/jest': '21.6.9',
      nx: '21.6.9',
      typescript: '~5.9.2',
    },
  },
  'nx.json': `{
  "$schema": "./node_modules/nx/schemas/nx-schema.json",
  // generated
  "defaultBase": "main",
  "targetDefaults": {
    "@angular/build:application": { "cache": true, "dependsOn": ["^build"], "inputs": ["production", "^production"] },
  },
  "plugins": [{ "plugin": "@nx/eslint/plugin", "options": { "targetName": "lint" } }],
  "nxCloudId": "6650c0ffee0000000000abcd"
}
`,
  'apps/shop/project.json': {
    name: 'shop',
    $schema: '../../node_modules/nx/schemas/project-schema.json',
    projectType: 'application',
    prefix: 'app',
    sourceRoot: 'apps/shop/src',
    targets: {
      build: {
        executor: '@angular/build:application',
        outputs: ['{options.outputPath}'],
        options: {
          outputPath: 'dist/apps/shop',
          browser: 'apps/shop/src/main.ts',
          tsConfig: 'apps/shop/tsconfig.app.json',
        },
        configurations: { production: {}, development: { optimization: false } },
        defaultConfiguration: 'production',
      },
      serve: { continuous: true, executor: '@angular/build:dev-server' },
      test: { executor: '@nx/jest:jest', options: { jestConfig: 'apps/shop/jest.config.ts' } },
    },
  },
  'apps/shop/src/index.html': '<app-root></app-root>',
  'apps/shop-e2e/project.json': {
    name: 'shop-e2e',
    projectType: 'application',
    targets: { e2e: { executor: '@nx/playwright:playwright' } },
  },
  'libs/ui/project.json': {
    name: 'ui',
    projectType: 'library',
    targets: { test: { executor: '@nx/jest:jest' } },
  },
};

describe('an Nx workspace of Angular apps, with no angular.json', () => {
  it('plans the application project with nx build, its outputPath + /browser, installed at the root', async () => {
    const bp = await detect(angularNx);
    expect(bp).toMatchObject({
      kind: 'static-build',
      framework: 'angular',
      hasPackageJson: true,
      packageManager: 'npm',
      build: ['npm', 'exec', '--no', '--', 'nx', 'build', 'shop'],
      test: ['npm', 'exec', '--no', '--', 'nx', 'test', 'shop'],
      outputDir: 'dist/apps/shop/browser',
      appDir: 'apps/shop',
      installDir: '.',
    });
    expect(decision(bp, 'nx')).toMatchObject({ value: 'apps/shop, apps/shop-e2e, libs/ui', file: 'nx.json' });
    expect(decision(bp, 'app')).toMatchObject({ value: 'apps/shop', file: 'apps/shop/project.json' });
    expect(decision(bp, 'apps').rule).toContain(
      'libs/ui (an Nx library (projectType "library" in libs/ui/project.json))',
    );
    expect(decision(bp, 'apps').rule).toContain('apps/shop-e2e (an Nx project with no build target');
    expect(rules(bp, 'framework').at(-1)).toMatchObject({
      file: 'apps/shop/project.json',
      rule: 'targets.build in apps/shop/project.json, executor @angular/build:application',
    });
    expect(rules(bp, 'outputDir')[0]).toMatchObject({
      value: 'dist/apps/shop/browser',
      file: 'apps/shop/project.json',
      rule: expect.stringContaining('the application builder writes the site to <outputPath>/browser'),
    });
    expect(decision(bp, 'build')).toMatchObject({ file: 'apps/shop/project.json' });
    expect(decision(bp, 'installDir')).toMatchObject({ value: '.', file: 'nx.json' });
  });

  it('runs Nx offline: no daemon, no terminal UI, and Nx Cloud sent to a closed local port', async () => {
    const bp = await detect(angularNx);
    expect(bp.env).toEqual({
      NX_DAEMON: 'false',
      NX_NO_CLOUD: 'true',
      NX_TUI: 'false',
      NX_CLOUD_API: 'http://127.0.0.1:9',
    });
    expect(decision(bp, 'env').rule).toContain("nx.json's nxCloudId");
    // The forge config's env is added to it, and wins.
    const own = await detect({
      ...angularNx,
      '.forgerc.json': '{ "env": { "NX_DAEMON": "true", "A": "1" } }',
    });
    expect(own.env).toMatchObject({ NX_DAEMON: 'true', NX_NO_CLOUD: 'true', A: '1' });
  });

  it('plans the server an Angular SSR build writes', async () => {
    const ssr = structuredClone(angularNx);
    const project = ssr['apps/shop/project.json'] as { targets: { build: { options: object } } };
    project.targets.build.options = {
      ...project.targets.build.options,
      server: 'apps/shop/src/main.server.ts',
      ssr: { entry: 'apps/shop/src/server.ts' },
    };
    const bp = await detect(ssr);
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'angular',
      start: ['node', '../../dist/apps/shop/server/server.mjs'],
      outputDir: null,
    });
  });

  it('builds the project the root script or defaultProject names, when several are apps', async () => {
    const two: ProjectTree = {
      ...angularNx,
      'apps/admin/project.json': {
        name: 'admin',
        projectType: 'application',
        targets: {
          build: { executor: '@angular/build:application', options: { outputPath: 'dist/apps/admin' } },
        },
      },
    };
    const ranked = await detect(two);
    expect(ranked.appDir).toBe('apps/admin');
    expect(decision(ranked, 'app').rule).toMatch(/^first in alphabetical order/);

    const scripted = await detect({
      ...two,
      'package.json': { ...(two['package.json'] as object), scripts: { build: 'nx build shop --prod' } },
    });
    expect(scripted.appDir).toBe('apps/shop');
    expect(decision(scripted, 'app')).toMatchObject({
      file: 'package.json',
      rule: expect.stringMatching(/^the root's "build" script builds it \(nx build shop --prod\)/),
    });

    const byDefault = await detect({ ...two, 'nx.json': '{ "defaultProject": "shop" }' });
    expect(byDefault.appDir).toBe('apps/shop');
    expect(decision(byDefault, 'app')).toMatchObject({ file: 'nx.json' });
    expect(byDefault.env).not.toHaveProperty('NX_CLOUD_API');

    // By folder or by Nx project name.
    expect((await detect(two, { app: 'shop' })).appDir).toBe('apps/shop');
    expect((await detect(two, { app: 'apps/shop' })).build).toEqual([
      'npm',
      'exec',
      '--no',
      '--',
      'nx',
      'build',
      'shop',
    ]);
  });
});

/** An Nx workspace of Vite apps as @nx/web generates them, with a library the app imports. */
const viteNx = (build: object | null, plugins: unknown[] = []): ProjectTree => ({
  'package.json': {
    name: '@acme/source',
    private: true,
    scripts: {},
    devDependencies: {
      nx: '21.6.9',
      '@nx/vite': '21.6.9',
      '@nx/web': '21.6.9',
      vite: '^6.0.0',
      typescript: '~5.8.0',
    },
  },
  'package-lock.json': '{"lockfileVersion": 3}',
  'nx.json': { plugins },
  'apps/web/project.json': {
    name: 'web',
    projectType: 'application',
    sourceRoot: 'apps/web/src',
    targets: build ? { build } : {},
  },
  'apps/web/index.html': '<div id="root"></div><script type="module" src="/src/main.ts"></script>',
  'apps/web/vite.config.ts':
    "import { defineConfig } from 'vite';\nexport default defineConfig({ root: __dirname, build: { outDir: '../../dist/apps/web', emptyOutDir: true } });\n",
  'libs/greeting/project.json': { name: 'greeting', sourceRoot: 'libs/greeting/src', projectType: 'library' },
});

describe('an Nx workspace of Vite apps', () => {
  it('@nx/vite:build: the outputPath option, from the workspace root', async () => {
    const bp = await detect(
      viteNx({
        executor: '@nx/vite:build',
        outputs: ['{options.outputPath}'],
        options: { outputPath: 'dist/web-app' },
      }),
    );
    expect(bp).toMatchObject({
      framework: 'vite',
      kind: 'static-build',
      packageManager: 'npm',
      install: ['npm', 'ci', '--no-audit', '--no-fund'],
      build: ['npm', 'exec', '--no', '--', 'nx', 'build', 'web'],
      outputDir: 'dist/web-app',
      appDir: 'apps/web',
      installDir: '.',
      test: null,
    });
    expect(rules(bp, 'outputDir').map((d) => d.rule)).toContain(
      'targets.build.options.outputPath "dist/web-app"',
    );
  });

  it('a build target @nx/vite/plugin infers: the vite config says where, even outside the app folder', async () => {
    const bp = await detect(
      viteNx(null, [{ plugin: '@nx/vite/plugin', options: { buildTargetName: 'build' } }]),
    );
    expect(bp).toMatchObject({
      framework: 'vite',
      build: ['npm', 'exec', '--no', '--', 'nx', 'build', 'web'],
      outputDir: 'dist/apps/web',
    });
    expect(decision(bp, 'build').rule).toContain(
      '@nx/vite/plugin (in nx.json) infers from apps/web/vite.config.ts',
    );
    expect(rules(bp, 'outputDir')[0]).toMatchObject({
      file: 'apps/web/vite.config.ts',
      rule: 'build.outDir: "../../dist/apps/web" in vite.config.ts',
    });
    // Another target name: nx run <project>:<target>.
    const named = await detect(
      viteNx(null, [{ plugin: '@nx/vite/plugin', options: { buildTargetName: 'vite:build' } }]),
    );
    expect(named.build).toEqual(['npm', 'exec', '--no', '--', 'nx', 'run', 'web:vite:build']);
    // A plugin that excludes the app infers nothing there: no app.
    const excluded = await detect(viteNx(null, [{ plugin: '@nx/vite/plugin', exclude: ['apps/**/*'] }]));
    expect(decision(excluded, 'apps').rule).toContain('apps/web (an Nx project with no build target');
  });

  it('a run-commands target: outputs name the folder', async () => {
    const bp = await detect(
      viteNx({ command: 'vite build apps/web', outputs: ['{workspaceRoot}/dist/apps/web-site'] }),
    );
    expect(bp).toMatchObject({ framework: 'vite', outputDir: 'dist/apps/web-site' });
    expect(decision(bp, 'build').rule).toMatch(/^targets\.build in apps\/web\/project\.json/);
  });

  it('is not planned with Nx when nx is not installed by the root', async () => {
    const tree = viteNx({ executor: '@nx/vite:build', options: { outputPath: 'dist/web' } });
    const bp = await detect({
      ...tree,
      'package.json': { name: 'x', private: true, devDependencies: { vite: '^6' } },
    });
    expect(decision(bp, 'nx')).toMatchObject({ value: 'not used' });
    expect(bp.build).not.toContain('nx');
  });
});

describe('Nx projects of other kinds', () => {
  it('a plugin listed by its package infers the build and test targets; its tool names the framework', async () => {
    // As nrwl/nx-examples keeps its React app: rsbuild inferred, outputs stated in project.json.
    const bp = await detect({
      'package.json': {
        name: 'examples',
        private: true,
        devDependencies: { nx: '21.6.9', '@nx/rsbuild': '21.6.9' },
      },
      'nx.json': {
        plugins: [
          { plugin: '@nx/jest/plugin', options: { targetName: 'test' } },
          { plugin: '@nx/rsbuild', options: { buildTargetName: 'build', devTargetName: 'serve' } },
        ],
      },
      'apps/cart/project.json': {
        name: 'cart',
        projectType: 'application',
        targets: { build: { outputs: ['{workspaceRoot}/dist/apps/cart'] } },
      },
      'apps/cart/rsbuild.config.ts':
        'export default { output: { distPath: { root: "../../dist/apps/cart" } } };',
      'apps/cart/jest.config.ts': 'export default { displayName: "cart" };',
    });
    expect(bp).toMatchObject({
      framework: 'rsbuild',
      kind: 'static-build',
      outputDir: 'dist/apps/cart',
      build: ['npm', 'exec', '--no', '--', 'nx', 'build', 'cart'],
      test: ['npm', 'exec', '--no', '--', 'nx', 'test', 'cart'],
    });
    expect(rules(bp, 'outputDir')[0]).toMatchObject({
      file: 'apps/cart/project.json',
      rule: 'targets.build.outputs "{workspaceRoot}/dist/apps/cart"',
    });
    expect(decision(bp, 'test').rule).toContain(
      '@nx/jest/plugin (in nx.json) infers from apps/cart/jest.config.ts',
    );
  });

  it('a package-based workspace: package.json projects, built through their script with nx', async () => {
    const bp = await detect({
      'package.json': {
        name: 'repo',
        private: true,
        workspaces: ['packages/*'],
        devDependencies: { nx: '21.6.9' },
      },
      'nx.json': { targetDefaults: { build: { dependsOn: ['^build'] } } },
      'packages/site/package.json': {
        name: '@repo/site',
        private: true,
        scripts: { build: 'vite build', test: 'vitest run' },
        dependencies: { '@repo/words': '*' },
        devDependencies: { vite: '^6' },
      },
      'packages/site/index.html': '<p>site</p>',
      'packages/words/package.json': {
        name: '@repo/words',
        main: 'dist/index.js',
        scripts: { build: 'tsc' },
        nx: { projectType: 'library' },
      },
    });
    expect(bp).toMatchObject({
      framework: 'vite',
      appDir: 'packages/site',
      installDir: '.',
      build: ['npm', 'exec', '--no', '--', 'nx', 'build', '@repo/site'],
      test: ['npm', 'exec', '--no', '--', 'nx', 'test', '@repo/site'],
      outputDir: 'packages/site/dist',
    });
    expect(decision(bp, 'build').rule).toContain('the "build" script in packages/site/package.json');
  });

  it('a Node API built with esbuild and run by its serve target is a server', async () => {
    const bp = await detect({
      'package.json': {
        name: 'api-repo',
        private: true,
        devDependencies: { nx: '21.6.9', '@nx/esbuild': '21.6.9' },
      },
      'nx.json': '{}',
      'apps/api/project.json': {
        name: 'api',
        projectType: 'application',
        targets: {
          build: {
            executor: '@nx/esbuild:esbuild',
            options: { platform: 'node', outputPath: 'dist/apps/api', main: 'apps/api/src/main.ts' },
          },
          serve: { executor: '@nx/js:node', options: { buildTarget: 'api:build' } },
        },
      },
    });
    expect(bp).toMatchObject({
      kind: 'server',
      framework: 'node',
      start: ['node', '../../dist/apps/api/main.js'],
      build: ['npm', 'exec', '--no', '--', 'nx', 'build', 'api'],
    });
  });
});
