import { describe, expect, it } from 'vitest';
import { detectBlueprint } from './detect-blueprint.ts';
import { decision, useProjects, type ProjectTree } from '../../../test/support/detect-project.ts';

const makeProject = useProjects();
const detect = async (tree: ProjectTree) => detectBlueprint(await makeProject(tree));

const TURBO_JSON =
  '{ "$schema": "https://turborepo.com/schema.json", "tasks": { "build": { "dependsOn": ["^build"], "outputs": ["dist/**"] } } }';

/** apps/web (Vite) imports @acme/ui, which has a build of its own. */
const workspace = (root: object, extra: ProjectTree = {}): ProjectTree => ({
  'package.json': {
    name: 'acme',
    private: true,
    workspaces: ['apps/*', 'packages/*'],
    scripts: { build: 'turbo run build' },
    ...root,
  },
  'apps/web/package.json': {
    name: 'web',
    private: true,
    scripts: { build: 'vite build' },
    dependencies: { '@acme/ui': '*' },
    devDependencies: { vite: '^7.2.0' },
  },
  'apps/web/index.html': '<div id="app"></div>',
  'packages/ui/package.json': {
    name: '@acme/ui',
    version: '0.0.0',
    main: 'dist/index.js',
    scripts: { build: 'node build.mjs' },
  },
  ...extra,
});

describe('Turborepo', () => {
  it('builds the app and what it depends on with turbo, for npm, pnpm and Yarn alike', async () => {
    const npm = await detect(
      workspace(
        { packageManager: 'npm@11.6.2', devDependencies: { turbo: '^2.6.0' } },
        { 'turbo.json': TURBO_JSON },
      ),
    );
    expect(npm).toMatchObject({
      appDir: 'apps/web',
      installDir: '.',
      build: ['npm', 'exec', '--no', '--', 'turbo', 'run', 'build', '--filter=web...'],
      outputDir: 'apps/web/dist',
      env: { TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
    });
    expect(decision(npm, 'build')).toMatchObject({
      file: 'turbo.json',
      rule: 'Turborepo (turbo.json, turbo in devDependencies) builds web and the workspace packages it depends on, dependencies first',
    });
    expect(decision(npm, 'env')).toMatchObject({ file: 'turbo.json' });

    const berry = await detect(
      workspace(
        { packageManager: 'yarn@4.12.0', devDependencies: { turbo: '^2.6.0' } },
        { 'turbo.json': TURBO_JSON, 'yarn.lock': '__metadata:\n  version: 8\n' },
      ),
    );
    expect(berry.build).toEqual(['yarn', 'run', 'turbo', 'run', 'build', '--filter=web...']);
  });

  it('is not used without a build task or without turbo installed, and the plan says why', async () => {
    const noTask = await detect(
      workspace({ devDependencies: { turbo: '^2' } }, { 'turbo.json': '{ "tasks": { "lint": {} } }' }),
    );
    expect(noTask.build).toEqual(['npm', 'run', 'build', '--workspace', '@acme/ui', '--workspace', 'web']);
    expect(decision(noTask, 'taskRunner')).toMatchObject({
      value: 'turbo not used',
      file: 'turbo.json',
      rule: 'it defines no "build" task',
    });
    expect(noTask.env).toEqual({});
    const notInstalled = await detect(workspace({}, { 'turbo.json': TURBO_JSON }));
    expect(decision(notInstalled, 'taskRunner').rule).toContain('turbo is not in the root package.json');
  });
});

describe('Lerna', () => {
  it('builds the app with lerna run --scope --include-dependencies', async () => {
    const bp = await detect(
      workspace(
        { scripts: { build: 'lerna run build' }, devDependencies: { lerna: '^9.0.0' } },
        {
          'lerna.json':
            '{ "$schema": "node_modules/lerna/schemas/lerna-schema.json", "version": "independent" }',
        },
      ),
    );
    expect(bp).toMatchObject({
      appDir: 'apps/web',
      build: [
        'npm',
        'exec',
        '--no',
        '--',
        'lerna',
        'run',
        'build',
        '--scope',
        'web',
        '--include-dependencies',
      ],
      env: { NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    });
    expect(decision(bp, 'build')).toMatchObject({ file: 'lerna.json' });
  });
});

describe('Rush', () => {
  it('is not driven: the plan says so and what to set', async () => {
    const bp = await detect({
      'rush.json':
        '{ "rushVersion": "5.160.0", "pnpmVersion": "9.15.0", "projects": [{ "packageName": "web", "projectFolder": "apps/web" }] }',
      'apps/web/package.json': {
        name: 'web',
        scripts: { build: 'vite build' },
        dependencies: { '@acme/ui': 'workspace:*' },
        devDependencies: { vite: '^7' },
      },
      'apps/web/index.html': '<div></div>',
    });
    expect(bp.appDir).toBe('apps/web');
    expect(decision(bp, 'taskRunner')).toMatchObject({ value: 'rush not driven', file: 'rush.json' });
    expect(decision(bp, 'taskRunner').rule).toContain('npx @microsoft/rush build --to <project>');
  });
});
