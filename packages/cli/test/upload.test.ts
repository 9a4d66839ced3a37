import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { CliResult } from '@forge/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from './helpers.ts';
import { makeZip } from '@forge/testing';

// `forge upload` against the real built daemon.

describe('forge upload refuses a bad file before contacting (or starting) the daemon', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await Sandbox.create();
  });
  afterAll(async () => {
    await sandbox.dispose();
  });

  it.each([
    ['a missing file', 'missing.zip', 2, 'error', 'USAGE', /^error: No such file: missing\.zip$/m],
    [
      'a file that is not a ZIP',
      'notes.txt',
      6,
      'refused',
      'INVALID_FILE_TYPE',
      /^error: Invalid file type — Please upload a ZIP file \(notes\.txt\)$/m,
    ],
    ['a folder', 'folder.zip', 2, 'error', 'USAGE', /^error: folder\.zip is a folder, not a ZIP file\.$/m],
    [
      'a ZIP over 50 MB',
      'big.zip',
      6,
      'refused',
      'FILE_TOO_LARGE',
      /^error: File too large — Maximum file size is 50MB \(big\.zip is 51 MB\)$/m,
    ],
  ])('%s (%s): exit %i, one %s document on stdout', async (_what, file, exitCode, status, code, message) => {
    writeFileSync(join(sandbox.cwd, 'notes.txt'), 'not a zip');
    await mkdir(join(sandbox.cwd, 'folder.zip'), { recursive: true });
    // Sparse: 51 MB on paper, nothing on disk.
    writeFileSync(join(sandbox.cwd, 'big.zip'), '');
    await truncate(join(sandbox.cwd, 'big.zip'), 51 * 1024 * 1024);

    const { code: exit, stdout, stderr } = await sandbox.run(['upload', file, '--wait', '--json']);
    expect(exit).toBe(exitCode);
    expect(CliResult.parse(JSON.parse(stdout))).toMatchObject({ status, error: { code } });
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(sandbox.stateFile)).toBe(false);
  });
});

describe('forge upload end to end', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await Sandbox.withDaemon();
  });
  afterAll(async () => {
    await sandbox.dispose();
  });

  const site = {
    'index.html':
      '<!doctype html><html><head><link rel="stylesheet" href="style.css"></head><body><h1>Hello from Forge</h1></body></html>\n',
    'style.css': 'h1 { color: rebeccapurple; }\n',
  };

  it('upload site.zip --wait --json builds a static site to a preview that serves it', async () => {
    writeFileSync(join(sandbox.cwd, 'site.zip'), makeZip(site));

    const { code, stdout, stderr } = await sandbox.run(['upload', 'site.zip', '--wait', '--json']);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(result).sort()).toEqual(
      [
        'buildId',
        'cacheHit',
        'durations',
        'previewUrl',
        'projectName',
        'repairs',
        'stage',
        'status',
        'tests',
        'testsPolicy',
      ].sort(),
    );
    expect(result).toMatchObject({
      projectName: 'site',
      status: 'succeeded',
      cacheHit: false,
      repairs: [],
      // A static site without a test script: no tests, nothing failed.
      tests: { status: 'none', command: null },
      testsPolicy: 'required',
    });
    expect(result.durations).toMatchObject({ extract: expect.any(Number) });
    expect(stderr).toMatch(/^ +\+\S+ {2}Extracting$/m);
    expect(stderr).toContain(`Build succeeded: site, build ${String(result.buildId)}`);
    expect(stderr).not.toContain('\u001b');

    const previewUrl = String(result.previewUrl);
    const page = await fetch(previewUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Hello from Forge');
    const css = await fetch(new URL('style.css', previewUrl));
    expect(await css.text()).toContain('rebeccapurple');

    // The same build seen by the other commands.
    const logs = await sandbox.run(['logs', String(result.buildId)]);
    expect(logs.stdout).toMatch(/^\d\d:\d\d:\d\d \w+ +ExtractBot /m);
    const plan = await sandbox.run(['plan', 'site']);
    expect(plan.stdout).toMatch(/^ {2}kind +static$/m);
    expect(plan.stdout).toContain('[index.html]');
    expect((await sandbox.run(['preview', 'site'])).stdout.trim()).toBe(previewUrl);
  });

  it('re-uploading a project that has a build step is a cache hit', async () => {
    writeFileSync(
      join(sandbox.cwd, 'app.zip'),
      makeZip({
        'package.json': JSON.stringify({ name: 'app', private: true, scripts: { build: 'node build.js' } }),
        'build.js':
          "const fs = require('fs'); fs.mkdirSync('dist', { recursive: true }); fs.writeFileSync('dist/index.html', '<h1>built</h1>');\n",
      }),
    );
    const first = await sandbox.run(['upload', 'app.zip', '--wait', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 'succeeded', cacheHit: false });
    expect(first.stderr).toMatch(/^ +\+\S+ {2}Building$/m);

    const again = await sandbox.run(['upload', 'app.zip', '--wait', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const result = JSON.parse(again.stdout) as { cacheHit: boolean; previewUrl: string };
    expect(result).toMatchObject({ status: 'succeeded', cacheHit: true });
    expect(again.stderr).toContain('(cache hit)');
    expect(await (await fetch(result.previewUrl)).text()).toContain('built');
  });

  it('download writes the source and the build output as ZIPs', async () => {
    if (!existsSync(join(sandbox.cwd, 'site.zip'))) {
      writeFileSync(join(sandbox.cwd, 'site.zip'), makeZip(site));
      expect((await sandbox.run(['upload', 'site.zip', '--wait'])).code).toBe(0);
    }
    const source = await sandbox.run(['download', 'site', '-o', 'source.zip']);
    expect(source.code, source.stderr).toBe(0);
    const zip = readFileSync(join(sandbox.cwd, 'source.zip'));
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes('index.html')).toBe(true);

    const artifact = await sandbox.run(['download', 'site', '--artifact', '-o', 'build.zip']);
    expect(artifact.code, artifact.stderr).toBe(0);
    const built = readFileSync(join(sandbox.cwd, 'build.zip'));
    expect(built.subarray(0, 2).toString()).toBe('PK');
    expect(built.includes('style.css')).toBe(true);

    // Without --force an existing file is kept.
    const again = await sandbox.run(['download', 'site', '-o', 'source.zip']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
  });
});
