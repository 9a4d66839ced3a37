import { describe, expect, it } from 'vitest';
import { BlueprintError } from './blueprint-error.ts';
import { detectBlueprint, type DetectOptions } from './detect-blueprint.ts';
import { providesBin } from './workspace-root.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();
const detect = async (tree: ProjectTree, opts?: DetectOptions) =>
  detectBlueprint(await makeProject(tree), opts);

/** A small Nitro-style server package beside the root app, as in a Nuxt repository. */
const serverPackage = {
  name: '@site/api',
  private: true,
  type: 'module',
  scripts: { start: 'node server.mjs' },
};

/** A workspace whose root's own package.json is given; packages/api is a server app. */
const rootWith = (root: object, extra: ProjectTree = {}): ProjectTree => ({
  'package.json': { name: 'site', private: true, workspaces: ['packages/*'], ...root },
  'packages/api/package.json': serverPackage,
  'packages/api/server.mjs': 'import http from "node:http"; http.createServer().listen(process.env.PORT);',
  ...extra,
});

describe('the root of a workspace as the app', () => {
  it('is the app when its build runs a tool its own dependencies provide, whatever the framework', async () => {
    // A framework Forge does not recognise (yet): "nuxt build" with nuxt in the root's dependencies.
    const nuxt = await detect(
      rootWith({
        scripts: { build: 'nuxt build', dev: 'nuxt dev', start: 'node .output/server/index.mjs' },
        dependencies: { nuxt: '^4.2.0', vue: '^3.5.0' },
      }),
    );
    expect(nuxt).toMatchObject({
      appDir: '.',
      installDir: '.',
      kind: 'server',
      start: ['npm', 'run', 'start'],
    });
    expect(decision(nuxt, 'app')).toMatchObject({ value: '.' });
    expect(decision(nuxt, 'app').rule).toMatch(
      /^the project root is itself an app: the root's "build" script runs nuxt build, and nuxt is in its dependencies;/,
    );
    expect(nuxt.apps.map((a) => a.dir)).toEqual(['.', 'packages/api']);

    // Scoped packages name their bins by scope or name: @react-router/dev → react-router.
    const rr = await detect(
      rootWith({
        scripts: { build: 'react-router build', start: 'react-router-serve ./build/server/index.js' },
        dependencies: { '@react-router/serve': '^7.9.0' },
        devDependencies: { '@react-router/dev': '^7.9.0' },
      }),
    );
    expect(rr.appDir).toBe('.');
    expect(decision(rr, 'app').rule).toContain('@react-router/dev is in its devDependencies');

    // A framework Forge recognises at the root, built by its own script after the packages'.
    const vite = await detect(
      rootWith({
        scripts: { build: 'npm run build --workspaces --if-present && vite build' },
        devDependencies: { vite: '^7.2.0' },
      }),
    );
    expect(vite).toMatchObject({ appDir: '.', framework: 'vite', outputDir: 'dist' });
  });

  it('is not the app when its build only runs the packages’ builds', async () => {
    for (const build of [
      'turbo run build',
      'pnpm -r build',
      'pnpm --filter "./packages/**" build',
      'npm run build --workspaces',
      'npm run build -ws',
      'yarn workspaces foreach -A run build',
      'lerna run build',
      'nx run-many -t build',
      'tsc -b && turbo run build',
      'cd packages/api && npm run build',
    ]) {
      const bp = await detect(
        rootWith({
          scripts: { build },
          devDependencies: { vite: '^7', turbo: '^2', lerna: '^9', typescript: '^5' },
        }),
      );
      expect(bp.appDir, build).toBe('packages/api');
      expect(decision(bp, 'apps').rule, build).toContain(
        '. (the root\'s "build" script only runs the packages\' builds',
      );
    }
  });

  it('is not the app when it only depends on a framework, with no build script or files of it', async () => {
    const bp = await detect(rootWith({ devDependencies: { vite: '^7', vitest: '^3' } }));
    expect(bp.appDir).toBe('packages/api');
    expect(decision(bp, 'apps').rule).toContain('. (the root only depends on vite');
    // With its own index.html it is a Vite app.
    const app = await detect(
      rootWith({ devDependencies: { vite: '^7' } }, { 'index.html': '<div id="app"></div>' }),
    );
    expect(app.appDir).toBe('.');
  });

  it('is the app when it is a server of its own, with or without a compile step', async () => {
    for (const scripts of [{ start: 'node server.js' }, { build: 'tsc', start: 'node dist/server.js' }]) {
      const bp = await detect(rootWith({ scripts, dependencies: { express: '^5.1.0' } }));
      expect(bp, JSON.stringify(scripts)).toMatchObject({
        appDir: '.',
        framework: 'express',
        kind: 'server',
      });
      expect(decision(bp, 'app').rule).toContain('its own "start" script runs the express server');
    }
  });

  it('--app . builds the root when the rule did not pick it; a root with nothing to build is refused', async () => {
    const tree = rootWith({ scripts: { build: 'node scripts/build.mjs' } });
    const picked = await detect(tree);
    expect(picked.appDir).toBe('packages/api');
    expect(decision(picked, 'apps').rule).toContain("runs no tool the root's own dependencies provide");

    const asked = await detect(tree, { app: '.' });
    expect(asked).toMatchObject({
      appDir: '.',
      framework: 'custom',
      kind: 'static-build',
      build: ['npm', 'run', 'build'],
    });
    expect(decision(asked, 'app')).toMatchObject({
      value: '.',
      file: null,
      rule: expect.stringMatching(/^asked for by the app option/),
    });
    const fromConfig = await detect({ ...tree, 'forge.config.json': '{ "app": "./" }' });
    expect(fromConfig.appDir).toBe('.');

    const empty = rootWith({});
    const refused = await detect(empty, { app: '.' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BlueprintError);
    expect(refused).toMatchObject({ code: 'BLUEPRINT_UNKNOWN_APP' });
    expect((refused as Error).message).toMatch(
      /^No app "\." in this project \(the app option\): nothing to build or serve at the project root/,
    );
    expect((refused as Error).message).toContain('The apps Forge found: packages/api (node).');
  });
});

describe('providesBin', () => {
  it.each([
    ['vite', 'vite', true],
    ['nuxt', 'nuxt', true],
    ['@11ty/eleventy', 'eleventy', true],
    ['@docusaurus/core', 'docusaurus', true],
    ['@react-router/dev', 'react-router', true],
    ['@vue/cli-service', 'vue-cli-service', true],
    ['@remix-run/dev', 'remix', true],
    ['@angular/cli', 'ng', true],
    ['react', 'vite', false],
    ['@vitejs/plugin-react', 'vite', false],
  ])('%s provides %s: %s', (dep, bin, expected) => {
    expect(providesBin(dep, bin)).toBe(expected);
  });
});
