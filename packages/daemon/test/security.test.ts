import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@forge/shared';
import { cleanup, openSocket, rawRequest, startTestApp, tempDir, upgradeStatus } from './helpers.ts';

afterEach(cleanup);

const TOKEN = 'test-token-0123456789abcdef';

const settingsOf = async (url: string, headers: Record<string, string> = {}) =>
  (await fetch(`${url}/api/settings`, { headers })).json();

describe('Host allow-list (DNS rebinding)', () => {
  it('refuses Host: evil.example with 403 HOST_NOT_ALLOWED on API and page paths', async () => {
    const app = await startTestApp();
    for (const path of ['/api/health', '/api/settings', '/']) {
      const res = await rawRequest(app.port, { path, headers: { host: 'evil.example' } });
      expect(res.status).toBe(403);
      expect(res.json()).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
    }
  });

  it('refuses a loopback name on another port and a missing Host', async () => {
    const app = await startTestApp();
    expect(
      (await rawRequest(app.port, { path: '/api/health', headers: { host: 'localhost:1' } })).status,
    ).toBe(403);
    // Node itself answers 400 to a request without Host; either way nothing is served.
    expect([400, 403]).toContain(
      (await rawRequest(app.port, { path: '/api/health', headers: { host: '' } })).status,
    );
  });

  it('answers localhost, 127.0.0.1 and [::1] on its port, and configured allowedHosts', async () => {
    const app = await startTestApp({ config: { allowedHosts: ['forge.lan', 'proxy.lan:8443'] } });
    for (const host of [
      `localhost:${app.port}`,
      `127.0.0.1:${app.port}`,
      `[::1]:${app.port}`,
      `FORGE.lan:${app.port}`,
      'proxy.lan:8443',
    ]) {
      const res = await rawRequest(app.port, { path: '/api/health', headers: { host } });
      expect(res.status, host).toBe(200);
    }
    expect(
      (await rawRequest(app.port, { path: '/api/health', headers: { host: 'proxy.lan:9999' } })).status,
    ).toBe(403);
  });

  it('refuses a WebSocket upgrade with a foreign Host', async () => {
    const app = await startTestApp();
    const { status, body } = await upgradeStatus(`${app.url}/ws`, { headers: { host: 'evil.example' } });
    expect(status).toBe(403);
    expect(JSON.parse(body)).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
    expect(app.forge.hub.clientCount).toBe(0);
  });
});

describe('Origin check (CSRF, cross-site WebSocket hijacking)', () => {
  it('refuses a POST from http://evil.example with 403 and leaves the setting unchanged', async () => {
    const app = await startTestApp();
    const res = await fetch(`${app.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ debugMode: true }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await settingsOf(app.url)).toEqual(DEFAULT_SETTINGS);
  });

  it.each(['null', 'https://127.0.0.1:PORT', 'http://127.0.0.1:1', 'http://localhost.evil.example:PORT'])(
    'refuses Origin %s on a POST',
    async (origin) => {
      const app = await startTestApp();
      const res = await fetch(`${app.url}/api/settings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: origin.replace('PORT', String(app.port)) },
        body: JSON.stringify({ autoRepair: false }),
      });
      expect(res.status).toBe(403);
      expect(await settingsOf(app.url)).toEqual(DEFAULT_SETTINGS);
    },
  );

  it("accepts the daemon's own origin and a request without Origin (CLI)", async () => {
    const app = await startTestApp();
    const own = await fetch(`${app.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://localhost:${app.port}` },
      body: JSON.stringify({ autoRepair: false }),
    });
    expect(own.status).toBe(200);
    const cli = await fetch(`${app.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ debugMode: true }),
    });
    expect(cli.status).toBe(200);
    expect(await settingsOf(app.url)).toEqual({ ...DEFAULT_SETTINGS, autoRepair: false, debugMode: true });
  });

  it('lets a GET with a foreign Origin read nothing extra: no CORS headers are sent', async () => {
    const app = await startTestApp();
    const res = await fetch(`${app.url}/api/settings`, { headers: { origin: 'http://evil.example' } });
    expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('refuses a WebSocket upgrade with a foreign Origin', async () => {
    const app = await startTestApp();
    const { status, body } = await upgradeStatus(`${app.url}/ws`, { origin: 'http://evil.example' });
    expect(status).toBe(403);
    expect(JSON.parse(body)).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    expect(app.forge.hub.clientCount).toBe(0);
    expect((await upgradeStatus(`${app.url}/ws`, { origin: `http://127.0.0.1:${app.port}` })).status).toBe(
      101,
    );
  });
});

