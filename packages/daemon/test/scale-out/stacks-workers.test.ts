import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Build } from '@forge/shared';
import {
  coordinatorApi,
  hasRedis,
  pythonWheel,
  startDaemon,
  startRedis,
  startWorker,
  type TestRedis,
} from '@forge/testing';
import { onPath } from '../../src/pipeline/toolchains/stack-tool.ts';

/**
 * Another stack on a `forge worker`: a Python app is planned, given its virtual environment in the
 * worker's FORGE_HOME, installed from its own wheelhouse, started there, and its preview reached
 * through the coordinator, as an in-process build does.
 */
describe.skipIf(!hasRedis() || !onPath('python3', process.env.PATH ?? ''))(
  'scale-out: a Python app on a worker',
  () => {
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

    it('is built in its own virtual environment on the worker and previewed through the coordinator', async () => {
      const daemon = await startDaemon({ env: { FORGE_QUEUE_URL: redis.url } });
      stops.push(() => daemon.stop());
      const api = coordinatorApi(daemon.url);
      const worker = await startWorker({ name: 'w1', queueUrl: redis.url, coordinatorUrl: daemon.url });
      stops.push(() => worker.stop());
      await api.until('the worker online', async () => (await api.workers()).workers.length === 1);

      const { buildId } = await api.upload('py-on-worker.zip', {
        'requirements.txt': '--no-index\n--find-links wheels\ngreeting==1.0\n',
        'wheels/greeting-1.0-py3-none-any.whl': pythonWheel(
          'greeting',
          '1.0',
          "def hello():\n    return 'Hello from a worker'\n",
        ),
        'app.py': `import os
from wsgiref.simple_server import make_server
from greeting import hello

def app(environ, start_response):
    start_response('200 OK', [('Content-Type', 'text/html; charset=utf-8')])
    return [('<h1>' + hello() + '</h1>').encode()]

if __name__ == '__main__':
    make_server('127.0.0.1', int(os.environ['PORT']), app).serve_forever()
`,
      });
      const built: Build = await api.until(`build ${buildId} to end`, async () => {
        const b = await api.build(buildId);
        return b.status !== 'queued' && b.status !== 'running' ? b : null;
      });
      expect(built).toMatchObject({ status: 'succeeded', worker: 'w1' });
      expect(built.blueprint).toMatchObject({
        stack: 'python',
        framework: 'wsgi',
        install: ['python', '-m', 'pip', 'install', '-r', 'requirements.txt'],
      });
      expect(built.blueprint!.decisions).toContainEqual(
        expect.objectContaining({ field: 'stack', value: 'python', file: 'requirements.txt' }),
      );
      expect(built.blueprint!.runtime).toMatchObject({ tool: 'python3', source: 'machine' });
      expect(await (await fetch(built.previewUrl!)).text()).toBe('<h1>Hello from a worker</h1>');
    });
  },
);
