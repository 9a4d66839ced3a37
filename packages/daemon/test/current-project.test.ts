import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Build, FileStructureResponse, Project, ServerMessage, UploadResult } from '@forge/shared';
import { forgeZip } from '@forge/testing';
import { makeZip, upload, watch, ZERO_DEP_BUILD } from './build-helpers.ts';
import { cleanup, startTestApp, tempDir, type TestApp } from './helpers.ts';

afterEach(cleanup);

const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;
const get = (app: TestApp, route: string) => fetch(`${app.url}${route}`);
const send = (app: TestApp, method: string, route: string, body?: unknown) =>
  fetch(`${app.url}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const current = (app: TestApp) => json<{ name: string | null }>(get(app, '/api/projects/current'));
const text = async (res: Promise<Response>) => {
  const answer = await res;
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { text: string }).text;
};

/** A project whose build fails: its build script exits 1 naming the file it could not read. */
const BROKEN = {
  'package.json': JSON.stringify({ name: 'broken', private: true, scripts: { build: 'node build.js' } }),
  'build.js': "console.error('Error: cannot read src/config.json'); process.exit(1);",
};

describe('the current project', () => {
  it('is the upload the user made, not the project an Auto-Forge rebuild touched after it', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const zero = await json<UploadResult>(upload(app, makeZip('zero.zip', ZERO_DEP_BUILD)));
    expect((await live.finished(zero.buildId!)).status).toBe('succeeded');
    expect(await current(app)).toEqual({ name: 'zero' });

    // A save in zero arms Auto-Forge (it rebuilds once the files are quiet); the user uploads a
    // broken project meanwhile, and zero's rebuild starts after that upload.
    await get(app, '/api/files/structure?project=zero');
    await app.forge.services.files.watchBot.ready('zero');
    const edited = ZERO_DEP_BUILD['build.js'].replace('Built by Forge', 'Rebuilt by Auto-Forge');
    expect(
      (await send(app, 'POST', '/api/files/save', { path: 'build.js', content: edited, project: 'zero' }))
        .status,
    ).toBe(200);
    const broken = await json<UploadResult>(upload(app, makeZip('broken.zip', BROKEN)));
    expect(broken).toMatchObject({ projectName: 'broken', buildResult: { success: true } });
    expect(['queued', 'running']).toContain(broken.status);
    expect((await live.finished(broken.buildId!)).status).toBe('failed');
    const rebuild = (await live.until(
      (m) => m.type === 'build-stage' && m.projectName === 'zero' && m.buildId !== zero.buildId,
      20_000,
    )) as Extract<ServerMessage, { type: 'build-stage' }>;
    const rebuilt = await live.finished(rebuild.buildId!);
    expect(rebuilt.status).toBe('succeeded');
    // zero is now the most recently built project; the user's choice is still broken.
    const projects = await json<Project[]>(get(app, '/api/projects'));
    expect(projects[0]!.name).toBe('zero');
    expect(await current(app)).toEqual({ name: 'broken' });

    // Every answer without a project is about broken.
    expect(await text(send(app, 'POST', '/api/forge/fix-modules'))).toMatch(
      /^No missing modules to repair in broken: its last build \(b\d+-\w+\) failed/,
    );
    expect(await text(get(app, '/api/forge/blueprint'))).toContain('Blueprint of broken');
    expect(await text(get(app, '/api/forge/issues'))).toContain('broken');
    expect(await text(get(app, '/api/forge/status'))).toContain('Current project: broken; last build');
    const chat = await json<{ ok: true; replies?: Array<{ role: string; message: string }> }>(
      send(app, 'POST', '/api/chat', { q: 'status' }),
    );
    expect(chat.replies?.[0]?.message).toContain('Current project: broken');
    expect((await json<FileStructureResponse>(get(app, '/api/files/structure'))).projectName).toBe('broken');

    // Naming a project answers about it; an unknown name is the catalogue's 404.
    expect(await text(get(app, '/api/forge/blueprint?project=zero'))).toContain('Blueprint of zero');
    expect(await text(send(app, 'POST', '/api/forge/fix-modules?project=zero'))).toMatch(
      /^No missing modules to repair in zero: its last build \(b\d+-\w+\) succeeded/,
    );
    expect(await text(get(app, '/api/forge/status?project=zero'))).toContain('Current project: zero');
    for (const res of [
      get(app, '/api/forge/issues?project=nope'),
      send(app, 'POST', '/api/forge/fix-modules?project=nope'),
      send(app, 'POST', '/api/chat', { q: 'status', project: 'nope' }),
    ]) {
      const answer = await res;
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({
        code: 'PROJECT_NOT_FOUND',
        error: 'There is no project named "nope".',
      });
    }
    const fix = await json<{ replies?: Array<{ message: string }> }>(
      send(app, 'POST', '/api/chat', { q: 'fix', project: 'zero' }),
    );
    expect(fix.replies?.[0]?.message).toContain('zero');
  });

  it('never becomes a refused upload, and a refused upload leaves no project behind', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const site = await json<UploadResult>(upload(app, makeZip('site.zip', { 'index.html': '<h1>hi</h1>' })));
    await live.finished(site.buildId!);
    expect(await current(app)).toEqual({ name: 'site' });

    const zips = tempDir('forge-zip-');
    const garbage = path.join(zips, 'garbage.zip');
    fs.writeFileSync(garbage, Buffer.from('PK\u0003\u0004 this is not really a zip archive at all'));
    const slip = path.join(zips, 'slip.zip');
    fs.writeFileSync(slip, forgeZip([{ name: '../outside.txt', data: 'x' }]));
    for (const zip of [garbage, slip]) {
      const refused = await upload(app, zip);
      expect(refused.status).toBe(422);
    }

    expect(await current(app)).toEqual({ name: 'site' });
    expect((await json<Project[]>(get(app, '/api/projects'))).map((p) => p.name)).toEqual(['site']);
    expect((await json<FileStructureResponse>(get(app, '/api/files/structure'))).projectName).toBe('site');
    expect((await json<{ url: string | null }>(get(app, '/api/preview/url'))).url).not.toBeNull();
    expect(await text(get(app, '/api/forge/blueprint'))).toContain('Blueprint of site');
    // The refused uploads stay in the build history, failed with their reason.
    const history = await json<Build[]>(get(app, '/api/builds'));
    expect(
      history
        .filter((b) => b.status === 'failed')
        .map((b) => b.projectName)
        .sort(),
    ).toEqual(['garbage', 'slip']);
  });

  it('is chosen with POST /api/projects/current, kept across a restart, and must exist', async () => {
    const home = tempDir('forge-home-');
    const first = await startTestApp({ home });
    const live = await watch(first);
    for (const name of ['one', 'two']) {
      const up = await json<UploadResult>(upload(first, makeZip(`${name}.zip`, { 'index.html': name })));
      await live.finished(up.buildId!);
    }
    expect(await current(first)).toEqual({ name: 'two' });
    expect(await json(send(first, 'POST', '/api/projects/current', { name: 'one' }))).toEqual({
      name: 'one',
    });
    const unknown = await send(first, 'POST', '/api/projects/current', { name: 'three' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    expect(await current(first)).toEqual({ name: 'one' });
    await first.stop();

    const second = await startTestApp({ home });
    expect(await current(second)).toEqual({ name: 'one' });
    expect(await text(get(second, '/api/forge/blueprint'))).toContain('Blueprint of one');
  });
});
