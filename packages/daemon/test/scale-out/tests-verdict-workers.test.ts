import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BotInfo, Build } from '@forge/shared';
import {
  coordinatorApi,
  hasRedis,
  PROJECTS,
  startDaemon,
  startRedis,
  startWorker,
  type TestDaemon,
  type TestRedis,
} from '@forge/testing';

/**
 * The tests' verdict of a build a `forge worker` ran: the upload's `tests` reaches the worker
 * (`--tests skip` skips the test step there), the verdict comes back in the record, and failing tests
 * leave the coordinator's TestBot card healthy, as they do in-process.
 */
describe.skipIf(!hasRedis())('scale-out: the tests verdict on a worker', () => {
  let redis: TestRedis;
  const stops: Array<() => Promise<void>> = [];

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

  it('--tests skip is honoured on the worker; failing tests are the verdict, not a failed TestBot', async () => {
    const daemon: TestDaemon = await startDaemon({ env: { FORGE_QUEUE_URL: redis.url } });
    stops.push(() => daemon.stop());
    const api = coordinatorApi(daemon.url);
    const worker = await startWorker({ name: 'w1', queueUrl: redis.url, coordinatorUrl: daemon.url });
    stops.push(() => worker.stop());
    await api.until('the worker online', async () => (await api.workers()).workers.length === 1);
    const ended = (id: string) =>
      api.until(`build ${id} to end`, async () => {
        const b = await api.build(id);
        return b.status !== 'queued' && b.status !== 'running' ? b : null;
      });

    const skipped: Build = await ended(
      (await api.upload('tests-fail.zip', PROJECTS['tests-fail'], '?tests=skip')).buildId,
    );
    expect(skipped).toMatchObject({ status: 'succeeded', worker: 'w1', testsOption: 'skip', test: null });
    expect(skipped.steps.find((s) => s.name === 'test')).toMatchObject({ status: 'skipped' });
    expect(skipped.verdict).toMatchObject({ status: 'skipped', policy: 'skip', policySource: 'option' });

    const failed: Build = await ended(
      (await api.upload('tests-fail.zip', PROJECTS['tests-fail'], '?noCache=1')).buildId,
    );
    expect(failed).toMatchObject({ status: 'succeeded', worker: 'w1', testsOption: null });
    expect(failed.verdict).toMatchObject({ status: 'failed', policy: 'required', policySource: 'default' });
    const bots = (await (await fetch(`${daemon.url}/api/bots`)).json()) as BotInfo[];
    expect(bots.find((b) => b.name === 'TestBot')).toMatchObject({ failures: 0 });
    expect(bots.find((b) => b.name === 'TestBot')?.status).not.toBe('error');
  });
});
