import path from 'node:path';
import type { SiteRule, StaticSite } from '@forge/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../../test/support/checks-tree.ts';
import { startStaticPreview, type StaticPreview } from './static-server.ts';
import { rawRequest } from '../../../test/support/preview-apps.ts';

/** How a static preview answers a multi-page site, a single-page app, and a site's own rules. */

let base: string;
let cleanup: () => Promise<void>;
let preview: StaticPreview | undefined;

beforeEach(async () => {
  ({ dir: base, cleanup } = await tempDir('forge-site-'));
});
afterEach(async () => {
  await preview?.close();
  preview = undefined;
  await cleanup();
});

const SITE = {
  'index.html': '<h1>Home page</h1>',
  'edit.html': '<h1>Edit page</h1>',
  'docs/index.html': '<h1>Docs index</h1>',
  'docs/guide.html': '<h1>Guide</h1>',
  '404.html': '<h1>Our own not-found page</h1>',
  'assets/app.js': 'console.log(1)',
};

const pages = (overrides: Partial<StaticSite> = {}): StaticSite => ({
  spa: false,
  cleanUrls: false,
  trailingSlash: null,
  rules: [],
  ...overrides,
});

async function serve(files: Record<string, string>, site: StaticSite | null, spaFallback?: boolean) {
  const root = path.join(base, 'out');
  await writeTree(root, files);
  preview = await startStaticPreview({
    root,
    site,
    ...(spaFallback !== undefined ? { spaFallback } : {}),
  });
  return preview;
}

const get = (p: string, method = 'GET') => rawRequest(preview!.url, p, { method });

const rule = (from: string, to: string, status: number, extra: Partial<SiteRule> = {}): SiteRule => ({
  from,
  to,
  status,
  force: false,
  except: [],
  query: {},
  source: '_redirects:1',
  ...extra,
});

describe('a multi-page site', () => {
  beforeEach(() => serve(SITE, pages()));

  it('answers /edit with edit.html, and /docs/ with docs/index.html', async () => {
    expect(await get('/edit')).toMatchObject({ status: 200, body: '<h1>Edit page</h1>' });
    expect(await get('/docs/')).toMatchObject({ status: 200, body: '<h1>Docs index</h1>' });
    expect(await get('/docs/guide')).toMatchObject({ status: 200, body: '<h1>Guide</h1>' });
    expect(await get('/edit.html')).toMatchObject({ status: 200, body: '<h1>Edit page</h1>' });
  });

  it('redirects /docs to /docs/ (relative links), and /edit/ to /edit, keeping the query', async () => {
    const docs = await get('/docs?x=1');
    expect(docs.status).toBe(301);
    expect(docs.headers.location).toBe('/docs/?x=1');
    const edit = await get('/edit/');
    expect(edit.status).toBe(301);
    expect(edit.headers.location).toBe('/edit');
  });

  it("answers an unknown path with the site's own 404.html and status 404, and an unknown asset too", async () => {
    for (const p of ['/nope', '/docs/nope', '/assets/missing.js']) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(res.body, p).toBe('<h1>Our own not-found page</h1>');
      expect(res.headers['content-type'], p).toMatch(/text\/html/);
      expect(res.headers.etag, p).toBeUndefined();
    }
    const head = await get('/nope', 'HEAD');
    expect(head).toMatchObject({ status: 404, body: '' });
  });

  it('never becomes a 304 or a 206 for the 404 page', async () => {
    const res = await rawRequest(preview!.url, '/nope', {
      headers: { range: 'bytes=0-3', 'if-none-match': '*' },
    });
    expect(res.status).toBe(404);
    expect(res.body).toBe('<h1>Our own not-found page</h1>');
  });
});

it('a multi-page site without a 404.html answers a plain Not Found', async () => {
  await serve({ 'index.html': 'home', 'about.html': 'about' }, pages());
  expect(await get('/nope')).toMatchObject({ status: 404, body: 'Not Found\n' });
});

