import type { Build, ClientStore, ServerMessage } from '@forge/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { at, FakeDaemon, logEntry, unreachable } from '../../test/fakes.ts';
import { createBuildStore, trackBuild, type BuildTracker } from './build-tracker.ts';
import { readStoredLog, watchBuild, type WatchBuildOptions } from './build-watch.ts';
import { openLiveFeed, type LiveFeed } from './live-feed.ts';

let daemon: FakeDaemon;
let feed: LiveFeed;
let store: ClientStore;
let stages: string[];
let lines: string[];
let notices: string[];
let tracker: BuildTracker;

beforeEach(() => {
  vi.useFakeTimers();
  daemon = new FakeDaemon();
  feed = openLiveFeed(daemon);
  store = createBuildStore();
  stages = [];
  lines = [];
  notices = [];
  tracker = trackBuild(store, 'b1', {
    onStage: (event) => stages.push(event.stage),
    onLine: (line) => lines.push(line.text),
    onCapped: () => lines.push('(capped)'),
  });
});
afterEach(() => {
  tracker.close();
  feed.close();
  vi.useRealTimers();
});

/** Let pending promise callbacks (the checks' awaits) run, without moving the clock. */
const flush = () => vi.advanceTimersByTimeAsync(0);

function watch(extra: Partial<WatchBuildOptions> = {}) {
  let result: Build | undefined;
  let error: unknown;
  void watchBuild({
    source: daemon,
    feed,
    store,
    buildId: 'b1',
    onNotice: (t) => notices.push(t),
    ...extra,
  }).then(
    (b) => (result = b),
    (e: unknown) => (error = e),
  );
  return {
    get result() {
      return result;
    },
    get error() {
      return error;
    },
  };
}

const stageMessage = (
  stage: Build['stage'],
  status: Build['status'] = 'running',
  buildId = 'b1',
): ServerMessage => ({
  type: 'build-stage',
  buildId,
  projectName: 'site',
  status,
  stage,
  timestamp: at(100),
});

/** Store a line and stream it as the daemon does (seq, bot). */
function streamLine(message: string): void {
  const entry = daemon.store(message);
  daemon.emit({
    type: 'build-output',
    output: message,
    botName: 'BuildBot',
    seq: entry.seq,
    buildId: 'b1',
    projectName: 'site',
    timestamp: entry.timestamp,
  });
}

const finished = (status: Build['status']): ServerMessage => ({
  type: 'build-finished',
  buildId: 'b1',
  projectName: 'site',
  status,
  stage: daemon.build.stage,
});

