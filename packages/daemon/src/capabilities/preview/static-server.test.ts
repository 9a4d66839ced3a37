import fs from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir, writeTree } from '../../../test/support/checks-tree.ts';
import { startStaticPreview, type StaticPreview } from './static-server.ts';
import { rawRequest, refusesConnections } from '../../../test/support/preview-apps.ts';

const SECRET = 'TOP-SECRET-OUTSIDE-CONTENT';
const INDEX = '<!doctype html><title>app</title><script src="/assets/app.js"></script>';

let base: string;
let root: string;
let cleanup: () => Promise<void>;
let preview: StaticPreview | undefined;

beforeEach(async () => {
  ({ dir: base, cleanup } = await tempDir('forge-preview-'));
  root = path.join(base, 'dist');
  await writeTree(base, {
    'secret.txt': SECRET,
    'outside/secret.txt': SECRET,
    'outside/index.html': SECRET,
  });
  await writeTree(root, {
    'index.html': INDEX,
    'assets/app.js': 'console.log("app")',
    'assets/style.css': 'body{}',
    'assets/data.json': '{}',
    'logo.svg': '<svg/>',
    'favicon.ico': 'ico',
    'fonts/a.woff2': 'woff2',
    'docs/index.html': '<p>docs</p>',
    'big.bin': Buffer.alloc(8 * 1024 * 1024, 7),
    '.env': `TOKEN=${SECRET}`,
    '.git/config': SECRET,
    'assets/.hidden.js': SECRET,
  });
  await symlink(path.join(base, 'secret.txt'), path.join(root, 'leak.txt'));
  await symlink(path.join(base, 'outside'), path.join(root, 'leakdir'));
  await symlink('assets/app.js', path.join(root, 'alias.js'));
  await symlink('.env', path.join(root, 'env.txt'));
  preview = await startStaticPreview({ root });
});

afterEach(async () => {
  await preview?.close();
  preview = undefined;
  await cleanup();
});

const get = (p: string, options?: Parameters<typeof rawRequest>[2]) => rawRequest(preview!.url, p, options);

