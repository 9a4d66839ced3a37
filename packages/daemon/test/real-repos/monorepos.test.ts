import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCommand, type Build } from '@forge/shared';
import type { ProjectFiles } from '@forge/testing';
import { makeZip } from '../build-helpers.ts';
import { RealDaemon, blueprintOf, json, lastDecision, type CliRun } from './harness.ts';

/**
 * Repositories of several apps as their monorepo tools keep them, built end to end by a real daemon
 * with real installs from the npm registry: an Nx workspace (nx build through the plugin-inferred
 * target, offline), a Turborepo workspace whose app needs a package built first, a workspace whose
 * root is itself the app, and `--app .` through the built CLI. One daemon for the file; every
 * project is uploaded up front and built side by side; each `it` awaits its own build.
 */

const BUILD_TIMEOUT_MS = 300_000;
const TEST_TIMEOUT_MS = BUILD_TIMEOUT_MS + 30_000;

const NX = '21.6.9';
/** The newest Vite @nx/vite 21 accepts; the other projects use it too, so a cold cache fetches one. */
const VITE = '7.3.8';
const TURBO = '2.11.11';
const LERNA = '9.0.7';

/** A page whose body a script fills in, with a heading the test can read in the HTML itself. */
const page = (title: string, entry: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
  </head>
  <body>
    <h1>${title}</h1>
    <div id="root"></div>
    <script type="module" src="${entry}"></script>
  </body>
</html>
`;

/**
 * An Nx 21 workspace as `create-nx-workspace --preset=apps` and `nx g @nx/web:app apps/web
 * --bundler=vite` leave it: no build target in project.json (@nx/vite/plugin infers it from
 * vite.config.ts), a library imported through tsconfig paths, an e2e project, and nx.json connected to
 * Nx Cloud, which the build must not reach.
 */
function nxWorkspace(): ProjectFiles {
  return {
    'package.json': json({
      name: '@acme/source',
      version: '0.0.0',
      license: 'MIT',
      scripts: {},
      private: true,
      devDependencies: { nx: NX, '@nx/vite': NX, typescript: '~5.9.3', vite: VITE },
    }),
    'nx.json': json({
      $schema: './node_modules/nx/schemas/nx-schema.json',
      namedInputs: { default: ['{projectRoot}/**/*'], production: ['default'] },
      targetDefaults: { build: { cache: true, dependsOn: ['^build'] } },
      plugins: [
        {
          plugin: '@nx/vite/plugin',
          options: { buildTargetName: 'build', serveTargetName: 'serve', previewTargetName: 'preview' },
        },
      ],
      nxCloudId: '6650f00dcafe0000deadbeef',
    }),
    'tsconfig.base.json': json({
      compileOnSave: false,
      compilerOptions: {
        rootDir: '.',
        moduleResolution: 'node',
        target: 'es2022',
        module: 'esnext',
        lib: ['es2022', 'dom'],
        skipLibCheck: true,
        baseUrl: '.',
        paths: { '@acme/greeting': ['libs/greeting/src/index.ts'] },
      },
      exclude: ['node_modules', 'tmp'],
    }),
    'apps/web/project.json': json({
      name: 'web',
      $schema: '../../node_modules/nx/schemas/project-schema.json',
      projectType: 'application',
      sourceRoot: 'apps/web/src',
      tags: [],
      // The build, serve and preview targets are inferred by @nx/vite/plugin.
      targets: {},
    }),
    'apps/web/index.html': page('Acme storefront', '/src/main.ts'),
    'apps/web/vite.config.ts': `/// <reference types='vitest' />
import { defineConfig } from 'vite';
import { nxViteTsPaths } from '@nx/vite/plugins/nx-tsconfig-paths.plugin';

export default defineConfig(() => ({
  root: __dirname,
  cacheDir: '../../node_modules/.vite/apps/web',
  plugins: [nxViteTsPaths()],
  build: {
    outDir: '../../dist/apps/web',
    emptyOutDir: true,
    reportCompressedSize: true,
  },
}));
`,
    'apps/web/tsconfig.json': json({
      extends: '../../tsconfig.base.json',
      files: [],
      include: [],
      references: [{ path: './tsconfig.app.json' }],
    }),
    'apps/web/tsconfig.app.json': json({
      extends: './tsconfig.json',
      compilerOptions: { outDir: '../../dist/out-tsc', types: [] },
      include: ['src/**/*.ts'],
    }),
    'apps/web/src/main.ts': `import { greeting } from '@acme/greeting';

const root = document.querySelector<HTMLDivElement>('#root');
if (root) root.textContent = greeting('the Nx build');
`,
    'apps/web-e2e/project.json': json({
      name: 'web-e2e',
      projectType: 'application',
      implicitDependencies: ['web'],
      targets: { e2e: { executor: 'nx:run-commands', options: { command: 'echo e2e' } } },
    }),
    'libs/greeting/project.json': json({
      name: 'greeting',
      $schema: '../../node_modules/nx/schemas/project-schema.json',
      sourceRoot: 'libs/greeting/src',
      projectType: 'library',
      tags: [],
    }),
    'libs/greeting/src/index.ts':
      'export const greeting = (who: string): string => `Greetings from libs/greeting, via ${who}`;\n',
    'libs/greeting/tsconfig.json': json({ extends: '../../tsconfig.base.json', include: ['src/**/*.ts'] }),
    '.gitignore': 'node_modules\ndist\n.nx/cache\n.nx/workspace-data\n',
  };
}

/** npm's version here: Turborepo 2 refuses a workspace whose packageManager field is missing. */
const NPM_VERSION = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();

/**
 * A Turborepo of npm workspaces as create-turbo shapes it: apps/web (Vite) imports @acme/greeting
 * from its dist/, which only the package's own build writes, so the app builds only after it.
 */
function turboWorkspace(): ProjectFiles {
  return {
    'package.json': json({
      name: 'acme-turbo',
      private: true,
      packageManager: `npm@${NPM_VERSION}`,
      workspaces: ['apps/*', 'packages/*'],
      scripts: { build: 'turbo run build', dev: 'turbo run dev' },
      devDependencies: { turbo: TURBO },
    }),
    'turbo.json': json({
      $schema: 'https://turborepo.com/schema.json',
      ui: 'tui',
      tasks: {
        build: { dependsOn: ['^build'], inputs: ['$TURBO_DEFAULT$'], outputs: ['dist/**'] },
        dev: { cache: false, persistent: true },
      },
    }),
    'apps/web/package.json': json({
      name: 'web',
      private: true,
      type: 'module',
      scripts: { dev: 'vite', build: 'vite build' },
      dependencies: { '@acme/greeting': '*' },
      devDependencies: { vite: VITE },
    }),
    'apps/web/index.html': page('Acme turbo web', '/src/main.js'),
    'apps/web/src/main.js': `import { greeting } from '@acme/greeting';

document.querySelector('#root').textContent = greeting('Turborepo');
`,
    'packages/greeting/package.json': json({
      name: '@acme/greeting',
      version: '0.0.0',
      private: true,
      type: 'module',
      exports: { '.': './dist/index.js' },
      scripts: { build: 'node build.mjs' },
    }),
    'packages/greeting/build.mjs': `import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
writeFileSync('dist/index.js', readFileSync('src/index.js', 'utf8').replace('__BUILT__', 'built first by turbo'));
`,
    'packages/greeting/src/index.js':
      'export const greeting = (who) => `Greetings from @acme/greeting (__BUILT__), via ${who}`;\n',
  };
}

/**
 * A Lerna 9 repository of npm workspaces (what \`lerna init\` writes): the same app and package shapes,
 * the package's build named differently so the log shows which tool ran it.
 */
function lernaWorkspace(): ProjectFiles {
  const turbo = turboWorkspace();
  return {
    'package.json': json({
      name: 'acme-lerna',
      private: true,
      workspaces: ['apps/*', 'packages/*'],
      scripts: { build: 'lerna run build' },
      devDependencies: { lerna: LERNA },
    }),
    'lerna.json': json({ $schema: 'node_modules/lerna/schemas/lerna-schema.json', version: '0.0.0' }),
    'apps/web/package.json': turbo['apps/web/package.json']!,
    'apps/web/index.html': page('Acme lerna web', '/src/main.js'),
    'apps/web/src/main.js': String(turbo['apps/web/src/main.js']).replace('Turborepo', 'Lerna'),
    'packages/greeting/package.json': turbo['packages/greeting/package.json']!,
    'packages/greeting/build.mjs': String(turbo['packages/greeting/build.mjs']).replace(
      'built first by turbo',
      'built first by lerna',
    ),
    'packages/greeting/src/index.js': turbo['packages/greeting/src/index.js']!,
  };
}

/** A small server package in a workspace folder beside the root app, as a Nitro package would be. */
const serverPackage: ProjectFiles = {
  'packages/api/package.json': json({
    name: '@site/api',
    private: true,
    type: 'module',
    scripts: { start: 'node server.mjs' },
  }),
  'packages/api/server.mjs': `import http from 'node:http';

http
  .createServer((req, res) => res.end(JSON.stringify({ api: true })))
  .listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1');
`,
};

/** A Vite app at the root of an npm workspace, with the server package beside it. */
function rootApp(): ProjectFiles {
  return {
    'package.json': json({
      name: 'site',
      private: true,
      type: 'module',
      workspaces: ['packages/*'],
      scripts: { dev: 'vite', build: 'vite build', preview: 'vite preview' },
      devDependencies: { vite: VITE },
    }),
    'index.html': page('The site at the root', '/src/main.js'),
    'src/main.js': "document.querySelector('#root').textContent = 'Rendered by the root app';\n",
    ...serverPackage,
  };
}

/** A root whose build is its own script (no tool Forge can tie to a dependency): picked by --app . */
function rootByScript(): ProjectFiles {
  return {
    'package.json': json({
      name: 'handbook',
      private: true,
      type: 'module',
      workspaces: ['packages/*'],
      scripts: { build: 'node scripts/build.mjs' },
    }),
    'scripts/build.mjs': `import { mkdirSync, writeFileSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
writeFileSync('dist/index.html', '<!doctype html><title>Handbook</title><h1>Handbook built by its own script</h1>');
`,
    ...serverPackage,
  };
}

type ProjectName = 'nx' | 'turbo' | 'lerna' | 'rootApp';

let daemon: RealDaemon;
const builds = {} as Record<ProjectName, Promise<Build>>;
let cli: Promise<CliRun>;

beforeAll(async () => {
  daemon = await RealDaemon.start('monorepos', { buildTimeoutMs: BUILD_TIMEOUT_MS });
  builds.nx = daemon.build('acme-nx.zip', nxWorkspace());
  builds.turbo = daemon.build('acme-turbo.zip', turboWorkspace());
  builds.lerna = daemon.build('acme-lerna.zip', lernaWorkspace());
  builds.rootApp = daemon.build('site.zip', rootApp());
  cli = daemon.forge(['upload', makeZip('handbook.zip', rootByScript()), '--wait', '--json', '--app', '.']);
}, 60_000);

afterAll(() => daemon.stop(), 120_000);

const logLines = (build: Build) => daemon.logLines(build);
const succeeded = (build: Build) => daemon.ended(build);
const planOf = (name: ProjectName) => blueprintOf(builds[name]);
const decided = lastDecision;

/** The preview's page and the text of its scripts. */
async function preview(build: Build): Promise<{ html: string; scripts: string }> {
  expect(build.previewUrl).toBeTruthy();
  const res = await fetch(build.previewUrl!);
  expect(res.status).toBe(200);
  const html = await res.text();
  const sources = [...html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g)].map((m) => m[1]!);
  const scripts = await Promise.all(
    sources.map(async (src) => {
      const asset = await fetch(new URL(src, build.previewUrl!));
      expect(asset.status, src).toBe(200);
      return asset.text();
    }),
  );
  return { html, scripts: scripts.join('\n') };
}

describe('monorepo tools through a real daemon', { timeout: TEST_TIMEOUT_MS }, () => {
  describe('an Nx workspace (nx.json, apps/web/project.json, a target @nx/vite/plugin infers)', () => {
    it('plans apps/web by its Nx build target, built with nx build at the workspace install', async () => {
      const bp = await planOf('nx');
      expect(bp).toMatchObject({
        framework: 'vite',
        kind: 'static-build',
        appDir: 'apps/web',
        installDir: '.',
        outputDir: 'dist/apps/web',
        hasPackageJson: true,
      });
      expect(formatCommand(bp.build!)).toBe('npm exec --no -- nx build web');
      expect(decided(bp, 'app')).toMatchObject({ value: 'apps/web', file: 'apps/web/project.json' });
      expect(decided(bp, 'apps')?.rule).toContain('libs/greeting (an Nx library');
      expect(decided(bp, 'apps')?.rule).toContain('apps/web-e2e (an Nx project with no build target');
      expect(decided(bp, 'build')?.rule).toContain(
        '@nx/vite/plugin (in nx.json) infers from apps/web/vite.config.ts',
      );
      expect(bp.env).toMatchObject({
        NX_DAEMON: 'false',
        NX_NO_CLOUD: 'true',
        NX_CLOUD_API: 'http://127.0.0.1:9',
      });
    });

    it('builds offline through Nx and previews the app with the library bundled in', async () => {
      const build = await succeeded(await builds.nx);
      const lines = await logLines(build);
      expect(lines.some((l) => l.includes('Successfully ran target build for project web'))).toBe(true);
      // Nx Cloud's runner was sent to the closed local port, never to the internet.
      expect(lines.some((l) => /cloud\.nx\.app|nx\.app\//.test(l))).toBe(false);
      const { html, scripts } = await preview(build);
      expect(html).toContain('<h1>Acme storefront</h1>');
      expect(scripts).toContain('Greetings from libs/greeting, via ');
    });
  });

  describe('a Turborepo of npm workspaces whose app needs a package built first', () => {
    it('plans turbo run build --filter=web... from the app', async () => {
      const bp = await planOf('turbo');
      expect(bp).toMatchObject({
        framework: 'vite',
        appDir: 'apps/web',
        installDir: '.',
        outputDir: 'apps/web/dist',
      });
      expect(formatCommand(bp.build!)).toBe('npm exec --no -- turbo run build --filter=web...');
      expect(decided(bp, 'build')).toMatchObject({ file: 'turbo.json' });
      expect(decided(bp, 'workspaceDeps')).toMatchObject({ value: '@acme/greeting' });
      expect(decided(bp, 'apps')?.rule).toContain(
        '. (the root\'s "build" script only runs the packages\' builds (turbo run build))',
      );
      expect(bp.env).toMatchObject({ TURBO_TELEMETRY_DISABLED: '1' });
    });

    it('builds @acme/greeting, then the app with it, and previews it', async () => {
      const build = await succeeded(await builds.turbo);
      const lines = await logLines(build);
      expect(lines.some((l) => l.includes('@acme/greeting:build'))).toBe(true);
      const { html, scripts } = await preview(build);
      expect(html).toContain('<h1>Acme turbo web</h1>');
      expect(scripts).toContain('built first by turbo');
    });
  });

  describe('a Lerna repository of npm workspaces', () => {
    it('builds the app and the package it depends on with lerna run --scope --include-dependencies', async () => {
      const bp = await planOf('lerna');
      expect(bp).toMatchObject({
        framework: 'vite',
        appDir: 'apps/web',
        installDir: '.',
        outputDir: 'apps/web/dist',
      });
      expect(formatCommand(bp.build!)).toBe(
        'npm exec --no -- lerna run build --scope web --include-dependencies',
      );
      expect(decided(bp, 'build')).toMatchObject({ file: 'lerna.json' });
      const build = await succeeded(await builds.lerna);
      const { html, scripts } = await preview(build);
      expect(html).toContain('<h1>Acme lerna web</h1>');
      expect(scripts).toContain('built first by lerna');
    });
  });

  describe('a workspace whose root is the app, with a server package beside it', () => {
    it('builds the root, not the only package, and says by which rule', async () => {
      const bp = await planOf('rootApp');
      expect(bp).toMatchObject({ framework: 'vite', appDir: '.', installDir: '.', outputDir: 'dist' });
      expect(decided(bp, 'app')?.rule).toMatch(
        /^the project root is itself an app: the root's "build" script runs vite build, and vite is in its devDependencies/,
      );
      expect(bp.apps.map((a) => a.dir)).toEqual(['.', 'packages/api']);
      const build = await succeeded(await builds.rootApp);
      const { html, scripts } = await preview(build);
      expect(html).toContain('<h1>The site at the root</h1>');
      expect(scripts).toContain('Rendered by the root app');
    });
  });

  describe('forge upload --app . through the built CLI', () => {
    it('builds the root the rule would not have picked, and exits 0', async () => {
      const { code, stdout, stderr } = await cli;
      expect(code, stderr).toBe(0);
      const result = JSON.parse(stdout) as { buildId: string; status: string; previewUrl: string };
      expect(result.status).toBe('succeeded');
      const build = await daemon.record(result.buildId);
      expect(build.blueprint).toMatchObject({ appDir: '.', framework: 'custom', outputDir: 'dist' });
      expect(decided(build.blueprint!, 'app')?.rule).toMatch(/^asked for by the app option/);
      const res = await fetch(result.previewUrl);
      expect(await res.text()).toContain('<h1>Handbook built by its own script</h1>');
    });
  });
});
