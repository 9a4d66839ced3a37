import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody, ProjectHistory, Rebuild, type UploadResult } from '@forge/shared';
import { makeZip, upload, watch } from './build-helpers.ts';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';

/**
 * Verification rebuilds (`forge verify --rebuild`) are kept in the store: GET /api/rebuilds/:id
 * answers after the daemon restarts, and one that was running when it stopped is recorded as
 * interrupted (docs/artifacts.md).
 */

afterEach(cleanup);

/** A deterministic build of a page; `waits`: as a rebuild (in the daemon's scratch folder) it says so and waits to be stopped. */
const filesOf = (waits: boolean) => ({
  'package.json': JSON.stringify({ name: 'rebuilt', private: true, scripts: { build: 'node build.js' } }),
  'build.js': `const fs = require('fs');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><h1>rebuilt</h1>');
if (${waits} && process.cwd().includes('rebuild-')) {
  console.log('rebuild is waiting to be stopped');
  setInterval(() => {}, 1000);
}
`,
});

async function builtOnce(app: TestApp, waits = false) {
  const live = await watch(app);
  const { buildId } = (await (
    await upload(app, makeZip('rebuilt.zip', filesOf(waits)))
  ).json()) as UploadResult;
  const done = await live.finished(buildId!, 120_000);
  expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
  const history = ProjectHistory.parse(await (await fetch(`${app.url}/api/projects/rebuilt/history`)).json());
  const entry = history.builds[0]!;
  return { buildId: done.id, sourceSha256: entry.sourceSha256, artifactSha256: entry.artifactSha256 };
}

const startRebuild = async (app: TestApp, body: object) => {
  const res = await fetch(`${app.url}/api/rebuilds`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.ok).toBe(true);
  return Rebuild.parse(await res.json());
};

const rebuildOf = async (app: TestApp, id: string, wait = 0) => {
  const res = await fetch(`${app.url}/api/rebuilds/${id}?wait=${wait}`);
  return { status: res.status, body: (await res.json()) as unknown };
};

describe('verification rebuilds across a restart', () => {
  it('answers a finished rebuild after the daemon restarts', async () => {
    const first = await startTestApp();
    const body = await builtOnce(first);
    const started = await startRebuild(first, body);
    let done = Rebuild.parse((await rebuildOf(first, started.id, 60)).body);
    while (done.finishedAt === null) done = Rebuild.parse((await rebuildOf(first, started.id, 60)).body);
    expect(done.status, done.log.join('\n')).toBe('identical');
    await first.stop();

    const second = await startTestApp({ home: first.home });
    const again = await rebuildOf(second, started.id);
    expect(again.status).toBe(200);
    expect(Rebuild.parse(again.body)).toEqual(done);
    const unknown = await rebuildOf(second, 'rb_000000000000');
    expect(unknown.status).toBe(404);
    expect(ErrorBody.parse(unknown.body).code).toBe('REBUILD_NOT_FOUND');
  }, 120_000);

  it('records a rebuild running when the daemon stopped as interrupted', async () => {
    const first = await startTestApp();
    const body = await builtOnce(first, true);
    const started = await startRebuild(first, body);
    let state = Rebuild.parse((await rebuildOf(first, started.id, 1)).body);
    while (!state.log.some((l) => l.includes('rebuild is waiting to be stopped'))) {
      expect(state.finishedAt, state.log.join('\n')).toBeNull();
      state = Rebuild.parse((await rebuildOf(first, started.id, 1)).body);
    }
    await first.stop();

    const second = await startTestApp({ home: first.home });
    const after = Rebuild.parse((await rebuildOf(second, started.id)).body);
    expect(after.status).toBe('failed');
    expect(after.error?.code).toBe('REBUILD_INTERRUPTED');
    expect(after.finishedAt).not.toBeNull();
    expect(after.log.at(-1)).toContain('REBUILD_INTERRUPTED');
  }, 120_000);

  it('records a rebuild left unfinished by a daemon that died as interrupted', async () => {
    const first = await startTestApp();
    const body = await builtOnce(first);
    const started = await startRebuild(first, body);
    await rebuildOf(first, started.id, 60);
    // What a killed daemon leaves: the row as it was when the rebuild started.
    first.store.db
      .prepare('UPDATE verification_rebuilds SET finished_at = NULL, state = ? WHERE id = ?')
      .run(JSON.stringify(started), started.id);
    await first.stop();
    const second = await startTestApp({ home: first.home });
    const after = Rebuild.parse((await rebuildOf(second, started.id)).body);
    expect(after).toMatchObject({ status: 'failed', error: { code: 'REBUILD_INTERRUPTED' } });
  }, 120_000);
});
