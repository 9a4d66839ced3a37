import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CliBuildResult,
  formatCommand,
  type Blueprint,
  type Build,
  type BuildLogsResponse,
  type UploadResult,
} from '@forge/shared';
import { cleanEnv, type ProjectFiles } from '@forge/testing';
import { cleanup, tempDir, userPackageCaches, type TestApp } from '../helpers.ts';
import { makeZip, upload, watch } from '../build-helpers.ts';
import { spawnDaemon, type DaemonProcess } from '../process-helpers.ts';
import {
  astroNodeApp,
  chatServerApp,
  nuxtGeneratedSite,
  nuxtServerApp,
  qwikExpressApp,
  reactRouterSpaApp,
  reactRouterSsrApp,
  solidStartApp,
  tanstackStartApp,
} from './server-framework-projects.ts';

/**
 * Server-capable frameworks as their generators write them, built end to end by one real daemon
 * with real installs from the npm registry: each is planned where the framework writes (a Node
 * server started with PORT and HOST, or the folder of a static build) with its evidence, and its
 * preview answers with what only that server, rendering this request, can know. The SolidStart app
 * goes through the built `forge` CLI for its exit code.
 */

/** Longest wait for one build, queue and installs included (cold npm cache, 2 busy cores). */
const BUILD_TIMEOUT_MS = 360_000;
const TEST_TIMEOUT_MS = BUILD_TIMEOUT_MS + 30_000;

/** Shown only by a server that rendered this request: a static file in its place cannot know it. */
const TOKEN = `forge-${process.pid}-${Date.now().toString(36)}`;

const REPO = path.resolve(import.meta.dirname, '../../../..');
const FORGE_BIN = path.join(REPO, 'packages/cli/bin/forge.js');

type ProjectName =
  'astro' | 'nuxt' | 'nuxtSite' | 'solid' | 'tanstack' | 'reactRouter' | 'reactRouterSpa' | 'qwik' | 'chat';

let daemon: DaemonProcess;
let app: TestApp;
const builds = {} as Record<ProjectName, Promise<Build>>;
/** `forge upload solid-app.zip --wait --json`: its exit code and its one JSON document. */
let cli: Promise<{ code: number | null; stdout: string; stderr: string }>;

