import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliResult } from '@forge/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeProject as writeFixture } from '@forge/testing';
import { exitOf, isAlive, Sandbox, waitForOutput } from './helpers.ts';
import { parseXml, type XmlElement } from './xml.ts';
import { listZip } from '@forge/testing';

// `forge ci` end to end: no daemon runs beforehand and FORGE_HOME is an empty temporary folder, so
// every run starts (and must stop) a private daemon of its own.

// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b\[/;

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await Sandbox.create();
});
afterEach(async () => {
  await sandbox.dispose();
});

interface PrivateDaemon {
  pid: number;
  url: string;
  home: string;
}

/** The private daemon forge ci announced on stderr. */
function privateDaemon(stderr: string): PrivateDaemon {
  const m = /^Private Forge daemon \(pid (\d+)\) at (\S+), home (\S+)$/m.exec(stderr);
  if (!m) throw new Error(`no private daemon announced:\n${stderr}`);
  return { pid: Number(m[1]), url: m[2]!, home: m[3]! };
}

/** Gone: process ended, temporary home (and its daemon.json) removed; the user's FORGE_HOME untouched. */
function expectCleanedUp(daemon: PrivateDaemon) {
  expect(isAlive(daemon.pid)).toBe(false);
  expect(existsSync(daemon.home)).toBe(false);
  expect(readdirSync(sandbox.home)).toEqual([]);
}

const testcases = (xml: string): XmlElement[] => {
  const root = parseXml(xml);
  expect(root.name).toBe('testsuites');
  const suite = root.children.find((c) => c.name === 'testsuite')!;
  expect(suite.attributes.name).toBe('forge');
  return suite.children.filter((c) => c.name === 'testcase');
};

