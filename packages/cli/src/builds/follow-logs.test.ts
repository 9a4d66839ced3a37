import type { Build } from '@forge/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeDaemon, logEntry } from '../../test/fakes.ts';
import { followLogs, LogReader } from './follow-logs.ts';
import { openLiveFeed, type LiveFeed } from './live-feed.ts';

let daemon: FakeDaemon;
let seen: string[];

beforeEach(() => {
  daemon = new FakeDaemon();
  seen = [];
});

const reader = (pageSize?: number, onTruncated?: () => void) =>
  new LogReader(daemon, 'b1', (e) => seen.push(e.message), onTruncated, pageSize);

describe('LogReader', () => {
  it('reads every page, then only what is new, each entry once', async () => {
    daemon.log = Array.from({ length: 25 }, (_, i) => logEntry(i + 1));
    const r = reader(10);
    await r.drain();
    expect(seen).toEqual(daemon.log.map((e) => e.message));
    expect(daemon.getLogsCalls).toEqual([{ limit: 10 }, { after: 10, limit: 10 }, { after: 20, limit: 10 }]);

    daemon.log.push(logEntry(26), logEntry(27));
    await r.drain();
    expect(seen.slice(25)).toEqual(['line 26', 'line 27']);
    await r.drain();
    expect(seen).toHaveLength(27);
  });

  it('skips entries it has already shown, whatever the daemon sends again', async () => {
    const r = reader();
    daemon.log = [logEntry(1), logEntry(2)];
    await r.drain();
    // A daemon that answers `after` inclusively, or re-sends a page.
    daemon.getLogs = async () => ({ entries: [logEntry(2), logEntry(3)], truncated: false, next: 3 });
    await r.drain();
    expect(seen).toEqual(['line 1', 'line 2', 'line 3']);
  });

  it('is capped only once it has read up to the end of a truncated log', async () => {
    daemon.truncated = true;
    daemon.log = Array.from({ length: 25 }, (_, i) => logEntry(i + 1));
    const capped: boolean[] = [];
    const r = new LogReader(daemon, 'b1', () => capped.push(r.capped), undefined, 10);
    await r.drain();
    expect(capped.every((c) => !c)).toBe(true);
    expect(r.capped).toBe(true);
  });

  it('stops paging when `next` does not move, and reports truncation once', async () => {
    let truncations = 0;
    const r = reader(2, () => truncations++);
    daemon.getLogs = async () => ({ entries: [logEntry(1), logEntry(2)], truncated: true, next: 2 });
    await r.drain();
    await r.drain();
    expect(seen).toEqual(['line 1', 'line 2']);
    expect(truncations).toBe(1);
  });
});