describe('access token', () => {
  it('refuses requests without the token (401 TOKEN_REQUIRED) and accepts a bearer token', async () => {
    const app = await startTestApp({ config: { accessToken: TOKEN } });
    const bare = await fetch(`${app.url}/api/health`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ code: 'TOKEN_REQUIRED' });
    expect(
      (await fetch(`${app.url}/api/health`, { headers: { authorization: 'Bearer wrong-token' } })).status,
    ).toBe(401);
    expect((await fetch(`${app.url}/api/health?token=${TOKEN}`)).status).toBe(401);
    const ok = await fetch(`${app.url}/api/health`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
  });

  it('does not change anything for a POST without the token', async () => {
    const app = await startTestApp({ config: { accessToken: TOKEN } });
    const res = await fetch(`${app.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ debugMode: true }),
    });
    expect(res.status).toBe(401);
    expect(await settingsOf(app.url, { authorization: `Bearer ${TOKEN}` })).toEqual(DEFAULT_SETTINGS);
  });

  it('trades ?token= on a page for an HttpOnly SameSite=Strict cookie and a clean URL', async () => {
    const app = await startTestApp({ config: { accessToken: TOKEN } });
    const res = await fetch(`${app.url}/settings?tab=a&token=${TOKEN}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/settings?tab=a');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^forge_token=${TOKEN};`));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);

    const pair = cookie.split(';')[0]!;
    const withCookie = await fetch(`${app.url}/api/settings`, { headers: { cookie: pair } });
    expect(withCookie.status).toBe(200);
    expect((await fetch(`${app.url}/settings?token=wrong`, { redirect: 'manual' })).status).toBe(401);
  });

  it('never redirects off-site after the token exchange', async () => {
    const app = await startTestApp({ config: { accessToken: TOKEN } });
    const res = await rawRequest(app.port, {
      path: `//evil.example/?token=${TOKEN}`,
      headers: { host: `127.0.0.1:${app.port}` },
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/evil.example/');
  });

  it('needs the token on the WebSocket upgrade too (header, cookie or ?token=)', async () => {
    const app = await startTestApp({ config: { accessToken: TOKEN } });
    expect((await upgradeStatus(`${app.url}/ws`)).status).toBe(401);
    expect((await upgradeStatus(`${app.url}/ws?token=nope`)).status).toBe(401);
    expect((await upgradeStatus(`${app.url}/ws?token=${TOKEN}`)).status).toBe(101);
    expect(
      (await upgradeStatus(`${app.url}/ws`, { headers: { cookie: `forge_token=${TOKEN}` } })).status,
    ).toBe(101);
    const socket = await openSocket(`${app.url}/ws`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect((await socket.next('hello')).type).toBe('hello');
  });
});

describe('web app files: hostile paths', () => {
  const SECRET = 'TOP-SECRET-OUTSIDE-THE-WEB-ROOT';

  /** A built web app next to secrets, reached through traversal spellings, dotfiles and links. */
  async function webApp(config: { accessToken?: string } = {}) {
    const base = tempDir('forge-web-hostile-');
    const root = path.join(base, 'dist');
    fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
    fs.mkdirSync(path.join(base, 'outside'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Forge web</title>');
    fs.writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)');
    fs.writeFileSync(path.join(root, '.env'), SECRET);
    fs.writeFileSync(path.join(base, 'secret.txt'), SECRET);
    fs.writeFileSync(path.join(base, 'outside', 'secret.js'), SECRET);
    fs.symlinkSync(path.join(base, 'secret.txt'), path.join(root, 'leak.js'));
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'assets', 'linked'));
    return startTestApp({ web: { mode: 'static', root }, config });
  }

  it('never answers with a file outside the root, a dotfile or a link out, however the path is spelled', async () => {
    const app = await webApp();
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets%2f..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/.env',
      '/%2eenv',
      '/leak.js',
      '/assets/linked/secret.js',
      '/index.html%00.js',
      '/%E0%A4%A',
    ];
    for (const p of attempts) {
      for (const accept of ['*/*', 'text/html']) {
        const res = await rawRequest(app.port, { path: p, headers: { accept } });
        expect(res.body, `${p} (${accept})`).not.toContain(SECRET);
        // Either a 4xx or the app's own page (the history fallback for a page request).
        if (res.status === 200) expect(res.body, p).toContain('Forge web');
        else expect([400, 404], p).toContain(res.status);
      }
    }
    // And the real files are still served.
    expect((await rawRequest(app.port, { path: '/assets/app.js' })).body).toBe('console.log(1)');
  });

  it('answers its files only after the checks every request passes (Host, token), with the same headers', async () => {
    const app = await webApp({ accessToken: TOKEN });
    const asset = (headers: Record<string, string>) =>
      rawRequest(app.port, { path: '/assets/app.js', headers });
    const host = `127.0.0.1:${app.port}`;
    const noToken = await asset({ host });
    expect(noToken.status).toBe(401);
    expect(noToken.json()).toMatchObject({ code: 'TOKEN_REQUIRED' });
    const foreign = await asset({ host: 'evil.example', authorization: `Bearer ${TOKEN}` });
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 'HOST_NOT_ALLOWED' });
    const ok = await asset({ host, authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('console.log(1)');
    expect(ok.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(ok.headers['access-control-allow-origin']).toBeUndefined();
    const viaCookie = await asset({ host, cookie: `forge_token=${TOKEN}` });
    expect(viaCookie.status).toBe(200);
  });
});
