import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody, ProjectHistory, RollbackResult, type UploadResult } from '@forge/shared';
import { makeZip, upload, watch } from './build-helpers.ts';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';

/**
 * Rollback of the kinds served from the project's own files (docs/artifacts.md): a plain static
 * site is served from the earlier build's kept tree, a server app is started again from it; the
 * project's files are left as the last upload wrote them, and the next build serves those again.
 */

afterEach(cleanup);

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

async function json<T>(res: Promise<Response> | Response): Promise<{ status: number; body: T }> {
  const r = await res;
  return { status: r.status, body: (await r.json()) as T };
}

function client(app: TestApp, name: string) {
  return {
    history: async () =>
      ProjectHistory.parse((await json(fetch(`${app.url}/api/projects/${name}/history`))).body),
    rollback: (body: object) =>
      json<unknown>(
        fetch(`${app.url}/api/projects/${name}/rollback`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
    previewPage: async () => {
      const { body } = await json<{ url: string | null }>(
        fetch(`${app.url}/api/preview/url?project=${name}`),
      );
      expect(body.url).not.toBeNull();
      return (await fetch(body.url!)).text();
    },
    download: async () => {
      const res = await fetch(`${app.url}/api/projects/${name}/artifact`);
      expect(res.status).toBe(200);
      return { build: res.headers.get('x-forge-build'), bytes: Buffer.from(await res.arrayBuffer()) };
    },
  };
}

describe('rollback of a plain static site and a server app', () => {
  it('serves the earlier build of a plain static site from its kept tree, until the next build', async () => {
    const NAME = 'plain-site';
    const site = (label: string) => ({
      'index.html': `<!doctype html><html><body><h1>Site ${label}</h1><a href="about.html">about</a></body></html>`,
      'about.html': `<!doctype html><html><body><p>About ${label}</p></body></html>`,
    });
    const app = await startTestApp();
    const live = await watch(app);
    const build = async (files: Record<string, string>) => {
      const { buildId } = (await (await upload(app, makeZip(`${NAME}.zip`, files))).json()) as UploadResult;
      const done = await live.finished(buildId!, 120_000);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      expect(done.blueprint?.kind).toBe('static');
      return done.id;
    };
    const api = client(app, NAME);
    const one = await build(site('one'));
    const two = await build(site('two'));
    expect(await api.previewPage()).toContain('Site two');
    const recordedOne = (await api.history()).builds.find((b) => b.buildId === one)!;

    const res = await api.rollback({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = RollbackResult.parse(res.body);
    expect(done).toMatchObject({ buildId: one, previousBuildId: two });
    expect(done.durationMs).toBeLessThan(1000);
    expect(await (await fetch(done.previewUrl!)).text()).toContain('Site one');
    expect(await (await fetch(`${done.previewUrl!}/about.html`)).text()).toContain('About one');
    expect(await api.previewPage()).toContain('Site one');
    const got = await api.download();
    expect(got.build).toBe(one);
    expect(sha256(got.bytes)).toBe(recordedOne.artifactSha256);
    expect((await api.history()).currentBuildId).toBe(one);
    // The project's own files are the last upload's: the editor and the next build see them.
    expect(fs.readFileSync(path.join(app.home, 'projects', NAME, 'index.html'), 'utf8')).toContain(
      'Site two',
    );

    const three = await build(site('three'));
    expect((await api.history()).currentBuildId).toBe(three);
    expect(await api.previewPage()).toContain('Site three');
  }, 120_000);

  it('starts a server app again from the earlier build, without installing or building', async () => {
    const NAME = 'plain-server';
    const server = (label: string) => ({
      'package.json': JSON.stringify({ name: NAME, private: true, scripts: { start: 'node server.js' } }),
      'server.js': `const http = require('node:http');
http.createServer((req, res) => res.end('Server ${label}')).listen(Number(process.env.PORT), process.env.HOST);
`,
    });
    const app = await startTestApp();
    const live = await watch(app);
    const build = async (files: Record<string, string>) => {
      const { buildId } = (await (await upload(app, makeZip(`${NAME}.zip`, files))).json()) as UploadResult;
      const done = await live.finished(buildId!, 120_000);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      expect(done.blueprint?.kind).toBe('server');
      return done;
    };
    const api = client(app, NAME);
    const one = (await build(server('one'))).id;
    const built = await build(server('two'));
    const two = built.id;
    const twoMs = built.durationMs ?? Infinity;
    expect(await api.previewPage()).toBe('Server two');

    const res = await api.rollback({ build: one });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = RollbackResult.parse(res.body);
    expect(done).toMatchObject({ buildId: one, previousBuildId: two });
    // The app's own start is in it (node starting: about 0.1 s idle, 0.5 s on this shared machine
    // under load), so the bound is looser than a site's; and it is quicker than building.
    expect(done.durationMs).toBeLessThan(3000);
    expect(done.durationMs).toBeLessThan(twoMs);
    expect(await (await fetch(done.previewUrl!)).text()).toBe('Server one');
    expect(await api.previewPage()).toBe('Server one');
    expect((await api.download()).build).toBe(one);
    const builtIds = live.messages.flatMap((m) => (m.type === 'build-stage' ? [m.buildId] : []));
    expect(new Set(builtIds)).toEqual(new Set([one, two]));

    // Forward again by id: the later tree's app answers.
    const forward = RollbackResult.parse((await api.rollback({ build: two })).body);
    expect(await (await fetch(forward.previewUrl!)).text()).toBe('Server two');
  }, 120_000);

  it("runs a server app against the project's packages when it installed the same, and refuses it otherwise", async () => {
    const NAME = 'server-deps';
    const server = (dep: string, label: string) => ({
      'package.json': JSON.stringify({
        name: NAME,
        private: true,
        scripts: { start: 'node server.js' },
        dependencies: { [dep]: `file:./${dep}` },
      }),
      'server.js': `const word = require('${dep}');
require('node:http').createServer((q, s) => s.end(word + ' ${label}')).listen(Number(process.env.PORT), process.env.HOST);
`,
      'local-a/package.json': JSON.stringify({ name: 'local-a', version: '1.0.0', main: 'index.js' }),
      'local-a/index.js': "module.exports = 'from a';\n",
      'local-b/package.json': JSON.stringify({ name: 'local-b', version: '1.0.0', main: 'index.js' }),
      'local-b/index.js': "module.exports = 'from b';\n",
    });
    const app = await startTestApp();
    const live = await watch(app);
    const build = async (files: Record<string, string>) => {
      const { buildId } = (await (await upload(app, makeZip(`${NAME}.zip`, files))).json()) as UploadResult;
      const done = await live.finished(buildId!, 120_000);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      return done.id;
    };
    const api = client(app, NAME);
    const one = await build(server('local-a', 'one'));
    await build(server('local-a', 'two'));
    expect(await api.previewPage()).toBe('from a two');
    // Same package.json and lockfile as the project's install: the tree runs on its node_modules.
    const same = await api.rollback({ build: one });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(await (await fetch(RollbackResult.parse(same.body).previewUrl!)).text()).toBe('from a one');

    await build(server('local-b', 'three'));
    const res = await api.rollback({ build: one });
    expect(res.status).toBe(409);
    const error = ErrorBody.parse(res.body);
    expect(error.code).toBe('ROLLBACK_UNSUPPORTED');
    expect(error.error).toContain('package.json');
    expect(await api.previewPage()).toBe('from b three');
  }, 120_000);
});
