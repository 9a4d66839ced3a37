import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';
import { afterEach, describe, expect, it } from 'vitest';
import { FORGE_VERSION, routes } from '@forge/shared';
import { makeZip } from '@forge/testing';
import { createFleet } from '../src/engine/fleet/fleet.ts';
import { createPackagingService } from '../src/features/packaging/service.ts';
import { findForgeRoot } from '../src/features/packaging/source.ts';
import {
  cleanup,
  memoryLogger,
  onCleanup,
  openSocket,
  startTestApp,
  tempDir,
  userPackageCaches,
  type TestApp,
} from './helpers.ts';

afterEach(cleanup);

const ROOT = findForgeRoot(fileURLToPath(new URL('../src/features/packaging/source.ts', import.meta.url)))!;

/**
 * A family token, made the way AuthBot's users get one: `forge family add` (POST /api/family/accounts
 * with no Origin header, as the CLI sends it), then POST /api/login.
 */
async function familyToken(
  app: TestApp,
  name = 'ada',
  password = 'correct horse battery staple',
): Promise<string> {
  const added = await fetch(`${app.url}/api/family/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
  });
  expect(added.status, await added.clone().text()).toBe(200);
  const login = await fetch(`${app.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: name, password }),
  });
  expect(login.status).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

const post = (app: TestApp, token?: string) =>
  fetch(`${app.url}/api/package-platform`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
const download = (app: TestApp, token?: string) =>
  fetch(`${app.url}/api/download/app`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** Package once: POST, wait for PackageBot to go idle on /ws, then the next POST reports the result. */
async function packageOnce(app: TestApp, token: string): Promise<string> {
  const socket = await openSocket(app.url);
  const started = await post(app, token);
  expect(started.status).toBe(202);
  expect(await started.json()).toEqual({ status: 'Build triggered' });
  const again = await post(app, token);
  expect(await again.json()).toEqual({ status: 'Build already running' });
  for (;;) {
    const m = await socket.next('bot-status');
    if (m.botName === 'PackageBot' && !m.job) break;
  }
  const result = await post(app, token);
  expect(result.status).toBe(200);
  return ((await result.json()) as { status: string }).status;
}

describe('packaging the platform', () => {
  it('refuses both routes without a valid family token', async () => {
    const app = await startTestApp();
    for (const res of [
      await post(app),
      await download(app),
      await post(app, 'not-a-token'),
      await download(app, 'nope'),
    ]) {
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('FAMILY_AUTH_REQUIRED');
    }
    expect(fs.existsSync(path.join(app.home, 'packages'))).toBe(false);
  });

  it('answers 404 with what to do before the first package', async () => {
    const app = await startTestApp();
    const res = await download(app, await familyToken(app));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      code: 'NO_PACKAGE',
      error: 'No platform package yet: Repackage Platform first.',
      hint: expect.stringContaining('Repackage Platform'),
    });
  });

  it('says which builds are missing when the Forge is not built', async () => {
    const home = tempDir('forge-home-');
    const root = tempDir('forge-root-');
    fs.mkdirSync(path.join(root, 'packages', 'daemon', 'dist'), { recursive: true });
    fs.writeFileSync(path.join(root, 'packages', 'daemon', 'dist', 'main.js'), '');
    // A web dist without its index.html is as good as none.
    fs.mkdirSync(path.join(root, 'packages', 'web', 'dist'), { recursive: true });
    fs.writeFileSync(path.join(root, 'packages', 'web', 'package.json'), '{"name":"@forge/web"}');
    fs.writeFileSync(path.join(root, 'packages', 'daemon', 'package.json'), '{"name":"@forge/daemon"}');
    fs.mkdirSync(path.join(root, 'packages', 'tui', 'dist'), { recursive: true });
    fs.writeFileSync(path.join(root, 'packages', 'tui', 'dist', 'index.js'), '');
    fs.writeFileSync(path.join(root, 'packages', 'tui', 'package.json'), '{"name":"@forge/tui"}');
    const fleet = createFleet({ broadcast: () => undefined, maxConcurrent: () => 2 });
    const packaging = createPackagingService({
      fleet,
      logger: memoryLogger().logger,
      home,
      version: '9.9.9',
      root,
    });
    expect(packaging.trigger('ada').status).toBe('Build triggered');
    await packaging.idle();
    const expected =
      `Build failed: The built CLI (packages/cli/dist), web app (packages/web/dist) are missing in ${root}: ` +
      'run `pnpm build` there first.';
    expect(packaging.lastResult()).toBe(expected);
    expect(fleet.list().find((b) => b.name === 'PackageBot')?.lastJob).toMatchObject({
      label: 'package the platform',
      ok: false,
      summary: expected.slice('Build failed: '.length),
    });
    expect(packaging.trigger('ada').status).toBe(expected);
    // Refused before anything is written.
    expect(fs.existsSync(path.join(home, 'packages'))).toBe(false);
    expect(fs.existsSync(path.join(home, 'tmp'))).toBe(false);
  });

  it(
    'packages the built Forge, downloads it, and the archive installs and runs on its own',
    async () => {
      for (const dir of ['daemon', 'cli', 'web', 'tui']) {
        expect(fs.existsSync(path.join(ROOT, 'packages', dir, 'dist')), `run pnpm build first (${dir})`).toBe(
          true,
        );
      }
      const home = tempDir('forge-home-');
      const app = await startTestApp({ home });
      const token = await familyToken(app);
      // An installed extension, upgraded once: the archive bundles its current version only.
      await uploadExtension(app, helloZip('1.0.0'));
      await uploadExtension(app, helloZip('1.1.0'));

      const status = await packageOnce(app, token);
      expect(status).toMatch(
        new RegExp(
          `^Build complete: forge-${FORGE_VERSION.replace(/\./g, '\\.')}-\\d{8}-\\d{6}\\.zip \\(\\d+\\.\\d MB\\)$`,
        ),
      );
      const audit = app.forge.services.family.auditLog();
      expect(audit.find((e) => e.action === 'package')).toMatchObject({ actor: 'ada' });

      const res = await download(app, token);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      const name = /^Build complete: (\S+)/.exec(status)![1]!;
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
      const zip = new AdmZip(Buffer.from(await res.arrayBuffer()));
      const top = name.replace(/\.zip$/, '');
      const entries = new Set(zip.getEntries().map((e) => e.entryName));
      for (const entry of [
        'install.sh',
        'README.md',
        'package.json',
        'packages/daemon/package.json',
        'packages/daemon/dist/main.js',
        'packages/daemon/dist/extract-thread.js',
        'packages/cli/package.json',
        'packages/cli/bin/forge.js',
        'packages/cli/dist/forge.js',
        'packages/web/package.json',
        'packages/web/dist/index.html',
        'packages/tui/package.json',
        'packages/tui/dist/index.js',
        'extensions/bundle.json',
        'extensions/hello/1.1.0/forge-extension.json',
        'extensions/hello/1.1.0/index.html',
      ]) {
        expect(entries, entry).toContain(`${top}/${entry}`);
      }
      expect(entries).not.toContain(`${top}/extensions/hello/1.0.0/index.html`);
      expect(JSON.parse(zip.readAsText(`${top}/extensions/bundle.json`))).toEqual([
        { name: 'hello', version: '1.1.0' },
      ]);
      const daemonPkg = JSON.parse(zip.readAsText(`${top}/packages/daemon/package.json`)) as {
        dependencies: Record<string, string>;
        devDependencies?: unknown;
      };
      expect(daemonPkg.dependencies['better-sqlite3']).toBeDefined();
      expect(daemonPkg.dependencies['@forge/shared']).toBeUndefined();
      expect(daemonPkg.devDependencies).toBeUndefined();
      expect(fs.readdirSync(path.join(home, 'packages'))).toEqual([name]);

      // Another machine: unpack, then one command, `sh install.sh`, installs and starts it.
      const machine = tempDir('forge-install-');
      zip.extractAllTo(machine, true);
      const installed = path.join(machine, top);
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(process.env)) {
        if (
          value !== undefined &&
          !key.startsWith('FORGE_') &&
          !key.startsWith('npm_') &&
          !key.startsWith('PNPM')
        )
          env[key] = value;
      }
      Object.assign(env, userPackageCaches(), {
        NO_COLOR: '1',
        FORGE_HOME: path.join(machine, 'home'),
        FORGE_PORT: '0',
      });
      // The user's HOME stays: npm reads its settings there (e.g. where Node's headers are).
      const first = await startForeground(
        'sh',
        [path.join(installed, 'install.sh'), '--prefer-offline'],
        machine,
        env,
      );
      const { url } = first;
      const out = first.output();
      expect(out).toContain('Forge is installed');
      // The bundled extension is registered at the first start, and served.
      expect(await extensionsOf(url)).toEqual([{ name: 'hello', version: '1.1.0' }]);
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ ok: true, version: FORGE_VERSION });
      // The installed daemon serves its own web app.
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      // The terminal dashboard is in the archive: without a terminal it loads and says it needs one.
      const tui = await run(path.join(installed, 'forge'), ['tui'], machine, env, 60_000);
      expect(tui.output).not.toContain('could not be loaded');
      expect(tui.output).toContain('forge tui needs a terminal');
      expect(await first.stop()).toBe(0);

      // A second start registers nothing again; an extension the user removed stays removed.
      const second = await startForeground(path.join(installed, 'forge'), ['daemon', 'run'], machine, env);
      expect(await extensionsOf(second.url)).toEqual([{ name: 'hello', version: '1.1.0' }]);
      expect((await fetch(`${second.url}/api/extensions/hello`, { method: 'DELETE' })).status).toBe(200);
      expect(await second.stop()).toBe(0);
      const third = await startForeground(path.join(installed, 'forge'), ['daemon', 'run'], machine, env);
      expect(await extensionsOf(third.url)).toEqual([]);
      expect(await third.stop()).toBe(0);

      // Installed once: the same command again only starts it (--no-start: not even that).
      const again = await run('sh', ['install.sh', '--no-start'], installed, env, 60_000);
      expect(again.code, again.output).toBe(0);
      expect(again.output).toContain('dependencies are already installed');
      expect(again.output).not.toContain('Installing');
    },
    12 * 60_000,
  );
});

