import { describe, expect, it } from 'vitest';
import { BuildDiff, type Build } from '@forge/shared';
import { hasRedis } from '@forge/testing';
import { oneWorkerCluster } from './one-worker.ts';

/**
 * "Why is it red now?" for a build a `forge worker` ran: the coordinator keeps the failed build's
 * source (docs/artifacts.md), so `forge diff` compares it with the last green build as it does a
 * local build's.
 */

const version = (title: string) => ({
  'package.json': JSON.stringify({
    name: 'red-on-worker',
    private: true,
    scripts: { build: 'node build.js' },
  }),
  'build.js': `const fs = require('fs');
const title = ${title};
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><h1>' + title + '</h1>');
`,
  'README.md': 'unchanged\n',
});

describe.skipIf(!hasRedis())('scale-out: why a worker build is red', () => {
  const cluster = oneWorkerCluster();

  it('compares a failed worker build with the last green one', async () => {
    const { daemon, api } = await cluster.start('w-red');
    const ended = (id: string): Promise<Build> =>
      api.until(`build ${id} to end`, async () => {
        const b = await api.build(id);
        return b.status !== 'queued' && b.status !== 'running' ? b : null;
      });

    const green = await ended((await api.upload('red-on-worker.zip', version("'Green'"))).buildId);
    expect(green).toMatchObject({ status: 'succeeded', worker: 'w-red' });
    const red = await ended((await api.upload('red-on-worker.zip', version("'Red' +"))).buildId);
    expect(red).toMatchObject({ status: 'failed', worker: 'w-red' });

    const res = await fetch(`${daemon.url}/api/builds/${red.id}/diff`);
    expect(res.status, await res.clone().text()).toBe(200);
    const diff = BuildDiff.parse(await res.json());
    expect(diff.greenBuildId).toBe(green.id);
    expect(diff.files.changes.map((c) => [c.path, c.status])).toEqual([['build.js', 'modified']]);
    expect(diff.files.changes[0]!.diff).toContain("+const title = 'Red' +;");
    expect(
      diff.pointsAt.some((p) => p.kind === 'file' && p.name === 'build.js'),
      JSON.stringify([diff.failure, diff.pointsAt]),
    ).toBe(true);
  }, 180_000);
});
