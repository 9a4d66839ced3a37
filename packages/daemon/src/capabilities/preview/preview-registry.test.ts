import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeTree } from '../../../test/support/checks-tree.ts';
import { eventually, isRunning, makeTempDir, nodeScript } from '../../../test/support/temp-files.ts';
import { createPreviewRegistry, PreviewCancelledError, type PreviewRegistry } from './preview-registry.ts';
import { findFreePort } from './server-app.ts';
import { HELLO_APP, rawRequest, refusesConnections } from '../../../test/support/preview-apps.ts';

let dir: string;
let cleanup: () => Promise<void>;
let registry: PreviewRegistry;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('forge-previews-'));
  await writeTree(dir, { 'v1/index.html': 'version one', 'v2/index.html': 'version two' });
  registry = createPreviewRegistry();
});
afterEach(async () => {
  await registry.stopAll();
  await cleanup();
});

describe('createPreviewRegistry', () => {
  it('keeps one preview per project: a new one supersedes the old, whose URL stops answering', async () => {
    const first = await registry.serveStatic('app', path.join(dir, 'v1'));
    expect(first.kind).toBe('static');
    expect((await rawRequest(first.url, '/')).body).toBe('version one');

    const second = await registry.serveStatic('app', path.join(dir, 'v2'));
    expect(second.url).not.toBe(first.url);
    expect((await rawRequest(second.url, '/')).body).toBe('version two');
    expect(await refusesConnections(first.url)).toBe(true);
    expect(registry.get('app')).toEqual(second);

    // Other projects are not affected.
    const other = await registry.serveStatic('other', path.join(dir, 'v1'));
    expect((await rawRequest(second.url, '/')).status).toBe(200);
    expect(registry.get('other')).toEqual(other);
  });

  it('stops a superseded server app (its whole process) and reports its pid', async () => {
    const argv = await nodeScript(dir, 'app.mjs', HELLO_APP);
    const server = await registry.runServer('app', { argv, cwd: dir });
    expect(server).toMatchObject({
      kind: 'server',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    expect((await rawRequest(server.url, '/')).body).toMatch(/^hello from \d+/);

    const replacement = await registry.serveStatic('app', path.join(dir, 'v1'));
    expect(await isRunning(server.pid)).toBe(false);
    expect(await refusesConnections(server.url)).toBe(true);
    expect(registry.get('app')).toEqual(replacement);
  });

  it('lets the newest of two overlapping starts win', async () => {
    const argv = await nodeScript(dir, 'app.mjs', HELLO_APP);
    const first = registry.runServer('app', { argv, cwd: dir });
    const second = registry.serveStatic('app', path.join(dir, 'v2'));
    await expect(first).rejects.toBeInstanceOf(PreviewCancelledError);
    const winner = await second;
    expect(registry.get('app')).toEqual(winner);
    expect((await rawRequest(winner.url, '/')).body).toBe('version two');
  });

  it('forgets an app that exits on its own', async () => {
    const argv = await nodeScript(
      dir,
      'short.mjs',
      `import http from 'node:http';
       const server = http.createServer((req, res) => { res.end('bye'); setTimeout(() => process.exit(0), 10); });
       server.listen(Number(process.env.PORT), process.env.HOST);`,
    );
    const app = await registry.runServer('app', { argv, cwd: dir });
    expect((await rawRequest(app.url, '/')).body).toBe('bye');
    expect(await eventually(async () => registry.get('app') === null)).toBe(true);
  });

  it('a build signal cancels the start only, not the running app', async () => {
    const argv = await nodeScript(dir, 'app.mjs', HELLO_APP);
    const build = new AbortController();
    const app = await registry.runServer('app', { argv, cwd: dir, signal: build.signal });
    build.abort('user');
    expect((await rawRequest(app.url, '/')).status).toBe(200);

    const cancelled = new AbortController();
    cancelled.abort('superseded');
    const error = await registry
      .runServer('late', { argv, cwd: dir, signal: cancelled.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreviewCancelledError);
    expect((error as PreviewCancelledError).reason).toBe('superseded');
    expect(registry.get('late')).toBeNull();
  });

  it('keeps the address an app that ignores PORT was found at, and stops it there', async () => {
    const elsewhere = await findFreePort();
    const argv = await nodeScript(
      dir,
      'fixed.mjs',
      `import http from 'node:http';
       http.createServer((req, res) => res.end('fixed')).listen(${elsewhere}, '127.0.0.1');`,
    );
    const app = await registry.runServer('fixed', { argv, cwd: dir });
    expect(app.url).toBe(`http://127.0.0.1:${elsewhere}`);
    expect(app.found?.detail).toMatch(`listening on ${elsewhere}, not on PORT`);
    expect(registry.get('fixed')).toEqual({ url: app.url, kind: 'server' });
    expect((await rawRequest(app.url, '/')).body).toBe('fixed');

    expect(await registry.stop('fixed')).toBe(true);
    expect(await refusesConnections(app.url)).toBe(true);
  });

  it('stop() and stopAll() end previews', async () => {
    const argv = await nodeScript(dir, 'app.mjs', HELLO_APP);
    const a = await registry.serveStatic('a', path.join(dir, 'v1'));
    const b = await registry.runServer('b', { argv, cwd: dir });
    expect(await registry.stop('a')).toBe(true);
    expect(await registry.stop('a')).toBe(false);
    expect(registry.get('a')).toBeNull();
    expect(await refusesConnections(a.url)).toBe(true);

    await registry.stopAll();
    expect(registry.get('b')).toBeNull();
    expect(await isRunning(b.pid)).toBe(false);
  });
});
