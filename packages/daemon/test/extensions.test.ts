import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BotInfo,
  ErrorBody,
  Extension,
  RollbackExtensionResponse,
  routes,
  UploadExtensionResponse,
} from '@forge/shared';
import { forgeZip, makeZip, S_IFLNK, zeroBomb, type ProjectFiles } from '@forge/testing';
import { EXTENSION_CSP } from '../src/features/extensions/server.ts';
import { cleanup, rawRequest, startTestApp, tempDir, type TestApp } from './helpers.ts';

afterEach(cleanup);

const EXAMPLE = path.resolve(import.meta.dirname, '../../../examples/extensions/hello');

/** The example extension's files, as shipped in the repository. */
const exampleFiles = (): ProjectFiles =>
  Object.fromEntries(fs.readdirSync(EXAMPLE).map((f) => [f, fs.readFileSync(path.join(EXAMPLE, f))]));

const manifestOf = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: 'hello',
    displayName: 'Hello',
    route: '/ext/hello',
    description: 'test',
    version: '1.0.0',
    entry: 'index.html',
    ...overrides,
  });

const extensionZip = (overrides: Record<string, unknown> = {}, html = '<h1>v1</h1>'): Buffer =>
  makeZip({ 'forge-extension.json': manifestOf(overrides), 'index.html': html });

async function uploadExtension(app: TestApp, zip: Buffer, fileName = 'ext.zip'): Promise<Response> {
  const form = new FormData();
  form.set(routes.uploadExtension.multipart.field, new Blob([zip]), fileName);
  return fetch(`${app.url}${routes.uploadExtension.path}`, { method: 'POST', body: form });
}

async function install(app: TestApp, zip: Buffer) {
  const res = await uploadExtension(app, zip);
  const body: unknown = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return UploadExtensionResponse.parse(body);
}

async function refused(app: TestApp, zip: Buffer, fileName?: string) {
  const res = await uploadExtension(app, zip, fileName);
  return { status: res.status, body: ErrorBody.parse(await res.json()) };
}

const list = async (app: TestApp) =>
  Extension.array().parse(await (await fetch(`${app.url}${routes.extensions.path}`)).json());

const extensionBot = async (app: TestApp) =>
  BotInfo.array()
    .parse(await (await fetch(`${app.url}/api/bots`)).json())
    .find((b) => b.name === 'ExtensionBot')!;

