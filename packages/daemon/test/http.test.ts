import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, MAX_JSON_BODY_BYTES, routes } from '@forge/shared';
import { ForgeError } from '../src/http/forge-error.ts';
import { cleanup, rawRequest, startTestApp, tempDir } from './helpers.ts';

afterEach(cleanup);

const postJson = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('GET /api/health', () => {
  it('answers ok, the version and a growing uptime', async () => {
    const app = await startTestApp({ version: '9.9.9' });
    const res = await fetch(`${app.url}${routes.health.path}`);
    expect(res.status).toBe(200);
    const body = routes.health.response.parse(await res.json());
    expect(body).toMatchObject({ ok: true, version: '9.9.9' });
    expect(body.uptimeMs).toBeGreaterThanOrEqual(0);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('settings', () => {
  it('starts from the defaults', async () => {
    const app = await startTestApp();
    const res = await fetch(`${app.url}/api/settings`);
    expect(await res.json()).toEqual(DEFAULT_SETTINGS);
  });

  it('changes one setting, answers the settings, and keeps it for a new app on the same home', async () => {
    const first = await startTestApp();
    const res = await postJson(`${first.url}/api/settings`, { debugMode: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...DEFAULT_SETTINGS, debugMode: true });
    await postJson(`${first.url}/api/settings`, { maxConcurrentBots: 7 });
    await first.stop();

    const second = await startTestApp({ home: first.home });
    const after = await (await fetch(`${second.url}/api/settings`)).json();
    expect(after).toEqual({ ...DEFAULT_SETTINGS, debugMode: true, maxConcurrentBots: 7 });
  });

  it.each([
    ['an unknown key', '{"colour":"red"}'],
    ['__proto__', '{"__proto__":{"debugMode":true}}'],
    ['__proto__ with a boolean', '{"__proto__":true}'],
    ['a wrong type', '{"debugMode":"yes"}'],
    ['an out-of-range number', '{"maxConcurrentBots":0}'],
    ['two keys', '{"debugMode":true,"autoRepair":false}'],
    ['no key', '{}'],
    ['an array', '[{"debugMode":true}]'],
  ])('refuses %s with 400 UNKNOWN_SETTING and changes nothing', async (_name, body) => {
    const app = await startTestApp();
    const res = await fetch(`${app.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    const error = await res.json();
    expect(error).toMatchObject({
      code: 'UNKNOWN_SETTING',
      error: 'Send exactly one known setting with a value of the right type.',
    });
    expect(await (await fetch(`${app.url}/api/settings`)).json()).toEqual(DEFAULT_SETTINGS);
    expect(({} as Record<string, unknown>).debugMode).toBeUndefined();
  });
});

describe('errors', () => {
  it('answers unknown /api paths with a JSON 404 for any method', async () => {
    const app = await startTestApp();
    for (const method of ['GET', 'POST', 'DELETE', 'PUT']) {
      const res = await fetch(`${app.url}/api/no-such-thing`, { method });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('answers every route of the protocol for real: none is left answering 503 NOT_IMPLEMENTED', async () => {
    const app = await startTestApp({ starterProject: false });
    const answered: string[] = [];
    for (const route of Object.values(routes)) {
      // Every path parameter gets a harmless value; bodies are empty, so nothing changes state.
      const target = route.path.replace(/:([A-Za-z_]+)/g, 'x');
      const res = await fetch(`${app.url}${target}`, {
        method: route.method,
        ...(route.method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      const text = await res.text();
      if (text.includes('NOT_IMPLEMENTED')) answered.push(`${route.method} ${route.path}`);
    }
    expect(answered).toEqual([]);
  });

  it('answers a crash with 500 INTERNAL, logs the stack, and never sends it', async () => {
    const app = await startTestApp({
      registerRoutes(router) {
        router.get('/api/test/crash', async () => {
          await Promise.resolve();
          throw new Error('secret internals at /home/someone/project');
        });
      },
    });
    const res = await fetch(`${app.url}/api/test/crash`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: 'Something went wrong inside Forge.',
      code: 'INTERNAL',
      hint: 'See the daemon log: forge daemon logs',
    });
    expect(text).not.toMatch(/secret internals|at .*\.ts/);
    const logged = app.logLines().find((line) => line.level === 50);
    expect(JSON.stringify(logged)).toMatch(/secret internals/);
    expect((logged?.err as { stack?: string }).stack).toMatch(/http\.test\.ts/);
  });

  it('sends a ForgeError with its catalogue status and shape', async () => {
    const app = await startTestApp({
      registerRoutes(router) {
        router.get('/api/test/forge-error', () => {
          throw new ForgeError('FILE_TOO_LARGE');
        });
      },
    });
    const res = await fetch(`${app.url}/api/test/forge-error`);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: 'File too large',
      code: 'FILE_TOO_LARGE',
      hint: 'Maximum file size is 50MB',
    });
  });

  it('refuses a JSON body over the limit with 413 BODY_TOO_LARGE', async () => {
    const app = await startTestApp();
    const body = JSON.stringify({ debugMode: true, pad: 'x'.repeat(MAX_JSON_BODY_BYTES) });
    const res = await rawRequest(app.port, {
      method: 'POST',
      path: '/api/settings',
      headers: { 'content-type': 'application/json', host: `127.0.0.1:${app.port}` },
      body,
    });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ code: 'BODY_TOO_LARGE' });
  });

  it('refuses malformed JSON with 400 INVALID_JSON', async () => {
    const app = await startTestApp();
    const res = await fetch(`${app.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"debugMode": tru',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'INVALID_JSON',
      error: 'The request body is not valid JSON.',
    });
  });

  it('refuses a response that breaks the route contract with a 500', async () => {
    const app = await startTestApp({
      registerRoutes(_router, services) {
        services.health.health = () => ({ ok: 'yes' }) as never;
      },
    });
    const res = await fetch(`${app.url}/api/health`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'INTERNAL' });
  });
});

describe('web app serving', () => {
  it('says how to build the web app when it is missing (503)', async () => {
    const app = await startTestApp({ web: { mode: 'static', root: tempDir() } });
    const res = await fetch(`${app.url}/settings`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('The web workspace is not built yet. Run: pnpm build');
  });

  it('serves index.html for page paths, assets with long caching, and 404 for missing files', async () => {
    const root = tempDir('forge-web-');
    const fs = await import('node:fs');
    fs.mkdirSync(`${root}/assets`);
    fs.writeFileSync(`${root}/index.html`, '<!doctype html><title>Forge web</title>');
    fs.writeFileSync(`${root}/assets/index-abc12345.js`, 'console.log(1)');
    const app = await startTestApp({ web: { mode: 'static', root } });

    for (const page of ['/', '/file-explorer', '/university/chat']) {
      const res = await fetch(`${app.url}${page}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('Forge web');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy');
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${app.port}`);
    }
    const asset = await fetch(`${app.url}/assets/index-abc12345.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${app.url}/assets/missing-1234abcd.js`)).status).toBe(404);
    const api = await fetch(`${app.url}/api/missing`, { headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
  it('sends files with ranges, HEAD and 304s, and the headers every answer carries', async () => {
    const root = tempDir('forge-web-');
    const fs = await import('node:fs');
    fs.mkdirSync(`${root}/assets`);
    fs.writeFileSync(`${root}/index.html`, '<!doctype html><title>Forge web</title>');
    fs.writeFileSync(`${root}/assets/index-abc12345.js`, 'console.log(12345)');
    fs.writeFileSync(`${root}/favicon.svg`, '<svg/>');
    const app = await startTestApp({ web: { mode: 'static', root } });
    const asset = `${app.url}/assets/index-abc12345.js`;

    const part = await fetch(asset, { headers: { range: 'bytes=0-6' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('console');
    expect(part.headers.get('content-range')).toBe('bytes 0-6/18');

    const head = await rawRequest(app.port, { method: 'HEAD', path: '/assets/index-abc12345.js' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('18');
    expect(head.body).toBe('');

    const first = await fetch(asset);
    expect(first.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    for (const [name, value] of [
      ['x-content-type-options', 'nosniff'],
      ['referrer-policy', 'no-referrer'],
      ['cross-origin-resource-policy', 'same-origin'],
    ]) {
      expect(first.headers.get(name!), name).toBe(value);
    }
    expect(first.headers.get('access-control-allow-origin')).toBeNull();
    // node:http, not fetch: fetch adds "Cache-Control: no-cache" to a request with validators.
    const again = await rawRequest(app.port, {
      path: '/assets/index-abc12345.js',
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');

    const icon = await fetch(`${app.url}/favicon.svg`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');

    // The page itself, asked for by name, gets the page's headers too.
    const page = await fetch(`${app.url}/index.html`);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(page.headers.get('cache-control')).toBe('no-cache');
    // A folder path is a page path: the app, never a listing.
    const folder = await fetch(`${app.url}/assets/`, { headers: { accept: 'text/html' } });
    expect(await folder.text()).toContain('Forge web');
  });
});
