import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Build, WorkersResponse } from '@forge/shared';
import { writeProject } from '@forge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, exitOf, Sandbox, waitForOutput } from './helpers.ts';

// Scale-out from the command line: `forge workers` and `forge worker` against the real built daemon.

describe('forge workers, daemon with the in-process queue', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await Sandbox.withDaemon();
  });
  afterAll(async () => {
    await sandbox.dispose();
  });

  it('says builds run in the daemon, and lists no worker (no hint: none is needed)', async () => {
    const { code, stdout, stderr } = await sandbox.run(['workers']);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('queue: in-process (builds run in this daemon)\n');
    expect(stderr).toBe('');
  });

  it('--json prints the WorkersResponse', async () => {
    const { code, stdout } = await sandbox.run(['workers', '--json']);
    expect(code).toBe(0);
    expect(WorkersResponse.parse(JSON.parse(stdout))).toEqual({
      queue: 'in-process',
      queueUrl: null,
      workers: [],
    });
  });
});

describe('forge worker refuses a usage error (exit 2) before running anything', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await Sandbox.create();
  });
  afterAll(async () => {
    await sandbox.dispose();
  });

  const QUEUE = ['--queue', 'redis://127.0.0.1:6379'];
  const URL = ['--url', 'http://127.0.0.1:4317'];
  it.each([
    [
      [...QUEUE, ...URL, '--concurrency', '0'],
      /'--concurrency <k>' argument '0' is invalid\. expected a whole number from 1 to 256\./,
    ],
    [[...QUEUE, ...URL, '--concurrency', '2.5'], /'--concurrency <k>' argument '2\.5' is invalid/],
    [
      [...QUEUE, ...URL, '--name', 'ci 2'],
      /a worker name must be letters, digits, dots, dashes or underscores/,
    ],
    [[...QUEUE, ...URL, '--name', 'x'.repeat(65)], /a worker name must be at most 64 characters/],
    [[...QUEUE], /forge worker needs the URL of the Forge daemon[^\n]*\nhint: Pass --url/],
    [[...URL], /forge worker needs the build queue: --queue redis:\/\/host:6379/],
    [
      ['--queue', 'http://127.0.0.1:6379', ...URL],
      /Invalid --queue "http:\/\/127\.0\.0\.1:6379": expected a Redis URL/,
    ],
    [[...QUEUE, '--url', 'localhost:4317'], /Invalid daemon URL "localhost:4317"/],
  ])('forge worker %j', async (args, message) => {
    const { code, stdout, stderr } = await sandbox.run(['worker', ...args]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
    // Nothing was started on its behalf.
    expect(existsSync(sandbox.stateFile)).toBe(false);
  });

  it('FORGE_QUEUE_URL stands for --queue, and a bad one is named with its password hidden', async () => {
    const { code, stderr } = await sandbox.run(['worker', ...URL], { FORGE_QUEUE_URL: 'http://:pw@h:6379' });
    expect(code).toBe(2);
    expect(stderr).toContain('Invalid FORGE_QUEUE_URL "http://:***@h:6379"');
    expect(stderr).not.toContain('pw');
  });
});

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

/** A throwaway redis-server on a free loopback port, without persistence. */
async function startRedis(): Promise<{ url: string; child: ChildProcess }> {
  const port = await closedPort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${out}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, child };
}

describe.skipIf(!hasRedis)('forge worker and forge workers, daemon with a BullMQ queue', () => {
  let sandbox: Sandbox;
  let redis: { url: string; child: ChildProcess };
  let daemonUrl: string;
  beforeAll(async () => {
    redis = await startRedis();
    sandbox = await Sandbox.create();
    const start = await sandbox.run(['daemon', 'start'], { FORGE_QUEUE_URL: redis.url });
    if (start.code !== 0) throw new Error(`daemon start failed:\n${start.stderr}`);
    daemonUrl = sandbox.state()!.url;
  });
  afterAll(async () => {
    await sandbox?.dispose();
    redis?.child.kill('SIGKILL');
  });

  it('with no worker yet, names the queue and says how to start one', async () => {
    const { code, stdout, stderr } = await sandbox.run(['workers']);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(`queue: bullmq (${redis.url})\n`);
    expect(stderr).toBe(
      'No workers yet: start one with forge worker --queue <redis-url> --url <daemon-url>\n',
    );
  });

  it('an unreachable Redis: the worker exits 1 and says so', async () => {
    const closed = `redis://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await sandbox.run(['worker', '--queue', closed, '--url', daemonUrl]);
    expect(code).toBe(1);
    expect(stderr).toContain(closed);
  });

  it('a worker takes the builds, shows in forge workers and builds, and stops on SIGINT with exit 0', async () => {
    // No --url: the daemon of this machine.
    const worker = sandbox.spawn(['worker', '--queue', redis.url, '--name', 'ci-7', '--concurrency', '2']);
    await waitForOutput(
      worker.stdout,
      new RegExp(`Forge worker ci-7 is taking build jobs from redis://127\\.0\\.0\\.1:\\d+ for ${daemonUrl}`),
    );

    const listed = await sandbox.run(['workers', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const response = WorkersResponse.parse(JSON.parse(listed.stdout));
    expect(response).toMatchObject({ queue: 'bullmq', queueUrl: redis.url });
    // The worker of the test before (unreachable Redis) may be listed too, as lost.
    expect(response.workers.find((w) => w.name === 'ci-7')).toMatchObject({
      status: 'online',
      concurrency: 2,
      running: [],
    });
    const table = (await sandbox.run(['workers'])).stdout.split('\n');
    expect(table.slice(0, 2)).toEqual([
      `queue: bullmq (${redis.url})`,
      expect.stringMatching(/^NAME +HOST +STATUS +RUNNING +DONE +LAST SEEN$/),
    ]);
    expect(table).toContainEqual(expect.stringMatching(/^ci-7 +\S+ +online +0\/2 +0 +\d+s ago$/));

    const upload = await sandbox.run(['upload', writeProject(sandbox.cwd, 'tested'), '--wait']);
    expect(upload.code, upload.stderr).toBe(0);
    expect(upload.stderr).toMatch(/^Build succeeded: tested, build \S+ on ci-7 in /m);
    const builds = await sandbox.run(['builds', '--json']);
    expect((JSON.parse(builds.stdout) as unknown[]).map((b) => Build.parse(b).worker)).toEqual(['ci-7']);
    const buildsTable = await sandbox.run(['builds']);
    expect(buildsTable.stdout.split('\n')[0]).toMatch(/ WORKER +CREATED$/);
    expect(buildsTable.stdout.split('\n')[1]).toMatch(/ succeeded .* ci-7 +\d{4}-/);

    // forge forwards the signal to the worker (its own process group) and exits with its code.
    worker.kill('SIGINT');
    expect(await exitOf(worker)).toBe(0);
  });
});