describe('extensions: install, serve, upgrade, uninstall', () => {
  it('installs the example extension and serves it from its own origin', async () => {
    const app = await startTestApp();
    expect(await list(app)).toEqual([]);
    const { extension, upgradedFrom } = await install(app, makeZip(exampleFiles()));
    expect(upgradedFrom).toBeNull();
    expect(extension).toMatchObject({
      name: 'hello',
      displayName: 'Hello',
      route: '/ext/hello',
      version: '1.0.0',
    });

    const url = new URL(extension.url!);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.port).not.toBe(String(app.port));
    expect(url.pathname).toBe('/index.html');
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(EXTENSION_CSP);
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await page.text()).toBe(fs.readFileSync(path.join(EXAMPLE, 'index.html'), 'utf8'));
    const script = await fetch(new URL('/hello.js', url));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    // Static files only: nothing runs, nothing is written.
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    const climb = await rawRequest(Number(url.port), { path: '/%2e%2e/%2e%2e/forge.db' });
    expect(climb.status).toBe(400);

    expect(await list(app)).toEqual([extension]);
    expect(app.forge.services.extensions.list()).toEqual([extension]);
    expect(fs.existsSync(path.join(app.home, 'extensions/hello/1.0.0/index.html'))).toBe(true);
    const bot = await extensionBot(app);
    expect(bot.status).toBe('active');
    expect(bot.lastJob).toMatchObject({
      label: 'install ext.zip',
      ok: true,
      summary: 'installed hello 1.0.0',
    });
  });

  it('upgrades by name, keeps the previous version and at most two', async () => {
    const app = await startTestApp();
    const first = await install(app, extensionZip({ version: '1.0.0' }, '<h1>v1</h1>'));
    const second = await install(
      app,
      extensionZip({ version: '1.1.0', displayName: 'Hello 2' }, '<h1>v2</h1>'),
    );
    expect(second.upgradedFrom).toBe('1.0.0');
    expect(second.extension).toMatchObject({ version: '1.1.0', displayName: 'Hello 2' });
    expect(await (await fetch(second.extension.url!)).text()).toBe('<h1>v2</h1>');
    // The old version's server is stopped.
    await expect(fetch(first.extension.url!)).rejects.toThrow();
    const versions = () => fs.readdirSync(path.join(app.home, 'extensions/hello')).sort();
    expect(versions()).toEqual(['1.0.0', '1.1.0']);

    const third = await install(app, extensionZip({ version: '2.0.0' }, '<h1>v3</h1>'));
    expect(third.upgradedFrom).toBe('1.1.0');
    expect(versions()).toEqual(['1.1.0', '2.0.0']);
    // Reinstalling the same version replaces it in place and keeps the one before.
    const again = await install(app, extensionZip({ version: '2.0.0' }, '<h1>v3b</h1>'));
    expect(again.upgradedFrom).toBe('2.0.0');
    expect(versions()).toEqual(['1.1.0', '2.0.0']);
    expect(await (await fetch(again.extension.url!)).text()).toBe('<h1>v3b</h1>');
    expect((await list(app)).map((e) => e.version)).toEqual(['2.0.0']);
    const row = app.store.db.prepare('SELECT version, previous_version FROM extensions').get();
    expect(row).toEqual({ version: '2.0.0', previous_version: '1.1.0' });
  });

  it('rolls back to the previous version and forward again; 409 with nothing to roll back to', async () => {
    const app = await startTestApp();
    const rollback = (name: string) =>
      fetch(`${app.url}/api/extensions/${name}/rollback`, { method: 'POST' });

    await install(app, extensionZip({ version: '1.0.0' }, '<h1>v1</h1>'));
    const none = await rollback('hello');
    expect(none.status).toBe(409);
    expect(ErrorBody.parse(await none.json())).toMatchObject({
      code: 'NO_PREVIOUS_VERSION',
      error: expect.stringContaining('hello 1.0.0 has no previous version'),
    });
    // A refused rollback is the caller's mistake, not a failed job of the bot.
    expect((await extensionBot(app)).lastJob).toMatchObject({ label: 'install ext.zip', ok: true });

    // The previous version's own manifest comes back: its route and display name, not the new ones.
    const upgraded = await install(
      app,
      extensionZip({ version: '2.0.0', displayName: 'Hello 2', route: '/ext/hello-two' }, '<h1>v2</h1>'),
    );
    expect(upgraded.extension).toMatchObject({ previousVersion: '1.0.0', route: '/ext/hello-two' });
    const res = await rollback('hello');
    expect(res.status).toBe(200);
    const back = RollbackExtensionResponse.parse(await res.json());
    expect(back.rolledBackFrom).toBe('2.0.0');
    expect(back.extension).toMatchObject({
      version: '1.0.0',
      previousVersion: '2.0.0',
      displayName: 'Hello',
      route: '/ext/hello',
    });
    expect(await (await fetch(back.extension.url!)).text()).toBe('<h1>v1</h1>');
    await expect(fetch(upgraded.extension.url!)).rejects.toThrow();
    expect(await list(app)).toEqual([back.extension]);
    expect((await extensionBot(app)).lastJob).toMatchObject({
      label: 'roll back hello',
      ok: true,
      summary: 'rolled back hello 2.0.0 → 1.0.0',
    });
    // Both versions stay on disk, so a second rollback undoes the first.
    expect(fs.readdirSync(path.join(app.home, 'extensions/hello')).sort()).toEqual(['1.0.0', '2.0.0']);
    const forward = RollbackExtensionResponse.parse(await (await rollback('hello')).json());
    expect(forward.extension).toMatchObject({ version: '2.0.0', previousVersion: '1.0.0' });
    expect(await (await fetch(forward.extension.url!)).text()).toBe('<h1>v2</h1>');

    const row = app.store.db.prepare('SELECT version, previous_version FROM extensions').get();
    expect(row).toEqual({ version: '2.0.0', previous_version: '1.0.0' });
    const missing = await rollback('nope');
    expect(missing.status).toBe(404);
    expect(ErrorBody.parse(await missing.json()).code).toBe('EXTENSION_NOT_FOUND');
  });

  it('refuses a rollback whose old route another extension has taken since', async () => {
    const app = await startTestApp();
    await install(app, extensionZip({ version: '1.0.0' }));
    await install(app, extensionZip({ version: '2.0.0', route: '/ext/hello-two' }));
    await install(app, makeZip({ 'forge-extension.json': manifestOf({ name: 'other' }), 'index.html': 'x' }));
    const res = await fetch(`${app.url}/api/extensions/hello/rollback`, { method: 'POST' });
    expect(res.status).toBe(409);
    expect(ErrorBody.parse(await res.json())).toMatchObject({
      code: 'ROUTE_TAKEN',
      error: expect.stringContaining('the extension "other" (/ext/hello)'),
    });
    expect((await list(app)).find((e) => e.name === 'hello')).toMatchObject({ version: '2.0.0' });
  });

  it('uninstalls: its server stops, its files go, a second time is 404', async () => {
    const app = await startTestApp();
    const { extension } = await install(app, extensionZip());
    const res = await fetch(`${app.url}/api/extensions/hello`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, name: 'hello' });
    expect(await list(app)).toEqual([]);
    expect(fs.existsSync(path.join(app.home, 'extensions/hello'))).toBe(false);
    await expect(fetch(extension.url!)).rejects.toThrow();
    expect((await extensionBot(app)).lastJob).toMatchObject({ label: 'uninstall hello', ok: true });

    const again = await fetch(`${app.url}/api/extensions/hello`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(ErrorBody.parse(await again.json()).code).toBe('EXTENSION_NOT_FOUND');
  });

  it('serves the installed extensions again after a restart, and stops them on close', async () => {
    const home = tempDir('forge-home-');
    const first = await startTestApp({ home });
    const { extension } = await install(first, extensionZip());
    await first.stop();
    await expect(fetch(extension.url!)).rejects.toThrow();

    const second = await startTestApp({ home });
    const [again] = await list(second);
    expect(again).toMatchObject({ name: 'hello', version: '1.0.0' });
    expect(await (await fetch(again!.url!)).text()).toBe('<h1>v1</h1>');
    await second.stop();
    await expect(fetch(again!.url!)).rejects.toThrow();
  });
});

