import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliResult, type CliBuildResult } from '@forge/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProject as writeFixture } from '@forge/testing';
import { exitOf, FORGE_BIN, Sandbox, waitForOutput, type RunResult } from './helpers.ts';

// `forge upload --wait` as a CI pipeline runs it, against the real built daemon: one exit code per
// way a build can end, exactly one --json document (checked with the shared schema), and output
// free of escape codes whenever no person is watching.

// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b\[/;

let sandbox: Sandbox;
let url: string;
beforeAll(async () => {
  sandbox = await Sandbox.create();
  const start = await sandbox.run(['daemon', 'start']);
  if (start.code !== 0) throw new Error(`daemon start failed:\n${start.stderr}`);
  url = start.stdout.trim();
});
afterAll(async () => {
  await sandbox.dispose();
});

/** The one JSON document on stdout, validated with the shared schema; no escape codes anywhere. */
function resultOf(run: RunResult): CliResult {
  expect(run.stdout + run.stderr).not.toMatch(ESCAPE);
  return CliResult.parse(JSON.parse(run.stdout));
}

function buildResult(run: RunResult): CliBuildResult {
  const result = resultOf(run);
  if (result.status === 'refused' || result.status === 'error') throw new Error(`no build: ${run.stdout}`);
  return result;
}

