import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import WebSocket from 'ws';
import type { BotInfo, Build, ServerMessage, WorkersResponse } from '@forge/shared';
import {
  CASE_FIXED_IMPORT,
  coordinatorApi,
  importCaseMismatch,
  hasRedis,
  PROJECTS,
  slowBuildProject,
  startDaemon,
  startRedis,
  startWorker,
  type TestDaemon,
  type TestRedis,
  type TestWorker,
} from '@forge/testing';

/**
 * Scale-out (docs/scale-out.md): a coordinator and two workers, each its own process with its own FORGE_HOME,
 * on a real Redis on a loopback port. Everything is waited for by polling the coordinator's state, never by
 * sleeping.
 */
describe.skipIf(!hasRedis())('scale-out: a coordinator and workers on BullMQ', () => {
  let redis: TestRedis;
  const stops: Array<() => Promise<void>> = [];
  const own = <T extends { stop(): Promise<void> }>(thing: T): T => {
    stops.push(() => thing.stop());
    return thing;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
    execFileSync('redis-cli', ['-p', String(redis.port), 'FLUSHALL']);
  });

  const coordinator = (home?: string): Promise<TestDaemon> =>
    startDaemon({ env: { FORGE_QUEUE_URL: redis.url }, ...(home ? { home } : {}) }).then(own);
  const worker = (name: string, url: string): Promise<TestWorker> =>
    startWorker({ name, queueUrl: redis.url, coordinatorUrl: url }).then(own);
  const finished = (b: Build | undefined): boolean => !!b && b.status !== 'queued' && b.status !== 'running';

  it('builds four real projects at once on both workers; logs, stages and previews come back', async () => {
    const daemon = await coordinator();
    const api = coordinatorApi(daemon.url);
    expect(await api.workers()).toMatchObject({ queue: 'bullmq', workers: [] });
    await Promise.all([worker('w1', daemon.url), worker('w2', daemon.url)]);
    await api.until('both workers online', async () => (await api.workers()).workers.length === 2);

    const ws = new WebSocket(`${daemon.url.replace('http', 'ws')}/ws`);
    const messages: ServerMessage[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data)) as ServerMessage));
    await new Promise((resolve) => ws.once('open', resolve));
    stops.push(async () => ws.close());

    // Each build takes ~2 s, so with one build at a time per worker the first two go to both.
    const uploads = await Promise.all([
      api.upload('slow-a.zip', slowBuildProject('slow-a', 2_000)),
      api.upload('slow-b.zip', slowBuildProject('slow-b', 2_000)),
      api.upload('tested.zip', PROJECTS.tested),
      api.upload('hello-site.zip', PROJECTS['hello-site']),
    ]);
    expect(uploads.every((u) => u.status === 'queued')).toBe(true);
    const ids = uploads.map((u) => u.buildId);
    const builds = await api.until('all four builds to end', async () => {
      const all = await Promise.all(ids.map((id) => api.build(id)));
      return all.every(finished) ? all : null;
    });
    expect(builds.map((b) => b.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(new Set(builds.map((b) => b.worker))).toEqual(new Set(['w1', 'w2']));

    // The build output is served by the coordinator; the stored log has the project's own output.
    for (const b of builds) {
      const page = await fetch(b.previewUrl!);
      expect(page.status).toBe(200);
    }
    expect(await (await fetch(builds[0]!.previewUrl!)).text()).toContain('slow-a built');
    const log = await api.logs(ids[0]!);
    expect(log.entries.some((e) => e.message.includes('built slow-a'))).toBe(true);
    const artifact = await fetch(`${daemon.url}/api/projects/slow-a/artifact`);
    expect(artifact.status).toBe(200);

    // /ws carried the same messages an in-process build sends, with where each ran.
    for (const b of builds) {
      const stages = messages.filter((m) => m.type === 'build-stage' && m.buildId === b.id);
      expect(stages.some((m) => m.type === 'build-stage' && m.worker === b.worker)).toBe(true);
      expect(
        messages.some((m) => m.type === 'build-finished' && m.buildId === b.id && m.worker === b.worker),
      ).toBe(true);
      expect(messages.some((m) => m.type === 'build_complete' && m.buildId === b.id)).toBe(true);
    }
    // The coordinator's bot cards count the steps workers ran for them.
    const bots = (await (await fetch(`${daemon.url}/api/bots`)).json()) as BotInfo[];
    const buildBot = bots.find((b) => b.name === 'BuildBot')!;
    expect(buildBot).toMatchObject({ jobsRun: 3, failures: 0, currentJob: null });
    expect(buildBot.lastJob?.label).toMatch(/^build .+ on w[12]$/);
    const listed = await api.workers();
    expect(listed.workers.map((w) => w.jobsDone).reduce((a, b) => a + b, 0)).toBe(4);
    expect(listed.workers.every((w) => w.status === 'online' && w.running.length === 0)).toBe(true);
  });

  it('a stage timeout and a cache hit on a worker end as they do in-process', async () => {
    const daemon = await coordinator();
    const api = coordinatorApi(daemon.url);
    await worker('w1', daemon.url);
    const ended = async (id: string) =>
      api.until(`build ${id} to end`, async () => {
        const b = await api.build(id);
        return finished(b) ? b : null;
      });
    const timedOut = await ended((await api.upload('stage-timeout.zip', PROJECTS['stage-timeout'])).buildId);
    expect(timedOut).toMatchObject({ status: 'timed-out', stage: 'build-timeout', worker: 'w1' });
    expect(timedOut.error?.code).toBe('STAGE_TIMEOUT');
    const built = await ended((await api.upload('node-build.zip', PROJECTS['node-build'])).buildId);
    expect(built).toMatchObject({ status: 'succeeded', cacheHit: false });
    const again = await ended((await api.upload('node-build.zip', PROJECTS['node-build'])).buildId);
    expect(again).toMatchObject({ status: 'succeeded', cacheHit: true, worker: 'w1' });
    expect(await (await fetch(again.previewUrl!)).text()).toContain('Built by Forge');
  });

  it('a cancel reaches the worker and kills the build there', async () => {
    const daemon = await coordinator();
    const api = coordinatorApi(daemon.url);
    await worker('w1', daemon.url);
    const marker = `forge-cancel-marker-${process.pid}`;
    const { buildId } = await api.upload('hang.zip', slowBuildProject('hang', 600_000, marker));
    await api.until('the build to run on w1', async () => (await api.build(buildId)).worker === 'w1');
    await api.until('its command to start', async () => pgrep(marker));
    const answer = await api.cancel(buildId);
    expect(answer.id).toBe(buildId);
    const ended = await api.until('the build to end', async () => {
      const b = await api.build(buildId);
      return finished(b) ? b : null;
    });
    expect(ended).toMatchObject({ status: 'cancelled', cancelReason: 'user', worker: 'w1' });
    await api.until('its processes to be gone', async () => !pgrep(marker));
  });

  it('a newer upload supersedes the build running on a worker', async () => {
    const daemon = await coordinator();
    const api = coordinatorApi(daemon.url);
    await worker('w1', daemon.url);
    const marker = `forge-supersede-marker-${process.pid}`;
    const old = await api.upload('app.zip', slowBuildProject('app', 600_000, marker));
    await api.until('the first build to run its command', async () => pgrep(marker));
    const newer = await api.upload('app.zip', slowBuildProject('app', 200));
    const [a, b] = await api.until('both builds to end', async () => {
      const both = await Promise.all([api.build(old.buildId), api.build(newer.buildId)]);
      return both.every(finished) ? both : null;
    });
    expect(a).toMatchObject({ status: 'cancelled', cancelReason: 'superseded', worker: 'w1' });
    expect(b).toMatchObject({ status: 'succeeded', worker: 'w1' });
    expect(pgrep(marker)).toBe(false);
  });

  it('a worker killed -9 mid-build: its build runs again on the other worker, nothing is left running', async () => {
    const daemon = await coordinator();
    const api = coordinatorApi(daemon.url);
    const workers = await Promise.all([worker('w1', daemon.url), worker('w2', daemon.url)]);
    const { buildId } = await api.upload('long.zip', slowBuildProject('long', 8_000));
    const first = await api.until('the build to run on a worker', async () => {
      const b = await api.build(buildId);
      return b.worker ? b : null;
    });
    const victim = workers.find((w) => w.name === first.worker)!;
    const survivor = workers.find((w) => w !== victim)!;
    await victim.kill();

    const lost = await api.until(
      'the first build to end',
      async () => {
        const b = await api.build(buildId);
        return finished(b) ? b : null;
      },
      120_000,
    );
    expect(lost.status).toBe('interrupted');
    expect(lost.error?.message).toContain(`Worker ${victim.name} stopped answering`);
    const retry = await api.until(
      'its retry to succeed',
      async () => {
        const b = (await api.builds()).find((x) => x.projectName === 'long' && x.id !== buildId);
        return b && finished(b) ? b : null;
      },
      120_000,
    );
    expect(retry).toMatchObject({ status: 'succeeded', worker: survivor.name });
    expect(lost.error?.message).toContain(retry.id);
    const running = (await api.builds()).filter((b) => !finished(b));
    expect(running).toEqual([]);
    await api.until('the killed worker to show lost', async () =>
      (await api.workers()).workers.some((w) => w.name === victim.name && w.status === 'lost'),
    );
  });

  it('a worker that stalls and comes back after its build ran again elsewhere is told to stop it', async () => {
    const daemon = await coordinator();
    const api = coordinatorApi(daemon.url);
    const homes = ['w1', 'w2'].map((name) => {
      const home = mkdtempSync(join(tmpdir(), `forge-${name}-`));
      stops.push(async () => rmSync(home, { recursive: true, force: true }));
      return { name, home };
    });
    const workers = await Promise.all(
      homes.map(({ name, home }) =>
        startWorker({ name, home, queueUrl: redis.url, coordinatorUrl: daemon.url }).then(own),
      ),
    );
    const { buildId } = await api.upload('paused.zip', slowBuildProject('paused', 600_000));
    const first = await api.until('the build to run on a worker', async () => {
      const b = await api.build(buildId);
      return b.worker && b.steps.some((s) => s.name === 'build') ? b : null;
    });
    const stalled = workers.find((w) => w.name === first.worker)!;
    const stalledProject = join(
      homes.find((h) => h.name === stalled.name)!.home,
      'workers',
      stalled.name,
      'projects',
      'paused',
    );
    await api.until("the build's command to run on the stalled worker", async () => pgrep(stalledProject));
    stalled.child.kill('SIGSTOP');
    try {
      await api.until(
        'the build to run again on the other worker',
        async () => {
          const retry = (await api.builds()).find((b) => b.projectName === 'paused' && b.id !== buildId);
          return retry?.status === 'running' && retry.worker !== stalled.name;
        },
        120_000,
      );
    } finally {
      stalled.child.kill('SIGCONT');
    }
    // Back, it posts its stale build: the coordinator keeps its record as it is and tells it to stop.
    await api.until("the stalled worker's build processes to be gone", async () => !pgrep(stalledProject));
    const old = await api.build(buildId);
    expect(old.status).toBe('interrupted');
    expect(old.error?.message).toContain(`Worker ${stalled.name} stopped answering`);
  });

  it('a coordinator restart loses nothing: a build that ends while it is down and those waiting all end', async () => {
    const home = mkdtempSync(join(tmpdir(), 'forge-coordinator-'));
    stops.push(async () => rmSync(home, { recursive: true, force: true }));
    let daemon = await coordinator(home);
    let api = coordinatorApi(daemon.url);
    const port = new URL(daemon.url).port;
    // One worker, one build at a time: the first runs, the others wait in Redis.
    const marker = `forge-restart-marker-${process.pid}`;
    const first = await api.upload('first.zip', slowBuildProject('first', 3_000, marker));
    const second = await api.upload('second.zip', slowBuildProject('second', 300));
    const third = await api.upload('third.zip', slowBuildProject('third', 300));
    await worker('w1', daemon.url);
    await api.until(
      'the first build to run',
      async () => (await api.build(first.buildId)).status === 'running',
    );

    await daemon.stop();
    // While the coordinator is down the first build ends on the worker (its end waits to be posted;
    // the worker takes no other job until it is), and the two others wait in Redis.
    await api.until('the first build to end on the worker', async () => !pgrep(marker));
    expect(redisCli(redis.port, 'LLEN', 'forge:builds:wait').trim()).toBe('2');
    // Redis loses one of them (flushed by hand, restored from an old snapshot…): the coordinator's
    // store still says it is queued, so the coordinator queues it again when it starts.
    const queue = new Queue('builds', { connection: { url: redis.url }, prefix: 'forge' });
    expect(await queue.remove(third.buildId)).toBe(1);
    await queue.close();
    expect(redisCli(redis.port, 'LLEN', 'forge:builds:wait').trim()).toBe('1');
    daemon = await startDaemon({ home, env: { FORGE_QUEUE_URL: redis.url }, args: ['--port', port] }).then(
      own,
    );
    api = coordinatorApi(daemon.url);
    const ends = await api.until(
      'all three builds to end',
      async () => {
        const all = await Promise.all([first, second, third].map((u) => api.build(u.buildId)));
        return all.every(finished) ? all : null;
      },
      120_000,
    );
    expect(ends.map((b) => [b.projectName, b.status, b.worker])).toEqual([
      ['first', 'succeeded', 'w1'],
      ['second', 'succeeded', 'w1'],
      ['third', 'succeeded', 'w1'],
    ]);
    expect((await api.logs(first.buildId)).entries.some((e) => e.message.includes('built first'))).toBe(true);
  });

  it('a server app runs on its worker and its preview is reached through the coordinator; a newer one stops it', async () => {
    const daemon = await coordinator();
    const api = coordinatorApi(daemon.url);
    await worker('w1', daemon.url);
    const marker = `forge-server-marker-${process.pid}`;
    const app = (text: string) => ({
      'package.json': JSON.stringify({
        name: 'api',
        version: '1.0.0',
        scripts: { start: `node server.js ${marker}` },
      }),
      'server.js': `require('http').createServer((req, res) => res.end(${JSON.stringify(text)})).listen(Number(process.env.PORT), '127.0.0.1');\n`,
    });
    const first = await api.upload('api.zip', app('served by the worker'));
    const built = await api.until('the server app to be built', async () => {
      const b = await api.build(first.buildId);
      return finished(b) ? b : null;
    });
    expect(built).toMatchObject({ status: 'succeeded', worker: 'w1' });
    // The preview URL is the coordinator's port; the app answers from the worker behind it.
    expect(await (await fetch(built.previewUrl!)).text()).toBe('served by the worker');
    const second = await api.upload('api.zip', app('the newer one'));
    const next = await api.until('the newer build to end', async () => {
      const b = await api.build(second.buildId);
      return finished(b) ? b : null;
    });
    expect(await (await fetch(next.previewUrl!)).text()).toBe('the newer one');
    // One app left running for the project, not two.
    await api.until('the older app to stop', async () => countProcesses(marker) === 1);
  });

  it("a repair made on a worker lands in the coordinator's project and journal, and undoes there", async () => {
    const daemon = await coordinator();
    const api = coordinatorApi(daemon.url);
    await worker('w1', daemon.url);
    const broken = importCaseMismatch('case-on-worker');
    const { buildId } = await api.upload('case-on-worker.zip', broken.files);
    const build = await api.until(
      'the repaired build to end',
      async () => {
        const b = await api.build(buildId);
        return finished(b) ? b : null;
      },
      170_000,
    );
    expect(build).toMatchObject({ status: 'succeeded', worker: 'w1' });
    const made = build.repairs.filter((r) => r.status === 'applied' && r.code === 'FIX_IMPORT_CASE');
    expect(made).toHaveLength(1);
    const app = join(daemon.home, 'projects', 'case-on-worker', 'src', 'App.jsx');
    expect(readFileSync(app, 'utf8')).toContain(CASE_FIXED_IMPORT);
    // The record's repair is the coordinator's own journal entry: undo works here.
    const listed = (await (
      await fetch(`${daemon.url}/api/projects/case-on-worker/repairs`)
    ).json()) as Array<{ id: string }>;
    expect(listed.map((r) => r.id)).toContain(made[0]!.id);
    const undo = await fetch(`${daemon.url}/api/projects/case-on-worker/repairs/undo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: made[0]!.id }),
    });
    expect(undo.status).toBe(200);
    expect(readFileSync(app, 'utf8')).toContain("import Header from './components/header'");
  });

  it("workers present the daemon's access token; one without it is refused with a clear message", async () => {
    const token = 'scale-out-test-token';
    const daemon = await startDaemon({ env: { FORGE_QUEUE_URL: redis.url, FORGE_TOKEN: token } }).then(own);
    await expect(worker('no-token', daemon.url)).rejects.toThrow(/access token is required.*FORGE_TOKEN/is);
    await startWorker({
      name: 'w1',
      queueUrl: redis.url,
      coordinatorUrl: daemon.url,
      env: { FORGE_TOKEN: token },
    }).then(own);
    const res = await fetch(`${daemon.url}/api/workers`, { headers: { Authorization: `Bearer ${token}` } });
    const listed = (await res.json()) as WorkersResponse;
    expect(listed.workers.map((w) => [w.name, w.status])).toEqual([['w1', 'online']]);
  });

  it('says clearly when Redis may evict jobs, and refuses to start without its Redis', async () => {
    const lru = await startRedis({ evictionPolicy: 'allkeys-lru' });
    stops.push(() => lru.stop());
    const daemon = await startDaemon({ env: { FORGE_QUEUE_URL: lru.url } }).then(own);
    expect(daemon.output()).toContain('maxmemory-policy allkeys-lru');
    expect(daemon.output()).toContain('noeviction');
    await expect(startDaemon({ env: { FORGE_QUEUE_URL: 'redis://127.0.0.1:1' } })).rejects.toThrow(
      /Cannot reach the build queue's Redis at redis:\/\/127\.0\.0\.1:1/,
    );
  });
});

/** How many `node server.js <marker>` processes run (not the shell or sandbox around them). */
function countProcesses(marker: string): number {
  try {
    const out = execFileSync('pgrep', ['-a', '-f', marker], { encoding: 'utf8' });
    return out.split('\n').filter((line) => /^\d+ node server\.js /.test(line)).length;
  } catch {
    return 0;
  }
}

/** A redis-cli command's output. */
function redisCli(port: number, ...args: string[]): string {
  return execFileSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });
}

/** Is a process whose command line holds `marker` alive? */
function pgrep(marker: string): boolean {
  try {
    execFileSync('pgrep', ['-f', marker], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