beforeAll(async () => {
  daemon = spawnDaemon(['run', '--port', '0'], {
    home: tempDir('forge-server-frameworks-home-'),
    cwd: tempDir('forge-server-frameworks-cwd-'),
    env: userPackageCaches(),
  });
  app = { url: await daemon.url } as TestApp;
  const live = await watch(app);

  const start = (zipName: string, files: ProjectFiles): Promise<Build> => {
    const build = (async () => {
      const res = await upload(app, makeZip(zipName, files));
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

  // The biggest installs first, so they overlap the rest.
  builds.nuxt = start('nuxt-app.zip', nuxtServerApp());
  builds.nuxtSite = start('nuxt-site.zip', nuxtGeneratedSite());
  builds.qwik = start('qwik-express.zip', qwikExpressApp());
  builds.tanstack = start('tanstack-start.zip', tanstackStartApp());
  builds.astro = start('astro-node.zip', astroNodeApp());
  builds.reactRouter = start('react-router-ssr.zip', reactRouterSsrApp());
  builds.reactRouterSpa = start('react-router-spa.zip', reactRouterSpaApp());
  builds.chat = start('chat.zip', chatServerApp());

  // The SolidStart app is uploaded as a user would, with the built CLI; its JSON names the build.
  const zip = makeZip('solid-app.zip', solidStartApp());
  cli = new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FORGE_BIN, 'upload', zip, '--wait', '--json', '--url', app.url], {
      env: cleanEnv({ NO_COLOR: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  builds.solid = cli.then(async (result) => {
    const parsed = CliBuildResult.safeParse(JSON.parse(result.stdout || 'null'));
    if (!parsed.success)
      throw new Error(`forge upload exited ${result.code}: ${result.stdout}\n${result.stderr}`);
    return (await (await fetch(`${app.url}/api/builds/${parsed.data.buildId}`)).json()) as Build;
  });
  builds.solid.catch(() => undefined);
}, 120_000);

afterAll(async () => {
  // SIGTERM first, so the daemon stops the servers it runs; cleanup() SIGKILLs whatever is left.
  if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null) {
    daemon.child.kill('SIGTERM');
    await Promise.race([daemon.exited, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
  }
  await cleanup();
}, 120_000);

async function logLines(build: Build): Promise<string[]> {
  const res = await fetch(`${app.url}/api/builds/${build.id}/logs?limit=10000`);
  return ((await res.json()) as BuildLogsResponse).entries.map((e) => `${e.botName}: ${e.message}`);
}

/** The build, once it is known to have succeeded; otherwise fail with its error and last log lines. */
async function succeeded(name: ProjectName): Promise<Build> {
  const build = await builds[name];
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
  const build = await builds[name];
  if (!build.blueprint) throw new Error(`${build.projectName} has no plan: ${JSON.stringify(build.error)}`);
  return build.blueprint;
}

async function get(url: string | URL): Promise<{ status: number; type: string; body: string }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
}

/** The preview's page at `pathname`, with ?name=TOKEN so a server-rendered page can show it back. */
async function previewPage(build: Build, pathname = '/'): Promise<{ url: URL; html: string }> {
  expect(build.previewUrl).toBeTruthy();
  const url = new URL(pathname, build.previewUrl!);
  url.searchParams.set('name', TOKEN);
  const page = await get(url);
  expect(page.status, `${url}`).toBe(200);
  expect(page.type).toMatch(/text\/html/);
  return { url, html: page.body };
}

/** Every `<script src>` and modulepreload of the page answers with JavaScript from the preview. */
async function expectScripts(url: URL, html: string): Promise<void> {
  const sources = [
    ...html.matchAll(/<script[^>]*\ssrc="([^"]+\.m?js)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1]!);
  expect(sources.length, 'the page loads scripts').toBeGreaterThan(0);
  for (const src of sources.slice(0, 5)) {
    const asset = await get(new URL(src, url));
    expect(asset.status, src).toBe(200);
    expect(asset.type, src).toMatch(/javascript/);
  }
}

/** Decisions as `field=value [file] rule`, for assertions that read like the plan `forge plan` prints. */
const decisionOf = (bp: Blueprint, field: string) => bp.decisions.filter((d) => d.field === field).at(-1);

/** A server app: started with PORT and HOST=127.0.0.1, answering on the port Forge gave it. */
function expectServerPreview(build: Build): void {
  const step = build.steps.find((s) => s.name === 'preview');
  expect(step?.status).toBe('succeeded');
  expect(build.previewUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
}

describe('server-capable frameworks through a real daemon', { timeout: TEST_TIMEOUT_MS }, () => {
  describe('SolidStart 1 (vinxi) with its icons in public/', () => {
    it('is planned as its Nitro server, started by its `vinxi start` script', async () => {
      const bp = await planOf('solid');
      expect(bp).toMatchObject({
        framework: 'solid-start',
        kind: 'server',
        outputDir: null,
        start: ['npm', 'run', 'start'],
      });
      expect(decisionOf(bp, 'framework')).toMatchObject({
        file: 'app.config.ts',
        rule: expect.stringContaining('@solidjs/start in dependencies with vinxi in dependencies'),
      });
      expect(decisionOf(bp, 'start')).toMatchObject({
        value: 'npm run start',
        rule: '"start" script: vinxi start',
      });
      expect(bp.decisions.map((d) => d.value)).not.toContain('public');
    });

    it('`forge upload --wait --json` exits 0, and the server renders this request', async () => {
      const result = await cli;
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ projectName: 'solid-app', status: 'succeeded' });
      const build = await succeeded('solid');
      expectServerPreview(build);
      const { url, html } = await previewPage(build);
      expect(html).toContain('Hello from SolidStart');
      expect(html).toMatch(new RegExp(`Hello, (<!--\\$-->|<!--!\\$-->)?${TOKEN}`));
      await expectScripts(url, html);
      expect((await get(new URL('/icon-192.png', url))).status).toBe(200);
    });
  });

  describe('Nuxt 4 (the minimal template)', () => {
    it('is planned as `nuxt build`, then node .output/server/index.mjs', async () => {
      const bp = await planOf('nuxt');
      expect(bp).toMatchObject({
        framework: 'nuxt',
        kind: 'server',
        build: ['npm', 'run', 'build'],
        start: ['node', '.output/server/index.mjs'],
      });
      expect(decisionOf(bp, 'framework')).toMatchObject({ file: 'nuxt.config.ts' });
      expect(decisionOf(bp, 'start')?.rule).toContain('listens on PORT and HOST');
    });

    it('answers pages its Nitro server renders', async () => {
      const build = await succeeded('nuxt');
      expectServerPreview(build);
      const { url, html } = await previewPage(build);
      expect(html).toContain('Nuxt on Forge');
      expect(html).toContain(`Hello, ${TOKEN}`);
      await expectScripts(url, html);
    });
  });

  describe('a Nuxt site whose build script is `nuxt generate`', () => {
    it('is planned as a static build to .output/public', async () => {
      const bp = await planOf('nuxtSite');
      expect(bp).toMatchObject({
        framework: 'nuxt-static',
        kind: 'static-build',
        outputDir: '.output/public',
        start: null,
      });
      expect(decisionOf(bp, 'framework')).toMatchObject({
        file: 'package.json',
        rule: expect.stringContaining('"build" script runs nuxt generate'),
      });
    });

    it('previews the prerendered page', async () => {
      const build = await succeeded('nuxtSite');
      const { url, html } = await previewPage(build);
      expect(html).toContain('A generated Nuxt site');
      expect(html).toContain('4 planets, rendered Mercury → Venus → Earth → Mars');
      await expectScripts(url, html);
    });
  });

  describe('Astro with @astrojs/node', () => {
    it("is planned as the adapter's standalone server", async () => {
      const bp = await planOf('astro');
      expect(bp).toMatchObject({
        framework: 'astro',
        kind: 'server',
        start: ['node', 'dist/server/entry.mjs'],
      });
      expect(decisionOf(bp, 'framework')).toMatchObject({
        file: 'astro.config.mjs',
        rule: expect.stringContaining('adapter: @astrojs/node in astro.config.mjs'),
      });
    });

    it('renders the on-demand page for this request and serves the prerendered one', async () => {
      const build = await succeeded('astro');
      expectServerPreview(build);
      const { url, html } = await previewPage(build);
      expect(html).toContain(`Hello, ${TOKEN}`);
      const about = await get(new URL('/about/', url));
      expect(about.body).toContain('About this prerendered page');
    });
  });

  describe('TanStack Start 1.131 (Nitro inside its Vite plugin)', () => {
    it('is planned as the Nitro server in .output, started by its start script', async () => {
      const bp = await planOf('tanstack');
      expect(bp).toMatchObject({
        framework: 'tanstack-start',
        kind: 'server',
        start: ['npm', 'run', 'start'],
      });
      expect(decisionOf(bp, 'framework')?.rule).toContain('releases before 1.132.0 build a Nitro server');
      expect(formatCommand(bp.build!)).toBe('npm run build');
    });

    it('runs the loader on the server for the first request', async () => {
      const build = await succeeded('tanstack');
      expectServerPreview(build);
      const { html } = await previewPage(build);
      expect(html).toContain('TanStack Start on Forge');
      expect(html).toContain(`Hello, ${TOKEN}`);
      expect(html).toMatch(/Rendered (<!-- -->)?on the server/);
    });
  });

  describe('React Router 7, server rendering', () => {
    it('is planned as react-router-serve through its start script', async () => {
      const bp = await planOf('reactRouter');
      expect(bp).toMatchObject({
        framework: 'react-router',
        kind: 'server',
        start: ['npm', 'run', 'start'],
        outputDir: null,
      });
      expect(decisionOf(bp, 'framework')).toMatchObject({
        file: 'react-router.config.ts',
        rule: expect.stringContaining('ssr: true in react-router.config.ts'),
      });
    });

    it("answers with the loader's data for this request", async () => {
      const build = await succeeded('reactRouter');
      expectServerPreview(build);
      const { url, html } = await previewPage(build);
      expect(html).toContain('React Router on Forge');
      expect(html).toMatch(new RegExp(`Hello, (<!-- -->)?${TOKEN}`));
      await expectScripts(url, html);
    });
  });

  describe('React Router 7 in SPA mode (ssr: false)', () => {
    it('is planned as a static single-page app in build/client, its template start unused', async () => {
      const bp = await planOf('reactRouterSpa');
      expect(bp).toMatchObject({
        framework: 'react-router-spa',
        kind: 'static-build',
        outputDir: 'build/client',
        start: null,
      });
      expect(decisionOf(bp, 'outputDir')).toMatchObject({
        value: 'build/client',
        file: 'react-router.config.ts',
      });
      expect(bp.decisions).toContainEqual(
        expect.objectContaining({
          field: 'start',
          value: 'none',
          rule: expect.stringContaining('react-router-serve'),
        }),
      );
    });

    it('previews its index.html, for deep links too', async () => {
      const build = await succeeded('reactRouterSpa');
      const { url, html } = await previewPage(build);
      expect(html).toContain('Loading react-router-spa…');
      await expectScripts(url, html);
      const deep = await previewPage(build, '/about');
      expect(deep.html).toContain('Loading react-router-spa…');
    });
  });

  describe('Qwik City with the Express adapter', () => {
    it('is planned as `qwik build`, then its "serve" script (not the dev-server start)', async () => {
      const bp = await planOf('qwik');
      expect(bp).toMatchObject({
        framework: 'qwik',
        kind: 'server',
        build: ['npm', 'run', 'build'],
        start: ['npm', 'run', 'serve'],
      });
      expect(decisionOf(bp, 'framework')?.rule).toContain('adapters/express/');
    });

    it("answers with the route loader's value for this request", async () => {
      const build = await succeeded('qwik');
      expectServerPreview(build);
      const { html } = await previewPage(build);
      expect(html).toContain('Qwik City on Forge');
      expect(html).toMatch(new RegExp(`Hello, (<!--[^>]*-->)*${TOKEN}`));
    });
  });

  describe('a chat server with a Vite client built into public/', () => {
    it('is planned as a server app: build the client, then `node index start`', async () => {
      const bp = await planOf('chat');
      expect(bp).toMatchObject({
        framework: 'express',
        kind: 'server',
        build: ['npm', 'run', 'build'],
        start: ['npm', 'run', 'start'],
      });
      expect(decisionOf(bp, 'framework')).toMatchObject({
        file: 'package.json',
        rule: expect.stringContaining('runs a Node server (node index start)'),
      });
    });

    it('serves its client with the server behind it', async () => {
      const build = await succeeded('chat');
      expectServerPreview(build);
      const { url, html } = await previewPage(build);
      expect(html).toContain(`Hello, ${TOKEN}`);
      await expectScripts(url, html);
      const api = await get(new URL('/api/messages', url));
      expect(JSON.parse(api.body)).toEqual([{ from: 'server', text: 'Welcome to the chat' }]);
    });
  });
});
