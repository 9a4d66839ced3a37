import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatCommand,
  type Blueprint,
  type Build,
  type BuildLogsResponse,
  type UploadResult,
} from '@forge/shared';
import type { ProjectFiles } from '@forge/testing';
import { cleanup, tempDir, userPackageCaches, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';
import { spawnDaemon, type DaemonProcess } from './process-helpers.ts';
import {
  appsInSubfolders,
  html5Boilerplate,
  lockfileFor,
  nextGoogleFontApp,
  nextServerApp,
  PNPM_VERSION,
  pnpmWorkspace,
  svelteKitApp,
  viteApp,
} from './real-world-projects.ts';

/**
 * Real projects, as generators and their authors write them, built end to end by a real
 * daemon process with real installs from the npm registry. One daemon and one FORGE_HOME for the file
 * (so a package manager is fetched into its toolchains once); every project is uploaded up front and
 * the daemon builds them side by side (up to maxConcurrentBots); each `it` then waits for its own
 * project's build and asserts what a user sees: status and error, the plan and its evidence, the
 * preview. A project whose piece of the daemon is missing fails its own `it`s only.
 */

/** Longest wait for one build, queue and installs included (cold npm cache, 2 busy cores). */
const BUILD_TIMEOUT_MS = 300_000;
const TEST_TIMEOUT_MS = BUILD_TIMEOUT_MS + 30_000;
/** Lockfiles from the real pnpm/Yarn (npx fetches them once) and the daemon's start. */
const SETUP_TIMEOUT_MS = 150_000;

/** Shown by server-rendered pages only when a server renders them for this request. */
const TOKEN = `forge-${process.pid}`;

/**
 * next/font/google downloads the font CSS from fonts.googleapis.com during `next build`. So that the
 * build fails the same way on a machine that can reach Google (as it must on one that cannot), the
 * project's forge config points the proxy Next's fetch honours at a local port nobody listens on;
 * NO_PROXY keeps the install talking to the registry directly.
 */
const OFFLINE_ENV = {
  HTTPS_PROXY: 'http://127.0.0.1:1',
  NO_PROXY: [
    'registry.npmjs.org',
    ...[process.env.npm_config_registry, process.env.NPM_CONFIG_REGISTRY]
      .filter((url): url is string => !!url)
      .map((url) => new URL(url).hostname),
  ].join(','),
};

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

type ProjectName =
  | 'webpack'
  | 'sveltekit'
  | 'next'
  | 'nextFont'
  | 'workspace'
  | 'workspaceDocs'
  | 'subfolders'
  | 'vitePnpm'
  | 'viteYarn';

let daemon: DaemonProcess;
let app: TestApp;
let forgeHome: string;
const builds = {} as Record<ProjectName, Promise<Build>>;

/** The finished build of a project uploaded in beforeAll. */
const built = (name: ProjectName): Promise<Build> => builds[name];

beforeAll(async () => {
  forgeHome = tempDir('forge-real-world-home-');
  daemon = spawnDaemon(['run', '--port', '0'], {
    home: forgeHome,
    cwd: tempDir('forge-real-world-cwd-'),
    env: userPackageCaches(),
  });
  app = { url: await daemon.url } as TestApp;
  const live = await watch(app);

  const start = (zipName: string, files: ProjectFiles | Promise<ProjectFiles>): Promise<Build> => {
    const build = (async () => {
      const res = await upload(app, makeZip(zipName, await files));
      const result = (await res.json()) as UploadResult;
      if (res.status !== 200 || !result.buildId) {
        throw new Error(`upload of ${zipName} answered ${res.status}: ${JSON.stringify(result)}`);
      }
      return live.finished(result.buildId, BUILD_TIMEOUT_MS);
    })();
    // Awaited by the project's own tests; a failure must not surface as an unhandled rejection first.
    build.catch(() => undefined);
    return build;
  };
  const withLock = async (files: ProjectFiles, tool: 'pnpm' | 'yarn', dirs: string[] = ['.']) => {
    const locks = await Promise.all(dirs.map((dir) => lockfileFor(tool, files, dir)));
    const lockName = tool === 'pnpm' ? 'pnpm-lock.yaml' : 'yarn.lock';
    return {
      ...files,
      ...Object.fromEntries(dirs.map((dir, i) => [path.posix.join(dir, lockName), locks[i]!])),
    };
  };

  // Projects without a generated lockfile go first, so their installs overlap the lockfile runs.
  builds.webpack = start('new-site.zip', html5Boilerplate());
  builds.sveltekit = start('svelte-app.zip', svelteKitApp());
  builds.next = start('next-server.zip', nextServerApp());
  builds.nextFont = start('next-google-font.zip', nextGoogleFontApp(OFFLINE_ENV));
  const workspace = withLock(pnpmWorkspace(), 'pnpm');
  builds.workspace = start('acme.zip', workspace);
  builds.workspaceDocs = start(
    'acme-docs.zip',
    workspace.then((files) => ({ ...files, '.forgerc.json': json({ app: 'apps/docs' }) })),
  );
  const subfolders = withLock(appsInSubfolders(), 'yarn', ['apps/admin', 'apps/docs', 'apps/web']);
  builds.subfolders = start('acme-sites.zip', subfolders);
  const vitePnpm = withLock(viteApp('vite-pnpm', 'Vite with pnpm'), 'pnpm');
  builds.vitePnpm = start('vite-pnpm.zip', vitePnpm);
  const viteYarn = withLock(viteApp('vite-yarn', 'Vite with Yarn'), 'yarn');
  builds.viteYarn = start('vite-yarn.zip', viteYarn);
  // Setup fails as a whole (not test by test) when the lockfiles cannot be made at all.
  await Promise.all([workspace, subfolders, vitePnpm, viteYarn]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  // SIGTERM first, so the daemon stops the previews it runs; cleanup() SIGKILLs whatever is left.
  if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null) {
    daemon.child.kill('SIGTERM');
    await Promise.race([daemon.exited, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
  }
  // Removing FORGE_HOME (two Next.js installs among the rest) takes half a minute on a busy disk.
  await cleanup();
}, 120_000);

async function logLines(build: Build): Promise<string[]> {
  const res = await fetch(`${app.url}/api/builds/${build.id}/logs?limit=10000`);
  return ((await res.json()) as BuildLogsResponse).entries.map((e) => `${e.botName}: ${e.message}`);
}

/** The build, once it is known to have succeeded; otherwise fail with its error and last log lines. */
async function succeeded(name: ProjectName): Promise<Build> {
  const build = await built(name);
  if (build.status !== 'succeeded') {
    const tail = (await logLines(build)).slice(-40).join('\n');
    throw new Error(
      `${build.projectName} ${build.status} at ${build.stage}: ${JSON.stringify(build.error)}\n${tail}`,
    );
  }
  return build;
}

/** The plan BlueprintBot made for the project (whatever became of the build afterwards). */
async function planOf(name: ProjectName): Promise<Blueprint> {
  const build = await built(name);
  if (!build.blueprint) {
    throw new Error(`${build.projectName} has no plan: ${JSON.stringify(build.error)}`);
  }
  return build.blueprint;
}

async function get(url: string | URL): Promise<{ status: number; type: string; body: string }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
}

/** The preview's page, with ?name=TOKEN so a server-rendered page can show it back. */
async function previewPage(build: Build): Promise<{ url: URL; html: string }> {
  expect(build.previewUrl).toBeTruthy();
  const url = new URL(build.previewUrl!);
  url.searchParams.set('name', TOKEN);
  const page = await get(url);
  expect(page.status).toBe(200);
  expect(page.type).toMatch(/text\/html/);
  return { url, html: page.body };
}

/** `<script src=…>` of a .js file, quoted or not (html-webpack-plugin minifies the attributes). */
const SCRIPT_SRC = /<script[^>]*\ssrc=["']?([^"'\s>]+\.js)/g;

/** The page's own scripts, fetched from the preview. */
async function scriptsOf(pageUrl: URL, html: string, pattern = SCRIPT_SRC): Promise<string[]> {
  const sources = [...html.matchAll(pattern)].map((m) => m[1]!);
  expect(sources.length).toBeGreaterThan(0);
  return Promise.all(
    sources.map(async (src) => {
      const asset = await get(new URL(src, pageUrl));
      expect(asset.status, src).toBe(200);
      expect(asset.type, src).toMatch(/javascript/);
      return asset.body;
    }),
  );
}

/** Relative paths under FORGE_HOME/toolchains, where provisioned package managers live. */
function toolchainFiles(): string[] {
  const root = path.join(forgeHome, 'toolchains');
  return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).map(String) : [];
}

/** The package manager was fetched into FORGE_HOME/toolchains and its install ran with that version. */
async function expectProvisioned(build: Build, tool: 'pnpm' | 'yarn'): Promise<string> {
  const version = build.blueprint?.toolchain?.version;
  expect(version, 'the provisioned version, recorded in the plan').toMatch(/^\d+\.\d+\.\d+$/);
  // Fetched by this build, or by an earlier one and reused ("cached"): never skipped for a global one.
  expect(['succeeded', 'cached']).toContain(build.steps.find((s) => s.name === 'toolchain')?.status);
  expect(
    toolchainFiles().some((file) => file.includes(tool) && file.includes(version!)),
    `${tool} ${version} under FORGE_HOME/toolchains`,
  ).toBe(true);
  // What the tool itself printed: pnpm ends with "Done in … using pnpm vX", Yarn 1 starts with "yarn install vX".
  const banner = tool === 'pnpm' ? `using pnpm v${version}` : `yarn install v${version}`;
  expect(
    (await logLines(build)).some((line) => line.includes(banner)),
    banner,
  ).toBe(true);
  return version!;
}

const decisionFor = (bp: Blueprint, value: string) => bp.decisions.find((d) => d.value === value);

describe('real-world projects through a real daemon', { timeout: TEST_TIMEOUT_MS }, () => {
  describe("html5-boilerplate's webpack project", () => {
    it('is planned as a static webpack build to dist/; its `webpack serve` start is never run', async () => {
      const bp = await planOf('webpack');
      expect(bp).toMatchObject({
        framework: 'webpack',
        kind: 'static-build',
        packageManager: 'npm',
        outputDir: 'dist',
        start: null,
        // npm's placeholder test script is no test.
        test: null,
      });
      expect(formatCommand(bp.build!)).toMatch(/\brun build$/);
      expect(bp.decisions).toContainEqual(expect.objectContaining({ field: 'outputDir', value: 'dist' }));
      expect(bp.decisions).toContainEqual(
        expect.objectContaining({
          field: 'start',
          value: 'none',
          rule: expect.stringContaining('webpack serve'),
        }),
      );
    });

    it('builds with webpack.config.prod.js and previews the static output', async () => {
      const build = await succeeded('webpack');
      expect(build.stage).toBe('integration-available');
      expect(build.uiCheck).toMatchObject({ ok: true, hasIndexHtml: true, missingAssets: [] });
      const { url, html } = await previewPage(build);
      expect(html).toContain('Hello world! This is HTML5 Boilerplate.');
      const [script] = await scriptsOf(url, html);
      expect(script).toContain('Hello from html5-boilerplate');
      // Built by the production config, not served by webpack-dev-server.
      expect(script).not.toMatch(/webpack-dev-server|webpackHotUpdate/);
      expect((await get(new URL('css/style.css', url))).type).toMatch(/text\/css/);
      expect((await get(new URL('robots.txt', url))).status).toBe(200);
    });
  });

  describe('SvelteKit as `sv create` writes it (adapter-auto)', () => {
    it("is planned as a server previewed with the framework's own `vite preview` on Forge's port", async () => {
      const bp = await planOf('sveltekit');
      expect(bp).toMatchObject({ framework: 'sveltekit', kind: 'server', packageManager: 'npm' });
      expect(formatCommand(bp.build!)).toMatch(/\brun build$|vite build/);
      expect(formatCommand(bp.start!)).toMatch(/vite preview|run preview/);
      // The evidence: adapter-auto targets hosting platforms, so the framework's preview serves it.
      expect(bp.decisions.some((d) => `${d.value} ${d.rule}`.includes('adapter-auto'))).toBe(true);
    });

    it('builds and answers server-rendered pages from the preview', async () => {
      const build = await succeeded('sveltekit');
      const { url, html } = await previewPage(build);
      expect(html).toContain('Welcome to SvelteKit');
      expect(html).toContain(`Hello, ${TOKEN}`);
      expect(html).toContain('__sveltekit');
      // The hydration script imports its entries: import("./_app/immutable/entry/start.….js").
      await scriptsOf(url, html, /["']((?:\.\/|\/)?_app\/immutable\/[^"']+\.js)["']/g);
    });
  });

  describe("Next.js without output: 'export'", () => {
    it('is planned as `next build`, then `next start` as a server app', async () => {
      const bp = await planOf('next');
      expect(bp).toMatchObject({ framework: 'next', kind: 'server', packageManager: 'npm', outputDir: null });
      expect(formatCommand(bp.build!)).toMatch(/\brun build$|next build/);
      expect(formatCommand(bp.start!)).toMatch(/\brun start$|\bnpm start$|next start/);
    });

    it('serves pages rendered by `next start` on the port Forge gave it', async () => {
      const build = await succeeded('next');
      const { url, html } = await previewPage(build);
      expect(html).toContain('Next.js on Forge');
      expect(html).toContain(`Hello, ${TOKEN}`);
      await scriptsOf(url, html, /src="(\/_next\/static\/[^"]+\.js)"/g);
    });
  });

  describe('Next.js with next/font/google on a machine without internet', () => {
    it("fails the build with the font error as its first line, not only npm's exit code", async () => {
      const build = await built('nextFont');
      expect(build.blueprint?.env).toMatchObject({ HTTPS_PROXY: OFFLINE_ENV.HTTPS_PROXY });
      expect(build).toMatchObject({ status: 'failed', stage: 'build-failed', previewUrl: null });
      expect(build.error?.code).toBe('BUILD_FAILED');
      // Turbopack prints "Error: next/font: error:" then "Failed to fetch Geist from Google Fonts.".
      expect(build.error?.firstLine).toMatch(/Failed to fetch .*Geist.* from Google Fonts|next\/font/);
      expect(build.error?.firstLine).not.toMatch(/exited with code/);
    });
  });

  describe('a pnpm workspace: apps/web (Vite) uses packages/ui, which has its own build', () => {
    it('lists the apps, and says it chose apps/web and why', async () => {
      const bp = await planOf('workspace');
      expect(bp).toMatchObject({
        framework: 'vite',
        kind: 'static-build',
        packageManager: 'pnpm',
        appDir: 'apps/web',
        installDir: '.',
      });
      expect([...bp.apps].sort((a, b) => a.dir.localeCompare(b.dir))).toEqual([
        expect.objectContaining({ dir: 'apps/docs', name: 'docs', framework: 'vite', kind: 'static-build' }),
        expect.objectContaining({ dir: 'apps/web', name: 'web', framework: 'vite', kind: 'static-build' }),
      ]);
      expect(decisionFor(bp, 'apps/web')?.rule).toBeTruthy();
      expect(bp.toolchain).toMatchObject({
        tool: 'pnpm',
        package: 'pnpm',
        request: PNPM_VERSION,
        source: 'packageManager',
        file: 'package.json',
      });
    });

    it('builds packages/ui, then apps/web with it, with the pnpm that packageManager names', async () => {
      const build = await succeeded('workspace');
      expect(await expectProvisioned(build, 'pnpm')).toBe(PNPM_VERSION);
      const { url, html } = await previewPage(build);
      expect(html).toContain('<title>Acme web</title>');
      const scripts = await scriptsOf(url, html);
      expect(scripts.join('\n')).toContain('Hello from @acme/ui to');
    });

    it('builds apps/docs instead when the forge config says `app: apps/docs`', async () => {
      const bp = await planOf('workspaceDocs');
      expect(bp).toMatchObject({ appDir: 'apps/docs', installDir: '.', packageManager: 'pnpm' });
      expect(decisionFor(bp, 'apps/docs')).toMatchObject({ file: '.forgerc.json' });
      const build = await succeeded('workspaceDocs');
      const { html } = await previewPage(build);
      expect(html).toContain('<title>Acme docs</title>');
    });
  });

  describe('apps in subfolders without a workspace, each with its own yarn.lock (Yarn classic)', () => {
    it('lists the three apps and plans to build the chosen one in its own folder', async () => {
      const bp = await planOf('subfolders');
      expect([...bp.apps].sort((a, b) => a.dir.localeCompare(b.dir))).toEqual(
        ['admin', 'docs', 'web'].map((name) =>
          expect.objectContaining({ dir: `apps/${name}`, name, framework: 'vite', kind: 'static-build' }),
        ),
      );
      expect(['apps/admin', 'apps/docs', 'apps/web']).toContain(bp.appDir);
      expect(decisionFor(bp, bp.appDir)?.rule).toBeTruthy();
      expect(bp).toMatchObject({ framework: 'vite', kind: 'static-build', packageManager: 'yarn' });
      // Its own install: the app's folder, with its own lockfile.
      expect(bp.installDir).toBe(bp.appDir);
      expect(bp.toolchain).toMatchObject({ tool: 'yarn', package: 'yarn', source: 'lockfile' });
      expect(bp.toolchain?.file).toMatch(/yarn\.lock$/);
    });

    it('builds it with Yarn 1 fetched into FORGE_HOME/toolchains, not a global yarn', async () => {
      const build = await succeeded('subfolders');
      expect(await expectProvisioned(build, 'yarn')).toMatch(/^1\./);
      const chosen = path.posix.basename(build.blueprint!.appDir);
      const { url, html } = await previewPage(build);
      expect(html).toContain(`<title>Acme ${chosen}</title>`);
      expect((await scriptsOf(url, html)).join('\n')).toContain(`Hello from Acme ${chosen}`);
    });
  });

  describe.each([
    { name: 'vitePnpm', tool: 'pnpm', lockfile: 'pnpm-lock.yaml', heading: 'Vite with pnpm' },
    { name: 'viteYarn', tool: 'yarn', lockfile: 'yarn.lock', heading: 'Vite with Yarn' },
  ] as const)('a Vite app with $lockfile', ({ name, tool, lockfile, heading }) => {
    it(`is planned with ${tool}, from its lockfile`, async () => {
      const bp = await planOf(name);
      expect(bp).toMatchObject({
        framework: 'vite',
        kind: 'static-build',
        packageManager: tool,
        outputDir: 'dist',
        toolchain: { tool, source: 'lockfile', file: lockfile },
      });
    });

    it(`builds with ${tool} provisioned by Forge and previews the output`, async () => {
      const build = await succeeded(name);
      await expectProvisioned(build, tool);
      const { url, html } = await previewPage(build);
      expect(html).toContain(`<title>${heading}</title>`);
      expect((await scriptsOf(url, html)).join('\n')).toContain(`Hello from ${heading}`);
    });
  });

  it('fetches each package manager into the shared FORGE_HOME once, however many projects use it', async () => {
    const all = await Promise.allSettled(Object.values(builds));
    const fetches = new Map<string, number>();
    for (const result of all) {
      if (result.status !== 'fulfilled') continue;
      const tool = result.value.blueprint?.toolchain;
      const step = result.value.steps.find((s) => s.name === 'toolchain');
      if (!tool?.version || step?.status !== 'succeeded') continue;
      const key = `${tool.package}@${tool.version}`;
      fetches.set(key, (fetches.get(key) ?? 0) + 1);
    }
    // FORGE_HOME starts empty: pnpm and Yarn 1 were each fetched by one build and reused by the rest.
    expect([...fetches.keys()].some((key) => key.startsWith('pnpm@'))).toBe(true);
    expect([...fetches.keys()].some((key) => key.startsWith('yarn@1.'))).toBe(true);
    expect(
      [...fetches.values()].every((count) => count === 1),
      JSON.stringify([...fetches]),
    ).toBe(true);
  });
});