describe('extensions: hostile and invalid ZIPs', () => {
  const noExtension = async (app: TestApp) => {
    expect(await list(app)).toEqual([]);
    expect(fs.existsSync(path.join(app.home, 'extensions/hello'))).toBe(false);
    // Nothing left behind in the scratch space either.
    const tmp = path.join(app.home, 'tmp');
    expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
  };

  it('refuses ../ traversal with the archive catalogue code', async () => {
    const app = await startTestApp();
    const zip = forgeZip([
      { name: 'forge-extension.json', data: manifestOf() },
      { name: 'index.html', data: '<h1>x</h1>' },
      { name: '../../escaped.txt', data: 'gotcha' },
    ]);
    const { status, body } = await refused(app, zip);
    expect([status, body.code]).toEqual([422, 'ARCHIVE_PATH_TRAVERSAL']);
    expect(fs.existsSync(path.join(app.home, '..', 'escaped.txt'))).toBe(false);
    await noExtension(app);
  });

  it('refuses a symlink', async () => {
    const app = await startTestApp();
    const zip = forgeZip([
      { name: 'forge-extension.json', data: manifestOf() },
      { name: 'index.html', data: '/etc/passwd', unixMode: S_IFLNK | 0o777 },
    ]);
    const { status, body } = await refused(app, zip);
    expect([status, body.code]).toEqual([422, 'ARCHIVE_SYMLINK']);
    await noExtension(app);
  });

  it('refuses a zip bomb', async () => {
    const app = await startTestApp();
    const zip = forgeZip([
      { name: 'forge-extension.json', data: manifestOf() },
      { name: 'index.html', data: 'x' },
      { name: 'big.bin', raw: zeroBomb(200), size: 200 * 1024 * 1024, crc: 0 },
    ]);
    const { status, body } = await refused(app, zip);
    expect(status).toBe(422);
    expect(body.code).toMatch(/^ARCHIVE_(TOO_LARGE|RATIO)$/);
    await noExtension(app);
  });

  it('refuses a ZIP without forge-extension.json', async () => {
    const app = await startTestApp();
    const { status, body } = await refused(app, makeZip({ 'index.html': '<h1>x</h1>' }));
    expect([status, body.code]).toEqual([400, 'EXTENSION_INVALID']);
    expect(body.error).toContain('forge-extension.json');
    await noExtension(app);
    const bot = await extensionBot(app);
    expect(bot.lastJob).toMatchObject({ ok: false });
  });

  it.each([
    [{ route: 'ext/hello' }, '"route"'],
    [{ name: 'Hello World' }, '"name"'],
    [{ version: 'latest' }, '"version"'],
    [{ displayName: undefined }, '"displayName" is required'],
    [{ entry: '../index.html' }, '"entry"'],
    [{ entry: 'missing.html' }, '"entry" names missing.html'],
    [{ permissions: ['api'] }, '"permissions"'],
  ])('refuses the manifest %j, naming the field', async (overrides, said) => {
    const app = await startTestApp();
    const { status, body } = await refused(app, extensionZip(overrides));
    expect([status, body.code]).toEqual([400, 'EXTENSION_INVALID']);
    expect(body.error).toContain(said);
    await noExtension(app);
  });

  it('refuses a manifest that is not JSON', async () => {
    const app = await startTestApp();
    const zip = makeZip({ 'forge-extension.json': '{ name: hello', 'index.html': 'x' });
    const { status, body } = await refused(app, zip);
    expect([status, body.code]).toEqual([400, 'EXTENSION_INVALID']);
    expect(body.error).toContain('not valid JSON');
  });

  it('refuses a file that is not a .zip, and bytes that are not a ZIP', async () => {
    const app = await startTestApp();
    const named = await refused(app, Buffer.from('<h1>hi</h1>'), 'index.html');
    expect([named.status, named.body.code]).toEqual([400, 'INVALID_FILE_TYPE']);
    const fake = await refused(app, Buffer.from('not a zip at all'), 'fake.zip');
    expect([fake.status, fake.body.code]).toEqual([422, 'ARCHIVE_CORRUPT']);
    await noExtension(app);
  });

  it('refuses a ZIP over 10 MB', async () => {
    const app = await startTestApp();
    const zip = makeZip({
      'forge-extension.json': manifestOf(),
      'index.html': 'x',
      // Random bytes do not compress: the ZIP itself is over the limit.
      'noise.bin': Buffer.from(
        Array.from({ length: 11 * 1024 * 1024 }, () => Math.floor(Math.random() * 256)),
      ),
    });
    expect(zip.length).toBeGreaterThan(10 * 1024 * 1024);
    const { status, body } = await refused(app, zip);
    expect([status, body.code]).toEqual([413, 'FILE_TOO_LARGE']);
    expect(body.error).toContain('10MB');
    await noExtension(app);
  });

  it('refuses a route another extension or the workspace already answers (409)', async () => {
    const app = await startTestApp();
    await install(app, extensionZip());
    for (const [overrides, owner] of [
      [{ name: 'other', route: '/ext/hello' }, 'extension "hello"'],
      [{ name: 'other', route: '/ext/hello/deeper' }, 'extension "hello"'],
      [{ name: 'other', route: '/settings' }, '/settings'],
      [{ name: 'other', route: '/university/extensions' }, '/university'],
      [{ name: 'other', route: '/api/extensions' }, '/api'],
    ] as const) {
      const { status, body } = await refused(app, extensionZip(overrides));
      expect([status, body.code], overrides.route).toEqual([409, 'ROUTE_TAKEN']);
      expect(body.error).toContain(owner);
    }
    // The same extension may keep its route when it is upgraded.
    expect((await install(app, extensionZip({ version: '1.0.1' }))).upgradedFrom).toBe('1.0.0');
    expect((await list(app)).map((e) => e.name)).toEqual(['hello']);
  });
});

describe("an extension's origin against the daemon's API", () => {
  it('is refused for a state-changing call (403 ORIGIN_NOT_ALLOWED)', async () => {
    const app = await startTestApp();
    const { extension } = await install(app, extensionZip());
    const origin = new URL(extension.url!).origin;
    const res = await rawRequest(app.port, {
      method: 'POST',
      path: '/api/settings',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ debugMode: true }),
    });
    expect(res.status).toBe(403);
    expect(ErrorBody.parse(res.json()).code).toBe('ORIGIN_NOT_ALLOWED');
    const remove = await rawRequest(app.port, {
      method: 'DELETE',
      path: '/api/extensions/hello',
      headers: { origin },
    });
    expect(remove.status).toBe(403);
    expect(ErrorBody.parse(remove.json()).code).toBe('ORIGIN_NOT_ALLOWED');
    // The daemon's answers carry no CORS grant for that origin.
    const read = await rawRequest(app.port, { path: '/api/extensions', headers: { origin } });
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect((await list(app)).map((e) => e.name)).toEqual(['hello']);
  });
});
