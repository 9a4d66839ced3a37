import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliResult } from '@forge/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeZip, StandIn } from '@forge/testing';
import { exitOf, Sandbox, waitForOutput } from './helpers.ts';

// The build commands of the spawned, built forge against a stand-in daemon (real HTTP and /ws) whose
// builds the test moves on step by step. The real daemon end to end: upload.test.ts.
let sandbox: Sandbox;
let standIn: StandIn;
let zip: string;
beforeEach(async () => {
  sandbox = await Sandbox.create();
  standIn = await StandIn.start();
  zip = join(sandbox.cwd, 'site.zip');
  writeFileSync(zip, makeZip({ 'index.html': '<h1>hello</h1>\n' }));
});
afterEach(async () => {
  await sandbox.dispose();
  await standIn.close();
});

// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b/;

/** A forge that runs while the test drives the stand-in; output is collected as it comes. */
function start(args: string[]) {
  const child: ChildProcess = sandbox.spawn(['--url', standIn.url, ...args]);
  const out = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (out.stdout += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (out.stderr += c));
  return {
    child,
    out,
    /** Resolves once `pattern` is on stderr. */
    stderrShows: (pattern: RegExp) => waitForOutput(child.stderr, pattern),
    stdoutShows: (pattern: RegExp) => waitForOutput(child.stdout, pattern),
    exit: () => exitOf(child),
  };
}

const run = (args: string[]) => sandbox.run(['--url', standIn.url, ...args]);

