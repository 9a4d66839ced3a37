import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptedEncodings } from '../src/features/web-app/serve-web.ts';
import { cleanup, startTestApp, tempDir } from './helpers.ts';

afterEach(cleanup);

/** A GET (or HEAD) that keeps the body as bytes: fetch would decode it, rawRequest makes it text. */
function getBytes(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const SCRIPT = `console.log(${JSON.stringify('forge '.repeat(400))});`;
const STYLE = `body { color: teal; } ${'.x { margin: 0 } '.repeat(100)}`;

/** A built web root the way packages/web's build leaves it: copies beside scripts and styles. */
async function webApp() {
  const root = tempDir('forge-web-');
  fs.mkdirSync(`${root}/assets`);
  fs.writeFileSync(`${root}/index.html`, '<!doctype html><title>Forge web</title>');
  fs.writeFileSync(`${root}/assets/index-abc12345.js`, SCRIPT);
  fs.writeFileSync(`${root}/assets/index-abc12345.js.br`, zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(`${root}/assets/index-abc12345.js.gz`, zlib.gzipSync(SCRIPT));
  // Only a gzip copy, and a script with none at all (too small to be worth one).
  fs.writeFileSync(`${root}/assets/index-abc12345.css`, STYLE);
  fs.writeFileSync(`${root}/assets/index-abc12345.css.gz`, zlib.gzipSync(STYLE));
  fs.writeFileSync(`${root}/assets/tiny-abc12345.js`, 'void 0');
  // Outside /assets nothing is precompressed, whatever lies beside it.
  fs.writeFileSync(`${root}/sw.js`, SCRIPT);
  fs.writeFileSync(`${root}/sw.js.br`, zlib.brotliCompressSync(SCRIPT));
  const app = await startTestApp({ web: { mode: 'static', root } });
  return { root, app };
}

describe('precompressed web assets', () => {
  it('sends the brotli copy to a browser that accepts it, with the original type and caching', async () => {
    const { app } = await webApp();
    const res = await getBytes(app.port, '/assets/index-abc12345.js', {
      'accept-encoding': 'gzip, deflate, br, zstd',
    });

    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(SCRIPT.length / 4);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it('falls back to gzip, then to the file itself, by what the request accepts and what exists', async () => {
    const { app } = await webApp();
    const script = '/assets/index-abc12345.js';

    const gzip = await getBytes(app.port, script, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(SCRIPT);

    const identity = await getBytes(app.port, script);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers['vary']).toBe('Accept-Encoding');
    expect(identity.body.toString()).toBe(SCRIPT);

    // Only a gzip copy exists for the stylesheet.
    const style = await getBytes(app.port, '/assets/index-abc12345.css', { 'accept-encoding': 'br, gzip' });
    expect(style.headers['content-encoding']).toBe('gzip');
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(zlib.gunzipSync(style.body).toString()).toBe(STYLE);

    const tiny = await getBytes(app.port, '/assets/tiny-abc12345.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('void 0');

    const outside = await getBytes(app.port, '/sw.js', { 'accept-encoding': 'br' });
    expect(outside.headers['content-encoding']).toBeUndefined();
    expect(outside.body.toString()).toBe(SCRIPT);
  });

  it('answers HEAD, a query string and a revalidation of the copy like any file', async () => {
    const { app } = await webApp();
    const br = { 'accept-encoding': 'br' };
    const first = await getBytes(app.port, '/assets/index-abc12345.js?v=1', br);
    expect(first.headers['content-encoding']).toBe('br');

    const head = await getBytes(app.port, '/assets/index-abc12345.js', br, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(first.body.length));
    expect(head.body.length).toBe(0);

    const again = await getBytes(app.port, '/assets/index-abc12345.js', {
      ...br,
      'if-none-match': first.headers.etag!,
    });
    expect(again.status).toBe(304);
    // The copy's validator is its own: it does not revalidate the file itself.
    const identity = await getBytes(app.port, '/assets/index-abc12345.js', {
      'if-none-match': first.headers.etag!,
    });
    expect(identity.status).toBe(200);
    expect(identity.body.toString()).toBe(SCRIPT);
  });

  it('answers a traversing path with a copy beside it as it does without: as a missing file', async () => {
    const { app } = await webApp();
    for (const encoding of ['br', 'identity']) {
      const res = await getBytes(app.port, '/assets/%2e%2e/assets/index-abc12345.js', {
        'accept-encoding': encoding,
      });
      expect(res.status, encoding).toBe(404);
      expect(res.headers['content-encoding'], encoding).toBeUndefined();
    }
    const missing = await getBytes(app.port, '/assets/missing-1234abcd.js', { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
  });
});

describe('acceptedEncodings', () => {
  it('reads the codings a request accepts, leaving out those refused with q=0', () => {
    expect([...acceptedEncodings('gzip, deflate, br, zstd')]).toEqual(['gzip', 'deflate', 'br', 'zstd']);
    expect([...acceptedEncodings('br;q=0, GZIP;q=0.5')]).toEqual(['gzip']);
    expect([...acceptedEncodings(['br', 'gzip; q=0.0'])]).toEqual(['br']);
    expect(acceptedEncodings(undefined).size).toBe(0);
  });
});