describe('a single-page app', () => {
  it('answers a deep link with index.html, an unknown asset with 404', async () => {
    await serve({ 'index.html': '<div id="app"></div>', 'assets/app.js': 'x' }, pages({ spa: true }));
    expect(await get('/users/42/edit')).toMatchObject({ status: 200, body: '<div id="app"></div>' });
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('keeps the fallback for a plan made before Forge decided (no site), unless told otherwise', async () => {
    await serve({ 'index.html': 'app' }, null);
    expect(await get('/deep/link')).toMatchObject({ status: 200, body: 'app' });
    await preview!.close();
    await serve({ 'index.html': 'app' }, null, false);
    expect((await get('/deep/link')).status).toBe(404);
  });
});

describe("a site's rules", () => {
  it('reads _redirects from the served folder: redirects, rewrites with placeholders and splats, query', async () => {
    await serve(
      {
        ...SITE,
        _redirects: [
          '# comment',
          '/old-edit    /edit      301',
          '/blog/:year/:slug   /docs/:slug  302',
          '/news/*      /docs/:splat   200',
          '/store id=:id   /docs/:id  301',
          '/api/*  https://api.example.com/:splat  200',
          '/fr/*  /fr/index.html  200  Language=fr',
          '/gone  /404.html  410',
        ].join('\n'),
      },
      pages(),
    );
    const moved = await get('/old-edit?ref=x');
    expect(moved).toMatchObject({
      status: 301,
      headers: expect.objectContaining({ location: '/edit?ref=x' }),
    });
    expect((await get('/blog/2024/guide')).headers.location).toBe('/docs/guide');
    expect(await get('/news/guide')).toMatchObject({ status: 200, body: '<h1>Guide</h1>' });
    expect((await get('/store?id=guide')).headers.location).toBe('/docs/guide?id=guide');
    expect((await get('/store')).status).toBe(404);
    expect(await get('/gone')).toMatchObject({ status: 410, body: '<h1>Our own not-found page</h1>' });
    // Ignored: a proxy to another host, a condition on the language. Listed for the log.
    expect((await get('/api/x')).status).toBe(404);
    expect(preview!.site.ignored.map((i) => i.why)).toEqual([
      expect.stringContaining('proxies to api.example.com'),
      expect.stringContaining('Language'),
    ]);
    expect(preview!.site).toMatchObject({ redirectsFile: '_redirects', rules: 5, spa: false });
  });

  it('a file shadows a rule unless it is forced with "!"', async () => {
    await serve({ ...SITE, _redirects: '/edit  /docs/guide  200\n/docs/guide  /edit  302!\n' }, pages());
    expect(await get('/edit')).toMatchObject({ status: 200, body: '<h1>Edit page</h1>' });
    expect((await get('/docs/guide')).headers.location).toBe('/edit');
  });

  it('`/* /index.html 200` makes a multi-page plan answer every unknown path with the app', async () => {
    await serve({ ...SITE, _redirects: '/*  /index.html  200\n' }, pages());
    expect(await get('/anything/deep')).toMatchObject({ status: 200, body: '<h1>Home page</h1>' });
    expect(await get('/edit')).toMatchObject({ status: 200, body: '<h1>Edit page</h1>' });
  });

  it('never redirects to another host, whatever the path holds', async () => {
    await serve({ ...SITE, _redirects: '/go/*  /:splat  301\n' }, pages());
    for (const p of ['/go//evil.example/x', '/go/%2F%2Fevil.example']) {
      const res = await get(p);
      expect(res.status, p).toBe(301);
      expect(res.headers.location, p).toMatch(/^\/[^/\\]/);
    }
    // A backslash is refused before any rule is read.
    expect((await get('/go/%5Cevil.example')).status).toBe(400);
  });

  it('applies vercel.json rules from the plan: redirects before files, rewrites after, cleanUrls, trailingSlash', async () => {
    await serve(
      SITE,
      pages({
        cleanUrls: true,
        trailingSlash: false,
        rules: [
          rule('/edit', '/docs/guide', 308, { force: true, source: 'vercel.json redirects[0]' }),
          rule('/app/:path*', '/index.html', 200, { source: 'vercel.json rewrites[0]' }),
          rule('/:1*', '/index.html', 200, { except: ['api/', 'assets'], source: 'vercel.json rewrites[1]' }),
        ],
      }),
    );
    expect((await get('/edit')).headers.location).toBe('/docs/guide');
    expect(await get('/app/x/y')).toMatchObject({ status: 200, body: '<h1>Home page</h1>' });
    const clean = await get('/docs/guide.html');
    expect(clean).toMatchObject({
      status: 308,
      headers: expect.objectContaining({ location: '/docs/guide' }),
    });
    expect((await get('/docs/index.html')).headers.location).toBe('/docs');
    expect(await get('/docs')).toMatchObject({ status: 200, body: '<h1>Docs index</h1>' });
    expect((await get('/docs/')).headers.location).toBe('/docs');
    // The catch-all rewrite leaves api/ and assets alone.
    expect(await get('/somewhere')).toMatchObject({ status: 200, body: '<h1>Home page</h1>' });
    expect((await get('/api/users')).status).toBe(404);
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('trailingSlash true adds the slash to a page path, not to a file', async () => {
    await serve(SITE, pages({ trailingSlash: true }));
    expect((await get('/edit')).headers.location).toBe('/edit/');
    expect(await get('/edit/')).toMatchObject({ status: 200, body: '<h1>Edit page</h1>' });
    expect((await get('/assets/app.js')).status).toBe(200);
  });
});