describe('forge upload --wait exit codes', () => {
  it('0: the build succeeded; --logs adds the build log to stderr, stdout keeps one document', async () => {
    const zip = writeFixture(sandbox.cwd, 'tested');
    const run = await sandbox.run(['upload', zip, '--wait', '--json', '--logs']);
    expect(run.code, run.stderr).toBe(0);
    const result = buildResult(run);
    expect(result).toMatchObject({ projectName: 'tested', status: 'succeeded', cacheHit: false });
    expect(result.error).toBeUndefined();
    expect(result.durations.build).toBeGreaterThan(0);
    // Stage lines, then log lines of the bots with their level, all on stderr.
    expect(run.stderr).toMatch(/^ +\+\S+ {2}Building$/m);
    expect(run.stderr).toMatch(/^\d\d:\d\d:\d\d SUCCESS ExtractBot /m);
    expect(run.stderr).toMatch(/^\d\d:\d\d:\d\d INFO +TestBot ok 1$/m);
  });

  it('1: the build failed, with its error in the result', async () => {
    const zip = writeFixture(sandbox.cwd, 'failing');
    const run = await sandbox.run(['upload', zip, '--wait', '--json']);
    expect(run.code).toBe(1);
    expect(buildResult(run)).toMatchObject({
      status: 'failed',
      stage: 'build-failed',
      error: { code: 'BUILD_FAILED' },
    });
  });

  it('4: a stage ran past the timeout of the project’s .forgerc.json', async () => {
    const zip = writeFixture(sandbox.cwd, 'stage-timeout');
    const run = await sandbox.run(['upload', zip, '--wait', '--json']);
    expect(run.code).toBe(4);
    expect(buildResult(run)).toMatchObject({
      status: 'timed-out',
      stage: 'build-timeout',
      error: { code: 'STAGE_TIMEOUT' },
    });
  });

  it('4: --timeout expired first; the build goes on in the daemon, and the result says which timeout', async () => {
    const zip = writeFixture(sandbox.cwd, 'hanging', 'hanging-on');
    const run = await sandbox.run(['upload', zip, '--wait', '--json', '--timeout', '2s']);
    expect(run.code).toBe(4);
    const result = buildResult(run);
    expect(result).toMatchObject({ status: 'running', error: { code: 'WAIT_TIMEOUT' } });
    expect(run.stderr).toContain(`Timed out: build ${result.buildId} did not finish within 2s (--timeout).`);
    expect(run.stderr).toContain(`forge cancel ${result.buildId}`);
    const still = await fetch(`${url}/api/builds/${result.buildId}`);
    expect(((await still.json()) as { status: string }).status).toBe('running');
    await fetch(`${url}/api/builds/${result.buildId}/cancel`, { method: 'POST' });
  });

  it('4: --timeout with --cancel-on-timeout cancels the build', async () => {
    const zip = writeFixture(sandbox.cwd, 'hanging', 'hanging-off');
    const run = await sandbox.run([
      'upload',
      zip,
      '--wait',
      '--json',
      '--timeout',
      '2s',
      '--cancel-on-timeout',
    ]);
    expect(run.code).toBe(4);
    const result = buildResult(run);
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'WAIT_TIMEOUT' } });
    expect(run.stderr).toContain(`Cancelled build ${result.buildId}.`);
  });

  it('5: the build was cancelled by another forge while this one waited', async () => {
    const zip = writeFixture(sandbox.cwd, 'hanging', 'hanging-cancel');
    const waiting = sandbox.spawn(['upload', zip, '--wait', '--json']);
    let stdout = '';
    waiting.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    const seen = await waitForOutput(waiting.stderr, /Following build (\S+) of[\s\S]*Building/);
    const buildId = /Following build (\S+) of/.exec(seen)![1]!;
    const cancel = await sandbox.run(['cancel', buildId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(await exitOf(waiting)).toBe(5);
    expect(buildResult({ code: 5, stdout, stderr: '' })).toMatchObject({
      buildId,
      status: 'cancelled',
      error: { code: 'CANCELLED' },
    });
  });

  it('6: the daemon refused a hostile archive (../ entry): one "refused" document', async () => {
    const zip = writeFixture(sandbox.cwd, 'hostile');
    const run = await sandbox.run(['upload', zip, '--wait', '--json']);
    expect(run.code).toBe(6);
    expect(resultOf(run)).toEqual({
      status: 'refused',
      file: zip,
      error: {
        code: 'ARCHIVE_PATH_TRAVERSAL',
        message: expect.stringContaining('..'),
        hint: expect.any(String),
      },
    });
    expect(run.stderr).toContain('[ARCHIVE_PATH_TRAVERSAL, HTTP 422]');
  });

  it('6: forge refuses a file that is not a ZIP before sending it', async () => {
    writeFileSync(join(sandbox.cwd, 'notes.txt'), 'not a zip');
    const run = await sandbox.run(['upload', 'notes.txt', '--wait', '--json']);
    expect(run.code).toBe(6);
    expect(resultOf(run)).toMatchObject({ status: 'refused', error: { code: 'INVALID_FILE_TYPE' } });
  });

  it.each([
    [['upload', 'x.zip', '--wait', '--timeout', '90'], /'90' is invalid. expected a duration/],
    [['upload', 'x.zip', '--wait', '--timeout', '1m1m'], /'1m1m' is invalid/],
    [['upload', 'x.zip', '--timeout', '5s'], /--timeout applies only with --wait/],
    [['upload', 'x.zip', '--wait', '--cancel-on-timeout'], /--cancel-on-timeout needs --timeout/],
    [['ci', 'x.zip', '--timeout', 'soon'], /'soon' is invalid/],
  ])('2: usage error %j', async (args, message) => {
    writeFixture(sandbox.cwd, 'tested', 'x');
    const run = await sandbox.run(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('3: no daemon under CI=true; with --json the document says so', async () => {
    const other = await Sandbox.create();
    try {
      const zip = writeFixture(other.cwd, 'tested');
      const run = await other.run(['upload', zip, '--wait', '--json'], { CI: 'true' });
      expect(run.code).toBe(3);
      expect(resultOf(run)).toMatchObject({ status: 'error', error: { code: 'DAEMON_UNREACHABLE' } });
      expect(existsSync(other.stateFile)).toBe(false);
    } finally {
      await other.dispose();
    }
  });
});

const haveScript = spawnSync('script', ['--version']).status === 0;

describe('escape codes only for a person at a terminal', () => {
  /** forge with stdout and stderr on a pseudo-terminal (util-linux `script`), as in an interactive shell. */
  function inTerminal(args: string[], env: NodeJS.ProcessEnv = {}) {
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, FORGE_BIN, ...args].map(quote).join(' ');
    const res = spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: sandbox.cwd,
      env: sandbox.env({ SHELL: '/bin/sh', TERM: 'xterm-256color', ...env }),
      encoding: 'utf8',
      timeout: 40_000,
    });
    return { code: res.status, output: res.stdout };
  }

  it.skipIf(!haveScript)('a terminal gets colours; NO_COLOR, TERM=dumb and --no-color get none', () => {
    const zip = writeFixture(sandbox.cwd, 'tested', 'tty');
    const coloured = inTerminal(['upload', zip, '--wait']);
    expect(coloured.code, coloured.output).toBe(0);
    expect(coloured.output).toMatch(ESCAPE);
    for (const [args, env] of [
      [['upload', zip, '--wait'], { NO_COLOR: '1' }],
      [['upload', zip, '--wait'], { TERM: 'dumb' }],
      [['--no-color', 'upload', zip, '--wait'], {}],
      [['upload', zip, '--wait', '--no-color', '--logs'], {}],
    ] as const) {
      const plain = inTerminal([...args], env);
      expect(plain.code, plain.output).toBe(0);
      expect(plain.output).toContain('Build succeeded: tty');
      expect(plain.output, JSON.stringify({ args, env })).not.toMatch(ESCAPE);
    }
  });
});