describe('forge ci with no daemon configured', () => {
  it('builds in a private daemon, writes the artifact and the JUnit report, prints the result, and cleans up; failed tests exit 7', async () => {
    const zip = writeFixture(sandbox.cwd, 'tests-fail', 'app');
    const run = await sandbox.run(['ci', zip, '-o', 'artifact.zip', '--junit', 'report.xml', '--json']);
    // The build succeeded, its tests failed, and forge ci requires them: the verdict is exit 7.
    expect(run.code, run.stderr).toBe(7);
    expect(run.stderr).toContain('The build succeeded and its tests failed: exit 7');
    expect(run.stdout + run.stderr).not.toMatch(ESCAPE);
    const daemon = privateDaemon(run.stderr);
    expect(daemon.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const result = CliResult.parse(JSON.parse(run.stdout));
    expect(result).toMatchObject({
      projectName: 'app',
      status: 'succeeded',
      previewUrl: null,
      artifact: join(sandbox.cwd, 'artifact.zip'),
      junit: join(sandbox.cwd, 'report.xml'),
      tests: { status: 'failed', command: expect.stringContaining('npm') },
      testsPolicy: 'required',
    });

    // The artifact is the build output as a ZIP.
    const artifact = readFileSync(join(sandbox.cwd, 'artifact.zip'));
    expect(artifact.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(listZip(artifact).sort()).toEqual(['app.js', 'index.html']);

    // One testcase per step, and "tests" failed with the (escaped) output of the test script.
    const cases = testcases(readFileSync(join(sandbox.cwd, 'report.xml'), 'utf8'));
    const names = cases.map((c) => c.attributes.name);
    expect(names).toEqual(expect.arrayContaining(['extract', 'build', 'test', 'tests']));
    const build = cases.find((c) => c.attributes.name === 'build')!;
    expect(build.attributes.classname).toBe('BuildBot');
    expect(Number(build.attributes.time)).toBeGreaterThan(0);
    const tests = cases.find((c) => c.attributes.name === 'tests')!;
    const failure = tests.children.find((c) => c.name === 'failure');
    expect(failure?.text).toContain('not ok 1 - <b> & "c"');

    expect(run.stderr).toContain('Stopped the private Forge daemon');
    expectCleanedUp(daemon);
  });

  it('--tests optional: the failed tests are reported and the verdict passes (exit 0)', async () => {
    const zip = writeFixture(sandbox.cwd, 'tests-fail', 'app');
    const run = await sandbox.run(['ci', zip, '--tests', 'optional', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(CliResult.parse(JSON.parse(run.stdout))).toMatchObject({
      status: 'succeeded',
      tests: { status: 'failed' },
      testsPolicy: 'optional',
    });
    expect(run.stderr).toMatch(/tests\s+failed/);
    expectCleanedUp(privateDaemon(run.stderr));
  });

  it('the forge config decides when --tests is not given: "tests": "optional" passes, "test": false is skipped', async () => {
    const optional = writeFixture(sandbox.cwd, 'tests-fail', 'lenient', {
      '.forgerc.json': JSON.stringify({ tests: 'optional' }),
    });
    const lenient = await sandbox.run(['ci', optional, '--json']);
    expect(lenient.code, lenient.stderr).toBe(0);
    const result = CliResult.parse(JSON.parse(lenient.stdout));
    expect(result).toMatchObject({ tests: { status: 'failed' }, testsPolicy: 'optional' });

    // --tests on the command line wins over the config.
    const strict = await sandbox.run(['ci', optional, '--tests', 'required', '--json']);
    expect(strict.code, strict.stderr).toBe(7);

    const skipping = writeFixture(sandbox.cwd, 'tests-fail', 'untested', {
      '.forgerc.json': JSON.stringify({ test: false }),
    });
    const skipped = await sandbox.run(['ci', skipping, '--json']);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(CliResult.parse(JSON.parse(skipped.stdout))).toMatchObject({
      tests: { status: 'skipped', reason: 'the forge config sets "test": false' },
    });
  });

  it('--tests takes required or optional only (exit 2, before any daemon)', async () => {
    const zip = writeFixture(sandbox.cwd, 'tests-fail', 'app');
    const run = await sandbox.run(['ci', zip, '--tests', 'maybe']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("argument 'maybe' is invalid");
  });

  it('a failing build: exit 1, no artifact, a report with the failed step, the daemon stopped', async () => {
    const zip = writeFixture(sandbox.cwd, 'failing');
    const run = await sandbox.run(['ci', zip, '-o', 'artifact.zip', '--junit', 'report.xml', '--json']);
    expect(run.code, run.stderr).toBe(1);
    expect(CliResult.parse(JSON.parse(run.stdout))).toMatchObject({
      status: 'failed',
      artifact: null,
      error: { code: 'BUILD_FAILED' },
    });
    expect(existsSync(join(sandbox.cwd, 'artifact.zip'))).toBe(false);
    const build = testcases(readFileSync(join(sandbox.cwd, 'report.xml'), 'utf8')).find(
      (c) => c.attributes.name === 'build',
    )!;
    expect(build.children[0]).toMatchObject({ name: 'failure', attributes: { type: 'failed' } });
    expectCleanedUp(privateDaemon(run.stderr));
  });

  it('a refused archive: exit 6, the refusal as the result and as the report', async () => {
    const zip = writeFixture(sandbox.cwd, 'hostile');
    const run = await sandbox.run(['ci', zip, '--junit', 'report.xml', '--json']);
    expect(run.code, run.stderr).toBe(6);
    expect(CliResult.parse(JSON.parse(run.stdout))).toMatchObject({
      status: 'refused',
      error: { code: 'ARCHIVE_PATH_TRAVERSAL' },
      junit: join(sandbox.cwd, 'report.xml'),
    });
    const [upload] = testcases(readFileSync(join(sandbox.cwd, 'report.xml'), 'utf8'));
    expect(upload?.children[0]?.attributes.type).toBe('ARCHIVE_PATH_TRAVERSAL');
    expectCleanedUp(privateDaemon(run.stderr));
  });

  it('--timeout: exit 4, the unfinished step is skipped in the report, the daemon stopped', async () => {
    const zip = writeFixture(sandbox.cwd, 'hanging');
    const run = await sandbox.run(['ci', zip, '--timeout', '2s', '--junit', 'report.xml', '--json']);
    expect(run.code, run.stderr).toBe(4);
    expect(CliResult.parse(JSON.parse(run.stdout))).toMatchObject({ error: { code: 'WAIT_TIMEOUT' } });
    const build = testcases(readFileSync(join(sandbox.cwd, 'report.xml'), 'utf8')).find(
      (c) => c.attributes.name === 'build',
    )!;
    expect(build.children[0]?.name).toBe('skipped');
    expectCleanedUp(privateDaemon(run.stderr));
  });

  it('Ctrl+C: exit 130, and the private daemon is stopped all the same', async () => {
    const zip = writeFixture(sandbox.cwd, 'hanging');
    const forge = sandbox.spawn(['ci', zip, '--json']);
    let stdout = '';
    let stderr = '';
    forge.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    forge.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    await waitForOutput(forge.stderr, /Building/);
    forge.kill('SIGINT');
    expect(await exitOf(forge)).toBe(130);
    expect(CliResult.parse(JSON.parse(stdout))).toMatchObject({ error: { code: 'WAIT_INTERRUPTED' } });
    expectCleanedUp(privateDaemon(stderr));
  });

  it('usage errors come before any daemon is started', async () => {
    writeFixture(sandbox.cwd, 'tested');
    const run = await sandbox.run(['ci', 'tested.zip', '-o', 'no/such/dir/a.zip']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('does not exist');
    expect(run.stderr).not.toContain('Private Forge daemon');
  });
});

describe('forge ci with a daemon running for FORGE_HOME', () => {
  it('uses it, and leaves it running', async () => {
    const start = await sandbox.run(['daemon', 'start']);
    expect(start.code, start.stderr).toBe(0);
    const { pid } = sandbox.state()!;
    const zip = writeFixture(sandbox.cwd, 'tested');
    const run = await sandbox.run(['ci', zip, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('private');
    const result = CliResult.parse(JSON.parse(run.stdout));
    // Its preview stays up with the daemon.
    expect(result).toMatchObject({ status: 'succeeded', previewUrl: expect.stringMatching(/^http:/) });
    expect(isAlive(pid)).toBe(true);
  });
});
