import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  coordinatorApi,
  startDaemon,
  startRedis,
  startWorker,
  type TestDaemon,
  type TestRedis,
  type TestWorker,
} from '@forge/testing';

/**
 * What a scale-out test file of one coordinator and one worker shares: one Redis for the file, and
 * after each test every daemon and worker stopped and the queue emptied. Call it inside the file's
 * describe; `start(name)` gives a coordinator on the queue and a worker of that name, online.
 */
export function oneWorkerCluster() {
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
  return {
    async start(workerName: string): Promise<{
      daemon: TestDaemon;
      worker: TestWorker;
      api: ReturnType<typeof coordinatorApi>;
    }> {
      const daemon = await startDaemon({ env: { FORGE_QUEUE_URL: redis.url } });
      stops.push(() => daemon.stop());
      const api = coordinatorApi(daemon.url);
      const worker = await startWorker({ name: workerName, queueUrl: redis.url, coordinatorUrl: daemon.url });
      stops.push(() => worker.stop());
      await api.until('the worker online', async () => (await api.workers()).workers.length === 1);
      return { daemon, worker, api };
    },
  };
}
