import type { Build, StageEvent } from '@forge/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeDaemon, unreachable } from '../../test/fakes.ts';
import { openLiveFeed, type LiveFeed } from './live-feed.ts';
import { waitForBuild, type WaitForBuildOptions } from './wait-for-build.ts';

let daemon: FakeDaemon;
let feed: LiveFeed;
let stages: string[];
let notices: string[];

beforeEach(() => {
  vi.useFakeTimers();
  daemon = new FakeDaemon();
  feed = openLiveFeed(daemon);
  stages = [];
  notices = [];
});
afterEach(() => {
  feed.close();
  vi.useRealTimers();
});

/** Let pending promise callbacks (the checks' awaits) run, without moving the clock. */
const flush = () => vi.advanceTimersByTimeAsync(0);

function wait(extra: Partial<WaitForBuildOptions> = {}) {
  let result: Build | undefined;
  let error: unknown;
  const promise = waitForBuild({
    source: daemon,
    feed,
    buildId: 'b1',
    onStage: (e: StageEvent) => stages.push(e.stage),
    onNotice: (t) => notices.push(t),
    ...extra,
  }).then(
    (b) => (result = b),
    (e: unknown) => (error = e),
  );
  return {
    promise,
    get result() {
      return result;
    },
    get error() {
      return error;
    },
  };
}

describe('waitForBuild', () => {
  it('follows stage events and ends on build-finished, reporting each stage once and in order', async () => {
    daemon.greet();
    daemon.enter('bot-assignment', 5);
    const w = wait();
    await flush();
    expect(stages).toEqual(['starting', 'bot-assignment']);

    daemon.enter('extraction', 10);
    daemon.emit({ type: 'build-stage', stage: 'extraction', buildId: 'b1' });
    // A duplicate event, and an event of another build: no stage is reported twice.
    daemon.emit({ type: 'build-stage', stage: 'extraction', buildId: 'b1' });
    daemon.emit({ type: 'build-stage', stage: 'build-start', buildId: 'other' });
    await flush();
    expect(stages).toEqual(['starting', 'bot-assignment', 'extraction']);
    expect(w.result).toBeUndefined();

    daemon.finish('succeeded', 'build-success', 900);
    daemon.emit({
      type: 'build-finished',
      buildId: 'b1',
      projectName: 'site',
      status: 'succeeded',
      stage: 'build-success',
    });
    await flush();
    expect(w.result?.status).toBe('succeeded');
    expect(stages).toEqual(['starting', 'bot-assignment', 'extraction', 'build-success']);
  });

  it('ignores log lines: they never cause a look at the build record', async () => {
    daemon.greet();
    wait();
    await flush();
    const calls = daemon.getBuildCalls;
    for (let i = 0; i < 50; i++) daemon.emit({ type: 'build-output', output: `line ${i}`, buildId: 'b1' });
    await flush();
    expect(daemon.getBuildCalls).toBe(calls);
  });

  it('sees a build that finished before the wait began (its build-finished was missed)', async () => {
    daemon.greet();
    daemon.enter('extraction', 10);
    daemon.finish('failed', 'build-failed', 50);
    const w = wait();
    await flush();
    expect(w.result?.status).toBe('failed');
    expect(stages).toEqual(['starting', 'extraction', 'build-failed']);
  });

  it('finds the end by looking at the record every 10 s even if every event is lost', async () => {
    daemon.greet();
    const w = wait();
    await flush();
    daemon.finish('succeeded', 'build-success', 100);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(w.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.result?.status).toBe('succeeded');
  });

  it('polls every second once /ws drops, and looks at once when it is back', async () => {
    daemon.greet();
    const w = wait();
    await flush();
    daemon.drop();
    await flush();
    expect(notices).toEqual([expect.stringContaining('checking the build every second')]);
    const calls = daemon.getBuildCalls;
    await vi.advanceTimersByTimeAsync(3_000);
    expect(daemon.getBuildCalls).toBe(calls + 3);

    // Reconnected: the events of the gap are lost, so the record is read right away.
    daemon.enter('build-start', 2_000);
    daemon.greet();
    await flush();
    expect(stages).toContain('build-start');

    daemon.finish('timed-out', 'build-timeout', 5_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(w.result?.status).toBe('timed-out');
  });

  it('without /ws, polls every second', async () => {
    const w = wait({ feed: undefined });
    await flush();
    daemon.finish('cancelled', 'build-failed', 1_500);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.result?.status).toBe('cancelled');
  });

  it('rides out a daemon that is briefly unreachable, and says so', async () => {
    daemon.greet();
    const w = wait({ feed: undefined });
    await flush();
    daemon.failWith = unreachable();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(notices).toEqual([
      expect.stringMatching(/^Lost contact with the daemon .*retrying for up to 30s/),
    ]);
    daemon.failWith = undefined;
    daemon.finish('interrupted', 'build-failed', 6_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(notices.at(-1)).toBe('Back in contact with the daemon.');
    expect(w.result?.status).toBe('interrupted');
  });

  it('gives up after 30 s without the daemon, with its error', async () => {
    const w = wait({ feed: undefined });
    await flush();
    daemon.failWith = unreachable();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(w.error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(2_000);
    expect((w.error as Error).name).toBe('ForgeUnreachableError');
  });

  it('stops at once on another error (e.g. an unknown build)', async () => {
    const w = wait({ buildId: 'nope' });
    await flush();
    expect((w.error as { status: number }).status).toBe(404);
  });

  it('stops when its signal aborts, with the reason', async () => {
    daemon.greet();
    const controller = new AbortController();
    const w = wait({ signal: controller.signal });
    await flush();
    controller.abort(new Error('Ctrl+C'));
    await flush();
    expect((w.error as Error).message).toBe('Ctrl+C');
    // Nothing keeps checking after the end.
    const calls = daemon.getBuildCalls;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(daemon.getBuildCalls).toBe(calls);
  });
});

describe('openLiveFeed', () => {
  it('is ready once the daemon greets it, and not ready after the timeout otherwise', async () => {
    const notGreeted = feed.ready(5_000);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(notGreeted).resolves.toBe(false);
    expect(feed.connected).toBe(false);

    const greeted = feed.ready(5_000);
    daemon.greet();
    await expect(greeted).resolves.toBe(true);
    expect(feed.connected).toBe(true);
    daemon.drop();
    expect(feed.connected).toBe(false);
  });

  it('closes the socket when closed', () => {
    feed.close();
    expect(daemon.closed).toBe(true);
  });
});