describe('followLogs', () => {
  let feed: LiveFeed;
  beforeEach(() => {
    vi.useFakeTimers();
    feed = openLiveFeed(daemon);
    daemon.greet();
  });
  afterEach(() => {
    feed.close();
    vi.useRealTimers();
  });
  const flush = () => vi.advanceTimersByTimeAsync(0);

  function follow(r = reader()) {
    let result: Build | undefined;
    void followLogs({ source: daemon, feed, buildId: 'b1', reader: r }).then((b) => (result = b));
    return () => result;
  }

  it('prints lines as /ws announces them, none twice or lost, and ends after the last stored line', async () => {
    daemon.log = [logEntry(1)];
    const r = reader();
    await r.drain(); // the stored lines, printed before following
    const result = follow(r);
    await flush();

    // Lines stored while a read is in flight are read by the next read, not lost.
    daemon.duringGetLogs = () => {
      daemon.duringGetLogs = undefined;
      daemon.log.push(logEntry(3));
    };
    daemon.log.push(logEntry(2));
    daemon.emit({ type: 'build-output', output: 'line 2', buildId: 'b1' });
    daemon.emit({ type: 'build-output', output: 'line 3', buildId: 'b1' });
    await flush();
    expect(seen).toEqual(['line 1', 'line 2', 'line 3']);

    // The build ends; its last line is stored before build-finished is sent.
    daemon.log.push(logEntry(4));
    daemon.finish('failed', 'build-failed', 100);
    daemon.emit({
      type: 'build-finished',
      buildId: 'b1',
      projectName: 'site',
      status: 'failed',
      stage: 'build-failed',
    });
    await flush();
    expect(result()?.status).toBe('failed');
    expect(seen).toEqual(['line 1', 'line 2', 'line 3', 'line 4']);
  });

  it('does not read the build record for every line during a flood', async () => {
    follow();
    await flush();
    const calls = daemon.getBuildCalls;
    for (let i = 1; i <= 200; i++) {
      daemon.log.push(logEntry(i));
      daemon.emit({ type: 'log', botName: 'BuildBot', level: 'info', message: `line ${i}`, buildId: 'b1' });
    }
    await flush();
    expect(seen).toHaveLength(200);
    expect(daemon.getBuildCalls).toBe(calls);
  });

  it('ignores lines of other builds', async () => {
    follow();
    await flush();
    const reads = daemon.getLogsCalls.length;
    daemon.emit({ type: 'build-output', output: 'x', buildId: 'other' });
    await flush();
    expect(daemon.getLogsCalls.length).toBe(reads);
  });

  it('keeps printing every second when /ws drops, and ends when the build has finished', async () => {
    const result = follow();
    await flush();
    daemon.drop();
    daemon.log.push(logEntry(1));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen).toEqual(['line 1']);
    daemon.log.push(logEntry(2));
    daemon.finish('succeeded', 'build-success', 10);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(result()?.status).toBe('succeeded');
    expect(seen).toEqual(['line 1', 'line 2']);
  });

  it('past the daemon’s log cap, shows the lines it only streams after the stored ones, each once', async () => {
    const live: string[] = [];
    daemon.truncated = true;
    daemon.log = [logEntry(1), logEntry(2, 'Log truncated')];
    const stored = daemon.log[1]!.timestamp;
    const later = (ms: number) => new Date(Date.parse(stored) + ms).toISOString();
    const r = reader();
    void followLogs({
      source: daemon,
      feed,
      buildId: 'b1',
      reader: r,
      onLiveEntry: (e) => live.push(`${e.level} ${e.botName} ${e.message}`),
    });
    // Streamed while the stored log is still being read: held until it is known to be capped.
    daemon.emit({ type: 'build-output', output: 'stored already', buildId: 'b1', timestamp: stored });
    daemon.emit({ type: 'build-error', output: 'a\nb', buildId: 'b1', timestamp: later(1) });
    expect(live).toEqual([]);
    await flush();
    expect(seen).toEqual(['line 1', 'Log truncated']);
    expect(live).toEqual(['warn BuildBot a', 'warn BuildBot b']);

    daemon.emit({
      type: 'log',
      botName: 'UiBot',
      level: 'success',
      message: 'ok',
      buildId: 'b1',
      timestamp: later(2),
    });
    // Stored (it has an id), another build's, or of no known build: not shown live.
    daemon.emit({
      type: 'log',
      id: 'x',
      botName: 'UiBot',
      level: 'info',
      message: 's',
      buildId: 'b1',
      timestamp: later(3),
    });
    daemon.emit({ type: 'build-output', output: 'other', buildId: 'b2', timestamp: later(3) });
    daemon.emit({ type: 'build-output', output: 'anon', timestamp: later(3) });
    await flush();
    expect(live).toEqual(['warn BuildBot a', 'warn BuildBot b', 'success UiBot ok']);
  });

  it('shows nothing live while the stored log is complete', async () => {
    const live: string[] = [];
    daemon.log = [logEntry(1)];
    const r = reader();
    void followLogs({
      source: daemon,
      feed,
      buildId: 'b1',
      reader: r,
      onLiveEntry: (e) => live.push(e.message),
    });
    daemon.emit({ type: 'build-output', output: 'x', buildId: 'b1', timestamp: '2099-01-01T00:00:00.000Z' });
    await flush();
    expect(live).toEqual([]);
  });

  it('ends at once for a build that has already finished', async () => {
    daemon.log = [logEntry(1)];
    daemon.finish('succeeded', 'build-success', 10);
    const result = follow();
    await flush();
    expect(result()?.status).toBe('succeeded');
    expect(seen).toEqual(['line 1']);
  });
});