describe('forge upload', () => {
  it('--wait --json: follows the build stage by stage and prints exactly one JSON result', async () => {
    const forge = start(['upload', 'site.zip', '--wait', '--json']);
    const upload = await standIn.nextUpload();
    expect(upload.body.toString('latin1')).toContain('name="file"; filename="site.zip"');
    expect(Number(upload.contentLength)).toBe(upload.body.length);
    expect(upload.query.get('noCache')).toBeNull();

    await forge.stderrShows(/Following build b1 of site/);
    standIn.stage('b1', 'build-start');
    standIn.log('b1', 'vite build');
    standIn.stage('b1', 'build-success');
    standIn.finish('b1', 'succeeded', { previewUrl: 'http://127.0.0.1:9/' });
    expect(await forge.exit()).toBe(0);

    expect(JSON.parse(forge.out.stdout)).toEqual({
      projectName: 'site',
      buildId: 'b1',
      status: 'succeeded',
      stage: 'integration-available',
      durations: { extract: 12, detect: 3 },
      cacheHit: false,
      previewUrl: 'http://127.0.0.1:9/',
      repairs: [],
      testsPolicy: 'required',
    });
    const stages = [...forge.out.stderr.matchAll(/^ +\+\S+ {2}(.+)$/gm)].map((m) => m[1]);
    expect(stages).toEqual([
      'Starting',
      'Extracting',
      'Extracted',
      'Building',
      'Build Complete',
      'Integration Available',
    ]);
    expect(forge.out.stderr).toMatch(/^Uploading site\.zip \(\d+ B\)…$/m);
    expect(forge.out.stderr).toContain('Build succeeded: site, build b1');
    expect(forge.out.stderr).toMatch(/^ {2}preview +http:\/\/127\.0\.0\.1:9\/$/m);
    // Not a terminal: no colours, no redrawn progress lines.
    expect(forge.out.stderr + forge.out.stdout).not.toMatch(ESCAPE);
  });

  it('--wait exits 1 for a failed build and prints its error; --no-cache is passed on', async () => {
    const forge = start(['upload', zip, '--wait', '--no-cache']);
    expect((await standIn.nextUpload()).query.get('noCache')).toBe('1');
    await forge.stderrShows(/Following build/);
    standIn.finish('b1', 'failed');
    expect(await forge.exit()).toBe(1);
    expect(forge.out.stdout).toBe('');
    expect(forge.out.stderr).toContain('Build failed: site, build b1');
    expect(forge.out.stderr).toMatch(/error +npm run build exited with code 1 \[BUILD_FAILED\]/);
    expect(forge.out.stderr).toMatch(/^ {2}hint +The first error in the build output says why/m);
  });

  it('--app names the app of a repository of several to build', async () => {
    const forge = start(['upload', zip, '--app', 'apps/admin']);
    expect((await standIn.nextUpload()).query.get('app')).toBe('apps/admin');
    expect(await forge.exit()).toBe(0);
  });

  it('--wait still ends when /ws drops and the build-finished event is lost', async () => {
    const forge = start(['upload', zip, '--wait', '--json']);
    await forge.stderrShows(/Extracted/); // the first look at the record has been answered
    const reads = standIn.buildReads;
    standIn.dropSockets();
    await forge.stderrShows(/Lost the live connection/);
    // The look at the record right after the drop has been answered; only polling can see the end.
    await expect.poll(() => standIn.buildReads).toBeGreaterThan(reads);
    standIn.finish('b1', 'timed-out', { announce: false });
    expect(await forge.exit()).toBe(4);
    expect(JSON.parse(forge.out.stdout)).toMatchObject({ status: 'timed-out', stage: 'build-timeout' });
  });

  it('without --wait prints the project and build; --json the daemon’s answer', async () => {
    const plain = await run(['upload', zip]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toBe('project  site\nbuild    b1\n');
    expect(plain.stderr).toContain('forge logs -f b1');

    const json = await run(['upload', zip, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ projectName: 'site', buildId: 'b2' });
  });

  it("a refused archive prints the daemon's message and hint and exits 6", async () => {
    standIn.refuseUploads = 'ARCHIVE_PATH_TRAVERSAL';
    const { code, stdout, stderr } = await run(['upload', zip, '--wait', '--json']);
    expect(code).toBe(6);
    expect(CliResult.parse(JSON.parse(stdout))).toEqual({
      status: 'refused',
      file: zip,
      error: {
        code: 'ARCHIVE_PATH_TRAVERSAL',
        message: 'The archive has an entry that climbs out of its folder (..).',
        hint: expect.stringContaining('Re-create the ZIP from the project folder'),
      },
    });
    expect(stderr).toContain(
      'error: The archive has an entry that climbs out of its folder (..). [ARCHIVE_PATH_TRAVERSAL, HTTP 422]',
    );
    expect(stderr).toContain('hint: Re-create the ZIP from the project folder itself.');
  });
});

describe('forge build', () => {
  it('builds the most recently updated project and --wait follows it', async () => {
    const forge = start(['build', '--wait']);
    const seen = await forge.stderrShows(/Following build (b\d+) of (\S+):/);
    const [, id, project] = /Following build (b\d+) of (\S+):/.exec(seen)!;
    expect(project).toBe('site');
    standIn.stage(id!, 'no-build-needed');
    standIn.finish(id!, 'succeeded', { previewUrl: 'http://127.0.0.1:9/' });
    expect(await forge.exit()).toBe(0);
    // Without --json, stdout carries the preview URL alone.
    expect(forge.out.stdout).toBe('http://127.0.0.1:9/\n');
  });
});

describe('forge logs', () => {
  it('prints the stored lines; -f follows new ones until the build ends, then exits by its status', async () => {
    const build = standIn.addBuild('site');
    standIn.log(build.id, 'first');
    standIn.log(build.id, 'second', 'warn', 'DependencyBot');

    const stored = await run(['logs']);
    expect(stored.code).toBe(0);
    expect(stored.stdout).toMatch(
      /^\d\d:\d\d:\d\d INFO {4}BuildBot first\n\d\d:\d\d:\d\d WARN {4}DependencyBot second\n$/,
    );

    const forge = start(['logs', '-f', build.id]);
    await forge.stdoutShows(/second/);
    standIn.log(build.id, 'third', 'error');
    await forge.stdoutShows(/third/);
    standIn.log(build.id, 'fourth');
    standIn.finish(build.id, 'failed');
    expect(await forge.exit()).toBe(1);
    const messages = forge.out.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' ').at(-1));
    expect(messages).toEqual(['first', 'second', 'third', 'fourth']);
    expect(forge.out.stderr).toContain(`Build ${build.id} failed.`);
  });

  it('-f prints each line once and in order when a /ws frame is lost, and the lines past the cap after the stored ones', async () => {
    const build = standIn.addBuild('site');
    standIn.stage(build.id, 'build-start');
    standIn.log(build.id, 'one');
    const forge = start(['logs', '-f', build.id]);
    await forge.stdoutShows(/one/);

    // Stored, but its frame never reaches forge; the next frame's seq shows the gap.
    const entries = standIn.logs.get(build.id)!;
    entries.push({ ...entries[0]!, seq: 2, id: `${build.id}:2`, message: 'two (frame lost)' });
    standIn.log(build.id, 'three');
    await forge.stdoutShows(/three/);

    // The daemon's cap: its last stored line, then lines it only streams (no seq).
    standIn.log(build.id, 'Log truncated', 'warn', 'LogBot');
    standIn.builds.get(build.id)!.logTruncated = true;
    const live = (output: string) =>
      standIn.broadcast({
        type: 'build-output',
        output,
        botName: 'BuildBot',
        buildId: build.id,
        projectName: 'site',
        timestamp: new Date().toISOString(),
      });
    live('live a\nlive b');
    await forge.stdoutShows(/live b/);
    live('live c');
    await forge.stdoutShows(/live c/);
    standIn.finish(build.id, 'succeeded');
    expect(await forge.exit()).toBe(0);

    const lines = forge.out.stdout.trim().split('\n');
    expect(lines.map((l) => l.replace(/^\d\d:\d\d:\d\d \w+ +\w+ /, ''))).toEqual([
      'one',
      'two (frame lost)',
      'three',
      'Log truncated',
      'live a',
      'live b',
      'live c',
    ]);
    expect(forge.out.stderr).toContain('the lines after these are shown as they are streamed');
  });

  it('--json prints one entry per line; an unknown build exits 1', async () => {
    const build = standIn.addBuild('site');
    standIn.log(build.id, 'only');
    const json = await run(['logs', build.id, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ seq: 1, message: 'only', botName: 'BuildBot' });
    const missing = await run(['logs', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('There is no build with that id. [BUILD_NOT_FOUND, HTTP 404]');
  });
});

describe('forge builds / cancel / bots / preview / plan', () => {
  it('builds lists newest first; cancel stops the newest running build, then has none to stop', async () => {
    const done = standIn.addBuild('old', { worker: 'ci-2' });
    standIn.finish(done.id, 'succeeded');
    const running = standIn.addBuild('site');

    const table = await run(['builds']);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^ID +PROJECT +STATUS +STAGE +CACHE +DURATION +WORKER +CREATED$/);
    // Where each ran: a queued build has no worker yet.
    expect(lines[1]).toMatch(new RegExp(`^${running.id} +site +queued +Starting +- +- +- +\\d{4}-`));
    expect(lines[2]).toMatch(new RegExp(`^${done.id} +old +succeeded +.* ci-2 +\\d{4}-`));
    expect(lines[2]!.indexOf('ci-2')).toBe(lines[0]!.indexOf('WORKER'));
    expect(JSON.parse((await run(['builds', '--json', '--project', 'old'])).stdout)).toHaveLength(1);

    const cancel = await run(['cancel']);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toBe(`Cancelled build ${running.id} of site\n`);
    const again = await run(['cancel', running.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Build ${running.id} is not running (cancelled).`);
    const none = await run(['cancel']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No build is running.');
  });

  it('bots groups the fleet by category', async () => {
    const { code, stdout } = await run(['bots']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^infrastructure \(6\)$/m);
    expect(stdout).toMatch(/^services \(7\)$/m);
    expect(stdout).toMatch(/^ {2}LogBot +active +0 +0 +-$/m);
    expect(stdout).not.toMatch(ESCAPE);
  });

  it('preview prints the URL, or exits 1 when there is none yet', async () => {
    expect((await run(['preview', 'site'])).stdout).toBe('http://127.0.0.1:1/\n');
    const none = await run(['preview', 'old']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('There is no preview of old yet.');
    expect(none.stderr).toContain('forge build old --wait');
  });

  it('plan shows the decisions of a ZIP or of a project', async () => {
    const ofZip = await run(['plan', 'site.zip']);
    expect(ofZip.code, ofZip.stderr).toBe(0);
    expect(ofZip.stdout).toMatch(/^ {2}kind +static$/m);
    expect(ofZip.stdout).toContain('[index.html] index.html at the root, no package.json');
    const ofProject = await run(['plan', 'site', '--json']);
    expect(JSON.parse(ofProject.stdout)).toMatchObject({ kind: 'static', framework: 'static' });
    const missing = await run(['plan', 'other.zip']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No such file: other.zip');
    writeFileSync(join(sandbox.cwd, 'notes.txt'), 'not a zip');
    const notZip = await run(['plan', 'notes.txt']);
    expect(notZip.code).toBe(6);
    expect(notZip.stderr).toContain('Invalid file type — Please upload a ZIP file (notes.txt)');
  });
});

describe('forge download', () => {
  it('writes ./<project>.zip, refuses to overwrite it without --force, and -o picks the file', async () => {
    rmSync(zip);
    const first = await run(['download', 'site']);
    expect(first.code, first.stderr).toBe(0);
    const target = join(sandbox.cwd, 'site.zip');
    expect(first.stdout.trim()).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe('PK zip of download');

    const again = await run(['download', 'site']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect((await run(['download', 'site', '--force'])).code).toBe(0);

    const artifact = await run(['download', 'site', '--artifact', '-o', 'build.zip']);
    expect(artifact.code, artifact.stderr).toBe(0);
    expect(readFileSync(join(sandbox.cwd, 'build.zip'), 'utf8')).toBe('PK zip of artifact');

    const unknown = await run(['download', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('PROJECT_NOT_FOUND');
    expect(existsSync(join(sandbox.cwd, 'nope.zip'))).toBe(false);
  });
});
