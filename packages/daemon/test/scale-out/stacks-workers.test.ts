import { describe, expect, it } from 'vitest';
import type { Build } from '@forge/shared';
import { hasRedis, pythonWheel } from '@forge/testing';
import { oneWorkerCluster } from './one-worker.ts';
import { onPath } from '../../src/capabilities/toolchains/stack-tool.ts';

/**
 * Another stack on a `forge worker`: a Python app is planned, given its virtual environment in the
 * worker's FORGE_HOME, installed from its own wheelhouse, started there, and its preview reached
 * through the coordinator, as an in-process build does.
 */
describe.skipIf(!hasRedis() || !onPath('python3', process.env.PATH ?? ''))(
  'scale-out: a Python app on a worker',
  () => {
    const cluster = oneWorkerCluster();

    it('is built in its own virtual environment on the worker and previewed through the coordinator', async () => {
      const { api } = await cluster.start('w1');

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
