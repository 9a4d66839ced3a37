import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZip } from '@forge/testing';
import { Sandbox } from './helpers.ts';

// forge verify --rebuild: the daemon builds the recorded source again (the source ZIP it kept, by
// digest) with the recorded plan and toolchains and compares: identical for a deterministic build,
// each differing file named for one that stamps the time, "cannot rebuild" when the source is gone.

/** A build that writes the same bytes every time, and SOURCE_DATE_EPOCH as it got it. */
const STEADY = {
  'package.json': JSON.stringify({ name: 'steady', private: true, scripts: { build: 'node build.js' } }),
  'build.js': `const fs = require('fs');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><h1>steady</h1>');
fs.writeFileSync('dist/epoch.txt', String(process.env.SOURCE_DATE_EPOCH));
`,
};

/** A build that stamps the time it ran into its output: a real non-deterministic output. */
const STAMPED = {
  'package.json': JSON.stringify({ name: 'stamped', private: true, scripts: { build: 'node build.js' } }),
  'build.js': `const fs = require('fs');
fs.mkdirSync('dist', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><h1>stamped</h1>');
fs.writeFileSync('dist/built-at.txt', new Date().toISOString() + ' ' + process.hrtime.bigint());
`,
};

let sandbox: Sandbox;
let url: string;

interface Uploaded {
  buildId: string;
  status: string;
}

async function build(file: string, ...flags: string[]): Promise<Uploaded> {
  const run = await sandbox.run(['upload', file, '--wait', '--json', ...flags]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Uploaded;
}

/** The build's artifact and its provenance beside it, as a user downloads them. */
async function download(buildId: string, as: string): Promise<Buffer> {
  const zip = Buffer.from(await (await fetch(`${url}/api/builds/${buildId}/artifact`)).arrayBuffer());
  writeFileSync(join(sandbox.cwd, as), zip);
  const envelope = await (await fetch(`${url}/api/builds/${buildId}/provenance`)).text();
  writeFileSync(join(sandbox.cwd, `${as}.intoto.jsonl`), `${envelope}\n`);
  return zip;
}

const buildsOf = async (project: string): Promise<unknown[]> =>
  ((await (await fetch(`${url}/api/builds`)).json()) as { projectName: string }[]).filter(
    (b) => b.projectName === project,
  );

beforeAll(async () => {
  sandbox = await Sandbox.withDaemon();
  url = sandbox.state()!.url;
  writeZip(sandbox.cwd, 'steady.zip', STEADY);
  writeZip(sandbox.cwd, 'stamped.zip', STAMPED);
}, 120_000);
afterAll(async () => {
  await sandbox.dispose();
});

describe('forge verify --rebuild', () => {
  it('rebuilds a deterministic build to the same bytes and says identical, without a new build of the project', async () => {
    const first = await build('steady.zip');
    const second = await build('steady.zip', '--no-cache');
    expect(second.buildId).not.toBe(first.buildId);
    const a = await download(first.buildId, 'first.zip');
    const b = await download(second.buildId, 'steady-artifact.zip');
    expect(b.equals(a)).toBe(true);
    // The build's commands got the artifact's SOURCE_DATE_EPOCH (1980-01-01 unless the daemon sets one).
    expect(a.includes(Buffer.from('315532800'))).toBe(true);

    const before = await buildsOf('steady');
    const run = await sandbox.run(['verify', 'steady-artifact.zip', '--rebuild']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('✓ subject');
    expect(run.stdout).toMatch(
      new RegExp(`✓ rebuild: identical — build ${second.buildId} of steady rebuilt from source [0-9a-f]{16}`),
    );
    // A verification, not a build: the project's builds and current output are as they were.
    expect(await buildsOf('steady')).toEqual(before);
  }, 300_000);

  it('names the file a time-stamping build writes differently, with both sides', async () => {
    const stamped = await build('stamped.zip');
    await download(stamped.buildId, 'stamped-artifact.zip');
    const run = await sandbox.run(['verify', 'stamped-artifact.zip', '--rebuild', '--json']);
    expect(run.code, run.stderr).toBe(8);
    const out = JSON.parse(run.stdout) as {
      ok: boolean;
      code: string;
      rebuild: {
        status: string;
        differences: {
          path: string;
          artifact: { sha256: string } | null;
          rebuild: { sha256: string } | null;
        }[];
      };
    };
    expect(out.ok).toBe(false);
    expect(out.code).toBe('REBUILD_DIFFERS');
    expect(out.rebuild.status).toBe('differs');
    expect(out.rebuild.differences.map((d) => d.path)).toEqual(['built-at.txt']);
    const [diff] = out.rebuild.differences;
    expect(diff!.artifact!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(diff!.rebuild!.sha256).not.toBe(diff!.artifact!.sha256);

    const text = await sandbox.run(['verify', 'stamped-artifact.zip', '--rebuild']);
    expect(text.code).toBe(8);
    expect(text.stdout).toContain('✗ rebuild: differs');
    expect(text.stdout).toContain('1 file differ:');
    expect(text.stdout).toMatch(
      / {2}built-at\.txt\n {4}artifact: \d+ B sha256 [0-9a-f]{64}\n {4}rebuild: {2}\d+ B sha256 [0-9a-f]{64}/,
    );
    expect(text.stderr).toContain('REBUILD_DIFFERS');
  }, 300_000);

  it('says it cannot rebuild when the daemon no longer keeps the source', async () => {
    const envelope = JSON.parse(readFileSync(join(sandbox.cwd, 'first.zip.intoto.jsonl'), 'utf8')) as {
      payload: string;
    };
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString()) as {
      predicate: { runDetails: { metadata: { invocationId: string } } };
    };
    const buildId = statement.predicate.runDetails.metadata.invocationId;
    // Both builds of the same source kept it: remove each.
    for (const id of [buildId, ...((await buildsOf('steady')) as { id: string }[]).map((b) => b.id)])
      rmSync(join(sandbox.home, 'artifacts', 'steady', id, 'source.zip'), { force: true });
    const run = await sandbox.run(['verify', 'first.zip', '--rebuild']);
    expect(run.code).toBe(9);
    expect(run.stdout).toContain('✓ subject');
    expect(run.stderr).toContain('keeps no source with sha256');
    expect(run.stderr).toContain('REBUILD_SOURCE_NOT_KEPT');
  }, 120_000);
});