describe('watchBuild: the record', () => {
  it('prints stages from /ws as they come, and reads the record only at the start and at the end', async () => {
    daemon.greet();
    daemon.enter('bot-assignment', 5);
    const w = watch();
    await flush();
    expect(stages).toEqual(['starting', 'bot-assignment']);

    daemon.enter('extraction', 10);
    daemon.emit(stageMessage('extraction'));
    // A duplicate event, and an event of another build: no stage is printed twice.
    daemon.emit(stageMessage('extraction'));
    daemon.emit(stageMessage('build-start', 'running', 'other'));
    await flush();
    expect(stages).toEqual(['starting', 'bot-assignment', 'extraction']);
    expect(daemon.getBuildCalls).toBe(1);
    expect(w.result).toBeUndefined();

    daemon.finish('succeeded', 900);
    daemon.emit(stageMessage('integration-available', 'succeeded'));
    daemon.emit(finished('succeeded'));
    await flush();
    expect(w.result).toMatchObject({ status: 'succeeded', stage: 'integration-available' });
    expect(stages).toEqual(['starting', 'bot-assignment', 'extraction', 'integration-available']);
    // /ws said it ended: the final record was read (twice at most: two end messages).
    expect(daemon.getBuildCalls).toBeGreaterThan(1);
    expect(daemon.getBuildCalls).toBeLessThanOrEqual(3);
  });

  it('sees a build that finished before the watch began (its build-finished was missed)', async () => {
    daemon.greet();
    daemon.enter('extraction', 10);
    daemon.finish('failed', 50);
    const w = watch();
    await flush();
    expect(w.result?.status).toBe('failed');
    expect(stages).toEqual(['starting', 'extraction', 'build-failed']);
  });

  it('finds the end by reading the record every 10 s even if every event is lost', async () => {
    daemon.greet();
    const w = watch();
    await flush();
    daemon.finish('succeeded', 100);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(w.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.result?.status).toBe('succeeded');
  });

  it('polls every second once /ws drops, and looks at once when it is back', async () => {
    daemon.greet();
    const w = watch();
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

    daemon.finish('timed-out', 5_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(w.result).toMatchObject({ status: 'timed-out', stage: 'build-timeout' });
  });

  it('without /ws, polls every second', async () => {
    const w = watch({ feed: undefined });
    await flush();
    daemon.finish('cancelled', 1_500);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.result).toMatchObject({ status: 'cancelled', stage: 'idle' });
  });

  it('rides out a daemon that is briefly unreachable, and says so', async () => {
    const w = watch({ feed: undefined });
    await flush();
    daemon.failWith = unreachable();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(notices).toEqual([
      expect.stringMatching(/^Lost contact with the daemon .*retrying for up to 30s/),
    ]);
    daemon.failWith = undefined;
    daemon.finish('interrupted', 6_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(notices.at(-1)).toBe('Back in contact with the daemon.');
    expect(w.result).toMatchObject({ status: 'interrupted', stage: 'build-failed' });
  });

  it('gives up after 30 s without the daemon, with its error', async () => {
    const w = watch({ feed: undefined });
    await flush();
    daemon.failWith = unreachable();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(w.error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(2_000);
    expect((w.error as Error).name).toBe('ForgeUnreachableError');
  });

  it('stops at once on another error (e.g. an unknown build)', async () => {
    const w = watch({ buildId: 'nope' });
    await flush();
    expect((w.error as { status: number }).status).toBe(404);
  });

  it('stops when its signal aborts, with the reason, and stops reading', async () => {
    daemon.greet();
    const controller = new AbortController();
    const w = watch({ signal: controller.signal });
    await flush();
    controller.abort(new Error('Ctrl+C'));
    await flush();
    expect((w.error as Error).message).toBe('Ctrl+C');
    const calls = daemon.getBuildCalls;
    daemon.emit(finished('succeeded'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(daemon.getBuildCalls).toBe(calls);
  });
});

describe('watchBuild: the log', () => {
  beforeEach(() => daemon.greet());

  it('prints the stored lines, then /ws lines as they come, without a request per line', async () => {
    daemon.store('line 1');
    daemon.store('line 2');
    watch({ log: tracker });
    await flush();
    expect(lines).toEqual(['line 1', 'line 2']);
    const requests = daemon.getBuildCalls + daemon.getLogsCalls.length;
    for (let i = 3; i <= 200; i++) streamLine(`line ${i}`);
    await flush();
    expect(lines).toHaveLength(200);
    expect(lines.at(-1)).toBe('line 200');
    expect(daemon.getBuildCalls + daemon.getLogsCalls.length).toBe(requests);
  });

  it('reads a lost frame from the store, from the last line shown, and prints every line once in order', async () => {
    watch({ log: tracker });
    await flush();
    streamLine('line 1');
    daemon.store('line 2'); // its frame is lost
    daemon.store('line 3'); // and this one
    streamLine('line 4');
    await flush();
    expect(lines).toEqual(['line 1', 'line 2', 'line 3', 'line 4']);
    expect(daemon.getLogsCalls.at(-1)).toEqual({ after: 1, limit: 1_000 });
  });

  it('ends once every stored line of the finished build is printed', async () => {
    const w = watch({ log: tracker });
    await flush();
    streamLine('line 1');
    // The last line is stored just before the end; its frame is not seen before build-finished.
    daemon.store('line 2');
    daemon.finish('failed', 100);
    daemon.emit(finished('failed'));
    await flush();
    expect(w.result?.status).toBe('failed');
    expect(lines).toEqual(['line 1', 'line 2']);
  });

  it('keeps printing every second when /ws drops, and ends when the build has finished', async () => {
    const w = watch({ log: tracker });
    await flush();
    daemon.drop();
    expect(notices).toEqual([expect.stringContaining('checking for new lines every second')]);
    daemon.store('line 1');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lines).toEqual(['line 1']);
    daemon.store('line 2');
    daemon.finish('succeeded', 10);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.result?.status).toBe('succeeded');
    expect(lines).toEqual(['line 1', 'line 2']);
  });

  it('past the daemon’s cap, prints the lines it only streams after the stored ones, each once', async () => {
    daemon.store('line 1');
    watch({ log: tracker });
    await flush();
    // The cap is reached: the daemon marks the record, stores its last line, and streams the rest.
    daemon.build.logTruncated = true;
    streamLine('Log truncated');
    const live = (output: string) =>
      daemon.emit({ type: 'build-error', output, botName: 'BuildBot', buildId: 'b1', timestamp: at(9) });
    live('a\nb');
    await flush();
    live('c');
    daemon.emit({ type: 'build-output', output: 'other build', buildId: 'b2', timestamp: at(9) });
    await flush();
    expect(lines).toEqual(['line 1', 'Log truncated', '(capped)', 'a', 'b', 'c']);
  });
});

describe('readStoredLog', () => {
  beforeEach(() => store.dispatch({ type: 'build-record', build: daemon.build }));

  it('reads every page from the last line shown, then only what is new, each entry once', async () => {
    for (let i = 1; i <= 25; i++) daemon.store(`line ${i}`);
    await readStoredLog(daemon, store, 'b1', tracker, 10);
    expect(lines).toEqual(daemon.log.map((e) => e.message));
    expect(daemon.getLogsCalls).toEqual([
      { after: 0, limit: 10 },
      { after: 10, limit: 10 },
      { after: 20, limit: 10 },
    ]);
    daemon.store('line 26');
    await readStoredLog(daemon, store, 'b1', tracker, 10);
    expect(lines.slice(25)).toEqual(['line 26']);
    expect(daemon.getLogsCalls.at(-1)).toEqual({ after: 25, limit: 10 });
  });

  it('shows an entry once whatever the daemon sends again, and stops when `next` does not move', async () => {
    daemon.getLogs = async () => ({ entries: [logEntry(1), logEntry(2)], truncated: true, next: 2 });
    await readStoredLog(daemon, store, 'b1', tracker, 2);
    await readStoredLog(daemon, store, 'b1', tracker, 2);
    expect(lines).toEqual(['line 1', 'line 2', '(capped)']);
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
