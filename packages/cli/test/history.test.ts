import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliResult, ProjectHistory, RollbackResult } from '@forge/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '@forge/testing';
import { Sandbox } from './helpers.ts';

// forge history and forge rollback against a real daemon: two builds of different content, the
// table and its JSON, a rollback to the previous green build that switches the preview and the
// download, and the errors of an unknown build.

let sandbox: Sandbox;
let first: string;
let second: string;

/** A project without dependencies whose build writes a page saying `label`. */
const version = (label: string) =>
  makeZip({
    'package.json': JSON.stringify({ name: 'hist', private: true, scripts: { build: 'node build.js' } }),
    'build.js': `require('fs').mkdirSync('dist', { recursive: true });
require('fs').writeFileSync('dist/index.html', '<h1>Release ${label}</h1>');
`,
  });

beforeAll(async () => {
  sandbox = await Sandbox.withDaemon();
  const build = async (label: string) => {
    writeFileSync(join(sandbox.cwd, 'hist.zip'), version(label));
    const run = await sandbox.run(['upload', 'hist.zip', '--wait', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = CliResult.parse(JSON.parse(run.stdout));
    if (!('buildId' in result) || !result.buildId) throw new Error(`no build: ${run.stdout}`);
    return result.buildId;
  };
  first = await build('one');
  second = await build('two');
}, 300_000);
afterAll(async () => {
  await sandbox.dispose();
});

describe('forge history and forge rollback', () => {
  it('lists the kept builds, rolls back to the previous green one, and refuses an unknown build', async () => {
    const json = await sandbox.run(['history', 'hist', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const history = ProjectHistory.parse(JSON.parse(json.stdout));
    expect(history.builds.map((b) => [b.buildId, b.current])).toEqual([
      [second, true],
      [first, false],
    ]);

    const table = await sandbox.run(['history', 'hist']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/BUILD\s+WHEN\s+VERDICT\s+SIZE\s+SHA256/);
    expect(lines[1]).toMatch(new RegExp(`^\\*\\s+${second}\\s`));
    expect(lines[2]).toMatch(new RegExp(`^\\s+${first}\\s`));
    expect(lines[2]).toContain(history.builds[1]!.artifactSha256.slice(0, 12));
    expect(table.stderr).toContain('forge rollback hist');

    const back = await sandbox.run(['rollback', 'hist']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain(`Rolled hist back to build ${first} (was ${second})`);
    const previewUrl = /Preview: (\S+)/.exec(back.stderr)?.[1];
    expect(previewUrl).toBeDefined();
    expect(await (await fetch(previewUrl!)).text()).toContain('Release one');

    // "Download App" now gives build one's recorded artifact.
    const download = await sandbox.run(['download', 'hist', '-a', '-o', 'app.zip']);
    expect(download.code, download.stderr).toBe(0);
    const bytes = readFileSync(join(sandbox.cwd, 'app.zip'));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(history.builds[1]!.artifactSha256);

    const again = await sandbox.run(['rollback', 'hist', second, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(RollbackResult.parse(JSON.parse(again.stdout))).toMatchObject({
      buildId: second,
      previousBuildId: first,
    });

    const unknown = await sandbox.run(['rollback', 'hist', 'b999-none']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Project "hist" has no build "b999-none".');
    const noProject = await sandbox.run(['history', 'nope']);
    expect(noProject.code).toBe(1);
    expect(noProject.stderr).toContain('There is no project named "nope".');
  });
});