const helloZip = (version: string): Buffer =>
  makeZip({
    'forge-extension.json': JSON.stringify({
      name: 'hello',
      displayName: 'Hello',
      route: '/ext/hello',
      version,
      entry: 'index.html',
    }),
    'index.html': `<h1>hello ${version}</h1>`,
  });

async function uploadExtension(app: TestApp, zip: Buffer): Promise<void> {
  const form = new FormData();
  form.set(routes.uploadExtension.multipart.field, new Blob([zip]), 'hello.zip');
  const res = await fetch(`${app.url}${routes.uploadExtension.path}`, { method: 'POST', body: form });
  expect(res.status, await res.text()).toBe(200);
}

/** The extensions a daemon lists, by name and version, each with a page that answers. */
async function extensionsOf(url: string): Promise<Array<{ name: string; version: string | undefined }>> {
  const res = await fetch(`${url}/api/extensions`);
  expect(res.status).toBe(200);
  const list = (await res.json()) as Array<{ name: string; version?: string; url: string | null }>;
  for (const e of list) expect((await fetch(e.url!)).status).toBe(200);
  return list.map((e) => ({ name: e.name, version: e.version }));
}

/** A Forge started in the foreground, once it says where it runs; `stop` sends SIGTERM and gives its exit. */
async function startForeground(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ url: string; output: () => string; stop: () => Promise<number | string> }> {
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (c, s) => resolve(c ?? s ?? 'unknown')),
  );
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const match = /Forge is running at (\S+)\n/.exec(out);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`installed Forge exited (${code}):\n${out}\n${err}`)));
  });
  return {
    url,
    output: () => out,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Run a command to the end (or kill it after `timeoutMs`), with its stdout and stderr together. */
function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | string; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeoutMs} ms)`;
      process.kill(-child.pid!, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? 'unknown', output });
    });
  });
}
