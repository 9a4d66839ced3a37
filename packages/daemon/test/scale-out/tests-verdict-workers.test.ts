import { describe, expect, it } from 'vitest';
import type { BotInfo, Build } from '@forge/shared';
import { hasRedis, PROJECTS } from '@forge/testing';
import { oneWorkerCluster } from './one-worker.ts';

/**
 * The tests' verdict of a build a `forge worker` ran: the upload's `tests` reaches the worker
 * (`--tests skip` skips the test step there), the verdict comes back in the record, and failing tests
 * leave the coordinator's TestBot card healthy, as they do in-process.
 */
describe.skipIf(!hasRedis())('scale-out: the tests verdict on a worker', () => {
  const cluster = oneWorkerCluster();

  it('--tests skip is honoured on the worker; failing tests are the verdict, not a failed TestBot', async () => {
    const { daemon, api } = await cluster.start('w1');
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