describe('startStaticPreview', () => {
  it('listens on its own loopback port', () => {
    expect(preview!.url).toBe(`http://127.0.0.1:${preview!.port}`);
    expect(preview!.port).toBeGreaterThan(0);
  });

  it('serves index.html and assets with their content types and safe headers', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.body).toBe(INDEX);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['access-control-allow-origin']).toBeUndefined();

    const types: Record<string, string> = {
      '/assets/app.js': 'text/javascript; charset=utf-8',
      '/assets/style.css': 'text/css; charset=utf-8',
      '/assets/data.json': 'application/json; charset=utf-8',
      '/logo.svg': 'image/svg+xml',
      '/favicon.ico': 'image/vnd.microsoft.icon',
      '/fonts/a.woff2': 'font/woff2',
      '/index.html': 'text/html; charset=utf-8',
    };
    for (const [p, type] of Object.entries(types)) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers['content-type'], p).toBe(type);
    }
    const js = await get('/assets/app.js?v=123');
    expect(js.body).toBe('console.log("app")');
    expect(js.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(js.headers['content-length']).toBe(String('console.log("app")'.length));
  });

  it('answers byte ranges: 206 with the bytes asked for, suffix ranges, 416 past the end', async () => {
    const body = 'console.log("app")';
    const first = await get('/assets/app.js', { headers: { Range: 'bytes=0-6' } });
    expect(first.status).toBe(206);
    expect(first.body).toBe(body.slice(0, 7));
    expect(first.headers['content-range']).toBe(`bytes 0-6/${body.length}`);
    expect(first.headers['content-type']).toBe('text/javascript; charset=utf-8');

    const last = await get('/assets/app.js', { headers: { Range: 'bytes=-5' } });
    expect(last.status).toBe(206);
    expect(last.body).toBe(body.slice(-5));
    expect(last.headers['content-range']).toBe(`bytes ${body.length - 5}-${body.length - 1}/${body.length}`);

    const one = await get('/assets/app.js', { headers: { Range: 'bytes=0-0' } });
    expect({ status: one.status, body: one.body }).toEqual({ status: 206, body: 'c' });

    const past = await get('/assets/app.js', { headers: { Range: 'bytes=100-' } });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${body.length}`);
    expect(past.body).not.toContain('console');

    // A malformed range is ignored (the whole file); a reversed one is a clean 416, never a broken
    // answer or a crashed server.
    for (const range of ['bytes=abc', 'items=0-1', 'bytes=']) {
      const whole = await get('/assets/app.js', { headers: { Range: range } });
      expect({ range, status: whole.status, body: whole.body }).toEqual({ range, status: 200, body });
    }
    const reversed = await get('/assets/app.js', { headers: { Range: 'bytes=5-2' } });
    expect(reversed.status).toBe(416);
    expect((await get('/assets/app.js')).body).toBe(body);
    // A range on a file that changed since the client's copy (If-Range) sends the whole file.
    const stale = await get('/assets/app.js', { headers: { Range: 'bytes=0-3', 'If-Range': 'W/"0-0"' } });
    expect({ status: stale.status, body: stale.body }).toEqual({ status: 200, body });
  });

  it('reads files 256 KiB at a time (send hands the read size on to its file stream)', async () => {
    const opened = vi.spyOn(fs, 'createReadStream');
    try {
      expect((await get('/big.bin', { method: 'GET' })).body.length).toBe(8 * 1024 * 1024);
      const [, streamOptions] = opened.mock.calls.at(-1)!;
      expect(streamOptions).toMatchObject({ highWaterMark: 256 * 1024 });
    } finally {
      opened.mockRestore();
    }
  });

  it('answers HEAD with headers only', async () => {
    const res = await get('/assets/app.js', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('18');
    expect(res.body).toBe('');
  });

  it('falls back to index.html for client-side routes but not for missing assets', async () => {
    for (const route of ['/some/route', '/users/42', '/docs/nested/deeper']) {
      const res = await get(route);
      expect(res.status, route).toBe(200);
      expect(res.body, route).toBe(INDEX);
    }
    for (const missing of ['/missing.js', '/assets/gone.css', '/img/x.png']) {
      expect((await get(missing)).status, missing).toBe(404);
    }
  });

  it('serves a folder index, redirecting /dir to /dir/', async () => {
    const redirect = await get('/docs?x=1');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/docs/?x=1');
    expect((await get('/docs/')).body).toBe('<p>docs</p>');
    // A protocol-relative-looking path cannot turn the redirect into one to another host.
    expect((await get('//docs')).headers.location).toBe('/docs/');
  });

  it('never serves dotfiles or dot folders', async () => {
    for (const p of [
      '/.env',
      '/.git/config',
      '/.git/',
      '/assets/.hidden.js',
      '/%2eenv',
      '/.git%2fconfig',
      '/env.txt',
    ]) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(res.body, p).not.toContain(SECRET);
    }
  });

  it('refuses traversal however it is spelled, and never returns content from outside the root', async () => {
    const attempts = [
      '/../secret.txt',
      '/../../etc/passwd',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets%2f..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00',
      '/index.html%00.js',
      '/%E0%A4%A',
    ];
    for (const p of attempts) {
      const res = await get(p);
      expect([400, 404], p).toContain(res.status);
      expect(res.body, p).not.toContain(SECRET);
      expect(res.body, p).not.toContain('root:');
    }
  });

  it('never lists a folder', async () => {
    const strict = await startStaticPreview({ root, spaFallback: false });
    try {
      for (const p of ['/assets/', '/fonts/', '/assets']) {
        const res = await rawRequest(strict.url, p);
        expect(res.body, p).not.toContain('app.js');
        expect(res.body, p).not.toContain('a.woff2');
      }
      expect((await rawRequest(strict.url, '/assets/')).status).toBe(404);
    } finally {
      await strict.close();
    }
  });

  it('refuses an index.html that is a link out of the root, in a folder or as the SPA fallback', async () => {
    const other = path.join(base, 'other');
    await writeTree(other, { 'page/keep.txt': 'x' });
    await symlink(path.join(base, 'outside', 'index.html'), path.join(other, 'index.html'));
    await symlink(path.join(base, 'outside', 'index.html'), path.join(other, 'page', 'index.html'));
    const linked = await startStaticPreview({ root: other });
    try {
      for (const p of ['/', '/page/', '/index.html', '/client/route']) {
        const res = await rawRequest(linked.url, p);
        expect(res.status, p).toBe(404);
        expect(res.body, p).not.toContain(SECRET);
      }
    } finally {
      await linked.close();
    }
  });

  it('does not follow symbolic links out of the root, but does inside it', async () => {
    for (const p of ['/leak.txt', '/leakdir/secret.txt', '/leakdir/index.html']) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(res.body, p).not.toContain(SECRET);
    }
    // Extension-less: the SPA fallback answers with the app, not with the linked folder's index.
    expect((await get('/leakdir/')).body).toBe(INDEX);
    expect((await get('/alias.js')).body).toBe('console.log("app")');
  });

  it('answers 304 when the ETag or modification time matches', async () => {
    const first = await get('/assets/app.js');
    const etag = first.headers.etag!;
    expect(etag).toBeTruthy();
    const byEtag = await get('/assets/app.js', { headers: { 'If-None-Match': etag } });
    expect(byEtag.status).toBe(304);
    expect(byEtag.body).toBe('');
    const byDate = await get('/assets/app.js', {
      headers: { 'If-Modified-Since': first.headers['last-modified']! },
    });
    expect(byDate.status).toBe(304);
    const stale = await get('/assets/app.js', { headers: { 'If-None-Match': 'W/"0-0"' } });
    expect(stale.status).toBe(200);

    await writeFile(path.join(root, 'assets/app.js'), 'console.log("changed!")');
    const changed = await get('/assets/app.js', { headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body).toBe('console.log("changed!")');
  });

  it('allows only GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const res = await get('/index.html', { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
  });

  it('answers only to loopback Host names (DNS rebinding)', async () => {
    expect((await get('/', { headers: { Host: 'evil.example:80' } })).status).toBe(403);
    expect((await get('/', { headers: { Host: `localhost:${preview!.port}` } })).status).toBe(200);
  });

  it('survives a client that disconnects mid-download', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = request(`${preview!.url}/big.bin`, { agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
      });
      req.end();
    });
    const next = await get('/big.bin', { method: 'HEAD' });
    expect(next.status).toBe(200);
    expect(next.headers['content-length']).toBe(String(8 * 1024 * 1024));
    expect((await get('/big.bin')).body.length).toBe(8 * 1024 * 1024);
  });

  it('can turn the SPA fallback off, and refuses a root that is not a folder', async () => {
    const strict = await startStaticPreview({ root, spaFallback: false });
    try {
      expect((await rawRequest(strict.url, '/some/route')).status).toBe(404);
      expect((await rawRequest(strict.url, '/')).status).toBe(200);
    } finally {
      await strict.close();
    }
    await expect(startStaticPreview({ root: path.join(base, 'missing') })).rejects.toThrow(/not a folder/);
  });

  it('stops answering once closed, even with a keep-alive connection open', async () => {
    const keepAlive = await fetch(`${preview!.url}/`);
    expect(keepAlive.status).toBe(200);
    await keepAlive.text();
    await preview!.close();
    expect(await refusesConnections(preview!.url)).toBe(true);
  });
});
