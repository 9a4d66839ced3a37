import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { WORKER_STOP_GRACE_MS } from '@forge/shared';
import { closedPort, exitOf, Sandbox, waitForOutput } from './helpers.ts';

// `forge worker` under a service manager: a stop signal ends it within a bounded grace even when
// its Redis and its coordinator are gone (the close would otherwise wait for a reconnect).

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

async function startRedis(): Promise<{ url: string; child: ChildProcess }> {
  const port = await closedPort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
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

const sandboxes: Sandbox[] = [];
const redises: ChildProcess[] = [];
afterEach(async () => {
  for (const child of redises.splice(0)) child.kill('SIGKILL');
  await Promise.all(sandboxes.splice(0).map((s) => s.dispose()));
});

describe.skipIf(!hasRedis)('forge worker stops when its Redis and coordinator are gone', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: exits within the grace, non-zero, and says why',
    async (signal) => {
      const redis = await startRedis();
      redises.push(redis.child);
      const sandbox = await Sandbox.create();
      sandboxes.push(sandbox);
      const start = await sandbox.run(['daemon', 'start'], { FORGE_QUEUE_URL: redis.url });
      expect(start.code, start.stderr).toBe(0);
      const daemonUrl = sandbox.state()!.url;

      const worker = sandbox.spawn(['worker', '--queue', redis.url, '--url', daemonUrl, '--name', 'lonely']);
      await waitForOutput(worker.stdout, /Forge worker lonely is taking build jobs/);

      // Redis dies (no goodbye), then the coordinator stops.
      redis.child.kill('SIGKILL');
      await exitOf(redis.child);
      const stop = await sandbox.run(['daemon', 'stop']);
      expect(stop.code, stop.stderr).toBe(0);

      const sent = Date.now();
      worker.kill(signal);
      const code = await exitOf(worker);
      const took = Date.now() - sent;
      const stderr = await waitForOutput(worker.stderr, /[\s\S]*/);
      expect(took).toBeLessThan(WORKER_STOP_GRACE_MS + 5_000);
      expect(code).toBe(1);
      expect(stderr).toContain(
        `Forge worker lonely did not stop within ${WORKER_STOP_GRACE_MS / 1000} s: its queue ${redis.url} does not answer. Exiting.`,
      );
    },
    60_000,
  );
});
