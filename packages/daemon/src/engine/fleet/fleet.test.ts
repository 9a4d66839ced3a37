import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '@forge/shared';
import { createFleet } from './fleet.ts';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('fleet', () => {
  it('lists the 25 bots, every one active before any job (none is on standby any more)', () => {
    const fleet = createFleet({ broadcast: () => {}, maxConcurrent: () => 25 });
    expect(fleet.list()).toHaveLength(25);
    expect(fleet.list().filter((b) => b.status !== 'active')).toEqual([]);
    expect(fleet.list().every((b) => b.lastJob === null)).toBe(true);
    expect(fleet.activities().map((a) => [a.type, a.count, a.status])).toEqual([
      ['infrastructure', 6, 'online'],
      ['development', 6, 'online'],
      ['operations', 6, 'online'],
      ['services', 7, 'online'],
    ]);
  });

  it('records what each bot last did, and runs slot-free jobs beside a full fleet', async () => {
    const fleet = createFleet({ broadcast: () => {}, maxConcurrent: () => 1 });
    const gate = deferred();
    const busy = fleet.run('BuildBot', { label: 'build app' }, () => gate.promise);
    // The only slot is taken: a chat answer still runs at once.
    const answer = await fleet.run('ChatBot', { label: 'chat' }, async () => 'pong', {
      slot: false,
      summary: (r) => `answered ${r}`,
    });
    expect(answer).toBe('pong');
    expect(fleet.list().find((b) => b.name === 'ChatBot')!.lastJob).toMatchObject({
      label: 'chat',
      ok: true,
      summary: 'answered pong',
    });
    await expect(
      fleet.run('ScanBot', { label: 'scan' }, () => Promise.reject(new Error('disk gone')), { slot: false }),
    ).rejects.toThrow('disk gone');
    expect(fleet.list().find((b) => b.name === 'ScanBot')).toMatchObject({
      status: 'error',
      lastJob: { label: 'scan', ok: false, summary: 'disk gone' },
    });
    gate.resolve();
    await busy;
    expect(fleet.activeJobs).toBe(0);
  });

  it('never runs more jobs than the limit, and starts waiting jobs in order', async () => {
    let limit = 2;
    const fleet = createFleet({ broadcast: () => {}, maxConcurrent: () => limit });
    const gates = [deferred(), deferred(), deferred()];
    const began = gates.map(() => deferred());
    const started: number[] = [];
    const jobs = gates.map((g, i) =>
      fleet.run('BuildBot', { label: `job ${i}` }, async () => {
        started.push(i);
        began[i]!.resolve();
        await g.promise;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(fleet.queuedJobs).toBe(1);
    expect(fleet.list().find((b) => b.name === 'BuildBot')).toMatchObject({
      status: 'building',
      currentJob: 'job 0, job 1',
    });
    gates[0]!.resolve();
    await jobs[0];
    // The freed slot goes to the job that waited, once the pool has handed it over.
    await began[2]!.promise;
    expect(started).toEqual([0, 1, 2]);
    limit = 25;
    gates[1]!.resolve();
    gates[2]!.resolve();
    await Promise.all(jobs);
    expect(fleet.activeJobs).toBe(0);
  });

  it('counts failures, shows error until a later success, and keeps the failed job for Fix', async () => {
    const messages: ServerMessage[] = [];
    const fleet = createFleet({ broadcast: (m) => messages.push(m), maxConcurrent: () => 25 });
    await fleet.run('TestBot', { label: 'test app', projectName: 'app', buildId: 'b1' }, async () => 1, {
      failed: (code) => code !== 0,
    });
    expect(fleet.list().find((b) => b.name === 'TestBot')).toMatchObject({
      status: 'error',
      jobsRun: 1,
      failures: 1,
    });
    expect(fleet.lastFailure('TestBot')).toMatchObject({ projectName: 'app', buildId: 'b1' });
    expect(fleet.activities().find((a) => a.type === 'development')).toEqual({
      type: 'development',
      count: 5,
      status: 'error',
    });
    await expect(
      fleet.run('TestBot', { label: 'again' }, async () => {
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect(fleet.list().find((b) => b.name === 'TestBot')!.failures).toBe(2);
    await fleet.run('TestBot', { label: 'fixed' }, async () => 0, { failed: (c) => c !== 0 });
    expect(fleet.lastFailure('TestBot')).toBeNull();
    expect(messages).toContainEqual({
      type: 'bot-assigned',
      botName: 'TestBot',
      projectName: 'app',
      buildId: 'b1',
    });
    expect(messages.filter((m) => m.type === 'bot-status').at(-1)).toEqual({
      type: 'bot-status',
      botName: 'TestBot',
      status: 'active',
      job: null,
    });
  });

  it('lets a waiting job be cancelled without taking a slot', async () => {
    const fleet = createFleet({ broadcast: () => {}, maxConcurrent: () => 1 });
    const gate = deferred();
    const first = fleet.run('BuildBot', { label: 'a' }, () => gate.promise);
    const ac = new AbortController();
    const second = fleet.run('BuildBot', { label: 'b' }, async () => 'ran', { signal: ac.signal });
    ac.abort(new Error('superseded'));
    await expect(second).rejects.toThrow('superseded');
    gate.resolve();
    await first;
    expect(fleet.activeJobs).toBe(0);
    expect(fleet.queuedJobs).toBe(0);
  });
});
