import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCommand, type Build } from '@forge/shared';
import { makeZip } from '../build-helpers.ts';
import { RealDaemon, blueprintOf, get, lastDecision, type CliRun } from './harness.ts';
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

type ProjectName =
  'astro' | 'nuxt' | 'nuxtSite' | 'solid' | 'tanstack' | 'reactRouter' | 'reactRouterSpa' | 'qwik' | 'chat';

let daemon: RealDaemon;
const builds = {} as Record<ProjectName, Promise<Build>>;
/** `forge upload solid-app.zip --wait --json`: its exit code and its one JSON document. */
let cli: Promise<CliRun>;

beforeAll(async () => {
  daemon = await RealDaemon.start('server-frameworks', { buildTimeoutMs: BUILD_TIMEOUT_MS });
  // The biggest installs first, so they overlap the rest.
  builds.nuxt = daemon.build('nuxt-app.zip', nuxtServerApp());
  builds.nuxtSite = daemon.build('nuxt-site.zip', nuxtGeneratedSite());
  builds.qwik = daemon.build('qwik-express.zip', qwikExpressApp());
  builds.tanstack = daemon.build('tanstack-start.zip', tanstackStartApp());
  builds.astro = daemon.build('astro-node.zip', astroNodeApp());
  builds.reactRouter = daemon.build('react-router-ssr.zip', reactRouterSsrApp());
  builds.reactRouterSpa = daemon.build('react-router-spa.zip', reactRouterSpaApp());
  builds.chat = daemon.build('chat.zip', chatServerApp());
  // The SolidStart app is uploaded as a user would, with the built CLI; its JSON names the build.
  cli = daemon.forge(['upload', makeZip('solid-app.zip', solidStartApp()), '--wait', '--json']);
  builds.solid = daemon.buildOf(cli);
  builds.solid.catch(() => undefined);
}, 120_000);

afterAll(() => daemon.stop(), 120_000);

const succeeded = (name: ProjectName) => daemon.ended(builds[name]);
const planOf = (name: ProjectName) => blueprintOf(builds[name]);

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
const decisionOf = lastDecision;

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
