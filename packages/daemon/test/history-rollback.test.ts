import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ErrorBody,
  ProjectHistory,
  RollbackResult,
  type ServerMessage,
  type UploadResult,
} from '@forge/shared';
import { makeZip, upload, watch } from './build-helpers.ts';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';

/**
 * A project's history and rollback through a real daemon (docs/artifacts.md): builds of different
 * content, the preview and "Download App" switched back to an earlier build without building, and
 * pruning that keeps the keepArtifacts setting's count but never the current build.
 */

afterEach(cleanup);

const NAME = 'history-app';

/** A project without dependencies whose build writes a page saying `label`. */
const versionOf = (label: string) => ({
  'package.json': JSON.stringify({ name: NAME, private: true, scripts: { build: 'node build.js' } }),
  'build.js': `const fs = require('fs');
fs.mkdirSync('dist/assets', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><html><body><h1>Version ${label}</h1><script src="/assets/app.js"></script></body></html>');
fs.writeFileSync('dist/assets/app.js', 'console.log(${JSON.stringify(label)})');
`,
});

const BROKEN = {
  'package.json': JSON.stringify({ name: NAME, private: true, scripts: { build: 'node build.js' } }),
  'build.js': `throw new Error('this version does not build');`,
};

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

async function json<T>(res: Promise<Response> | Response): Promise<{ status: number; body: T }> {
  const r = await res;
  return { status: r.status, body: (await r.json()) as T };
}

describe('history and rollback', () => {
  it('rolls the preview and the download back to an earlier build, and prunes to the setting', async () => {
    const app = await startTestApp();
    const live = await watch(app);
    const build = async (files: Record<string, string>, status = 'succeeded') => {
      const { buildId } = (await (await upload(app, makeZip(`${NAME}.zip`, files))).json()) as UploadResult;
      const done = await live.finished(buildId!, 120_000);
      expect(done.status, JSON.stringify(done.error)).toBe(status);
      return done.id;
    };
    const history = async () => {
      const { status, body } = await json<unknown>(fetch(`${app.url}/api/projects/${NAME}/history`));
      expect(status).toBe(200);
      return ProjectHistory.parse(body);
    };
    const rollback = (body: object) =>
      fetch(`${app.url}/api/projects/${NAME}/rollback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const previewPage = async () => {
      const { body } = await json<{ url: string | null }>(
        fetch(`${app.url}/api/preview/url?project=${NAME}`),
      );
      expect(body.url).not.toBeNull();
      return (await fetch(body.url!)).text();
    };
    const download = async () => {
      const res = await fetch(`${app.url}/api/projects/${NAME}/artifact`);
      expect(res.status).toBe(200);
      return { build: res.headers.get('x-forge-build'), bytes: Buffer.from(await res.arrayBuffer()) };
    };

    const one = await build(versionOf('one'));
    // Without an earlier build there is nothing to go back to.
    const none = await json<unknown>(rollback({}));
    expect(none.status).toBe(409);
    expect(ErrorBody.parse(none.body).code).toBe('NO_EARLIER_BUILD');

    const two = await build(versionOf('two'));
    expect(await previewPage()).toContain('Version two');
    let h = await history();
    expect(h.keep).toBe(10);
    expect(h.builds.map((b) => [b.buildId, b.current])).toEqual([
      [two, true],
      [one, false],
    ]);
    expect(h.currentBuildId).toBe(two);
    const recordedOne = h.builds[1]!;
    expect(recordedOne.bytes).toBeGreaterThan(0);
    expect(recordedOne.files).toBe(3);

    // Default: the previous green build. The preview and "Download App" are build one's, at once.
    const res = await json<unknown>(rollback({}));
    expect(res.status).toBe(200);
    const done = RollbackResult.parse(res.body);
    expect(done).toMatchObject({ projectName: NAME, buildId: one, previousBuildId: two });
    expect(done.durationMs).toBeLessThan(1000);
    const event = await live.until((m: ServerMessage) => m.type === 'build-rollback');
    expect(event).toMatchObject({ projectName: NAME, currentBuildId: one, previousBuildId: two });
    expect(done.previewUrl).not.toBeNull();
    expect(await (await fetch(done.previewUrl!)).text()).toContain('Version one');
    expect(await previewPage()).toContain('Version one');
    const got = await download();
    expect(got.build).toBe(one);
    expect(sha256(got.bytes)).toBe(recordedOne.artifactSha256);
    h = await history();
    expect(h.currentBuildId).toBe(one);
    expect(h.builds.find((b) => b.current)?.buildId).toBe(one);
    // No build ran for it.
    const builtIds = live.messages.flatMap((m) => (m.type === 'build-stage' ? [m.buildId] : []));
    expect(new Set(builtIds)).toEqual(new Set([one, two]));

    // By id, forward again.
    const forward = RollbackResult.parse((await json<unknown>(rollback({ build: two }))).body);
    expect(forward.buildId).toBe(two);
    expect(await previewPage()).toContain('Version two');

    // A failed build and an unknown one are refused with their codes; the current build stays.
    const failed = await build(BROKEN, 'failed');
    const notKept = await json<unknown>(rollback({ build: failed }));
    expect(notKept.status).toBe(410);
    expect(ErrorBody.parse(notKept.body).code).toBe('BUILD_NOT_KEPT');
    const unknown = await json<unknown>(rollback({ build: 'b999-nothing' }));
    expect(unknown.status).toBe(404);
    expect(ErrorBody.parse(unknown.body).code).toBe('BUILD_NOT_FOUND');
    expect((await history()).currentBuildId).toBe(two);

    // Keep 2: build one is made current, then two newer builds push the older ones out.
    const set = await fetch(`${app.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ keepArtifacts: 2 }),
    });
    expect(set.status).toBe(200);
    RollbackResult.parse((await json<unknown>(rollback({ build: one }))).body);
    const three = await build(versionOf('three'));
    // Build one was current while three was recorded: kept beyond the count.
    expect((await history()).builds.map((b) => b.buildId)).toEqual([three, two, one]);
    const four = await build(versionOf('four'));
    h = await history();
    expect(h.keep).toBe(2);
    expect(h.builds.map((b) => b.buildId)).toEqual([four, three]);
    expect(h.currentBuildId).toBe(four);
    const artifacts = path.join(app.home, 'artifacts', NAME);
    expect(fs.readdirSync(artifacts).sort()).toEqual([three, four].sort());
    const pruned = await json<unknown>(rollback({ build: one }));
    expect(pruned.status).toBe(410);
    const pruneError = ErrorBody.parse(pruned.body);
    expect(pruneError.code).toBe('BUILD_NOT_KEPT');
    expect(pruneError.error).toContain('keeps its last 2');
    expect(await previewPage()).toContain('Version four');

    // Rolled back, the build cache keys on that build's source: uploading it again builds nothing.
    RollbackResult.parse((await json<unknown>(rollback({ build: three }))).body);
    const { buildId: again } = (await (
      await upload(app, makeZip(`${NAME}.zip`, versionOf('three')))
    ).json()) as UploadResult;
    const cached = await live.finished(again!, 120_000);
    expect(cached.status).toBe('succeeded');
    expect(cached.cacheHit).toBe(true);
    expect(await previewPage()).toContain('Version three');
  }, 300_000);

  it('answers 404 for the history of a project that does not exist', async () => {
    const app: TestApp = await startTestApp();
    const res = await json<unknown>(fetch(`${app.url}/api/projects/nope/history`));
    expect(res.status).toBe(404);
    expect(ErrorBody.parse(res.body).code).toBe('PROJECT_NOT_FOUND');
  });
});
