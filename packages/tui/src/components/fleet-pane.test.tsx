import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { ForgeHttpError, type WorkerInfo } from '@forge/shared';
import { createFakeClient, fakeBots, fakeWorker } from '../testing/fake-client.ts';
import type { WorkersView } from '../lib/workers.ts';
import { fleetRows } from './fleet-pane.tsx';
import { renderApp, waitFor } from '../testing/render-app.tsx';

// Colours are asserted on purpose here: force them on before Ink (and its chalk) is loaded, as a
// test runner's output is not a terminal.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

// Each test drives a few dozen renders; under a loaded 2-core CI machine that takes seconds.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
});

const GREEN = '\u001B[32m';
const YELLOW = '\u001B[33m';
const RED = '\u001B[31m';

/**
 * The colour code in force where `text` starts, on the first line of the raw frame that contains
 * `onLine` (without its colour codes).
 */
function colourBefore(raw: string, text: string, onLine = text): string | undefined {
  const line = raw.split('\n').find((l) => stripVTControlCharacters(l).includes(onLine));
  if (!line) return undefined;
  const index = line.indexOf(text);
  if (index < 0) return undefined;
  // eslint-disable-next-line no-control-regex
  const codes = line.slice(0, index).match(/\u001B\[\d+m/g) ?? [];
  return codes.at(-1);
}

describe('fleet pane', () => {
  it('groups the 25 bots by category with healthy counts', async () => {
    const app = renderApp();
    await app.connect();
    await app.shows('Fleet · 25');
    for (const [label, count] of [
      ['Infrastructure', '6/6'],
      ['Development', '6/6'],
      ['Operations', '6/6'],
      ['Services', '7/7'],
    ] as const) {
      expect(app.linesWith(label)[0]).toMatch(new RegExp(`● ${label} ${count} online`));
    }
    const frame = app.frame();
    // Each bot under its category, in roster order.
    expect(frame.indexOf('ExtractBot')).toBeGreaterThan(frame.indexOf('Infrastructure'));
    expect(frame.indexOf('BuildBot')).toBeGreaterThan(frame.indexOf('Development'));
    expect(frame.indexOf('LogBot')).toBeGreaterThan(frame.indexOf('Services'));
    expect(app.frame().match(/^│ {3}● \w+Bot +active/gm)).toHaveLength(25);
  });

  it('colours bots and categories as the web: active green, building yellow, error red', async () => {
    const fake = createFakeClient({
      routes: {
        bots: () =>
          fakeBots({
            BuildBot: { status: 'building', currentJob: 'build site' },
            ScanBot: { status: 'error' },
          }),
      },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('build site');
    const raw = app.rawFrame();
    expect(raw).toContain(GREEN);
    expect(colourBefore(raw, 'active')).toBe(GREEN);
    // A busy bot shows its job in yellow, a failed one "error" in red; the dots share the colour.
    expect(colourBefore(raw, 'build site')).toBe(YELLOW);
    expect(colourBefore(raw, '●', 'BuildBot')).toBe(YELLOW);
    expect(app.linesWith('ScanBot')[0]).toMatch(/ScanBot\s+error/);
    expect(colourBefore(raw, 'error', 'ScanBot')).toBe(RED);
    expect(colourBefore(raw, '●', 'ScanBot')).toBe(RED);
    expect(colourBefore(raw, '●', 'UiBot')).toBe(GREEN);
    // Categories: development is pending (a bot builds), operations in error with 5 of 6 healthy.
    expect(app.linesWith('Development')[0]).toContain('6/6 pending');
    expect(colourBefore(raw, 'pending')).toBe(YELLOW);
    expect(colourBefore(raw, 'error', 'Operations')).toBe(RED);
    expect(app.linesWith('Operations')[0]).toContain('5/6 error');
    expect(app.linesWith('Infrastructure')[0]).toContain('6/6 online');
    expect(colourBefore(raw, 'online')).toBe(GREEN);
    // The job each bot is running, and the pane's summary.
    expect(app.linesWith('BuildBot')[0]).toMatch(/BuildBot\s+build site/);
    expect(app.frame()).toContain('1 busy · 1 failing');
  });

  it('applies bot-status messages at once', async () => {
    const app = renderApp();
    await app.connect();
    await app.shows('Fleet · 25');
    app.fake.emit({ type: 'bot-status', botName: 'DependencyBot', status: 'building', job: 'install site' });
    await waitFor(() => expect(app.linesWith('DependencyBot')[0]).toMatch(/DependencyBot\s+install site/));
    expect(app.linesWith('Infrastructure')[0]).toContain('pending');

    app.fake.emit({ type: 'bot-status', botName: 'DependencyBot', status: 'active', job: null });
    await waitFor(() => expect(app.linesWith('DependencyBot')[0]).toMatch(/DependencyBot\s+active/));
    expect(app.linesWith('Infrastructure')[0]).toContain('online');
  });

  it('reads the fleet again on every reconnect', async () => {
    const app = renderApp();
    await app.connect();
    await waitFor(() => expect(app.fake.requests.filter((r) => r === 'bots')).toHaveLength(1));
    app.fake.setStatus('disconnected');
    app.fake.setStatus('connected');
    await waitFor(() => expect(app.fake.requests.filter((r) => r === 'bots')).toHaveLength(2));
  });

  it('polls GET /api/bots and GET /api/workers every 5 s while connected', async () => {
    const app = renderApp();
    await app.connect();
    await waitFor(() => expect(app.fake.requests).toContain('bots'));
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      // The interval was armed with real timers; re-arm it under fake ones with a reconnect.
      app.fake.setStatus('disconnected');
      app.fake.setStatus('connected');
      await waitFor(() => expect(app.fake.requests.filter((r) => r === 'bots')).toHaveLength(2));
      await vi.advanceTimersByTimeAsync(5_000);
      await waitFor(() => expect(app.fake.requests.filter((r) => r === 'bots')).toHaveLength(3));
      await vi.advanceTimersByTimeAsync(5_000);
      await waitFor(() => expect(app.fake.requests.filter((r) => r === 'bots')).toHaveLength(4));
      // The workers with them: their last-seen times move on without a /ws message.
      await waitFor(() => expect(app.fake.requests.filter((r) => r === 'workers')).toHaveLength(4));
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows why the fleet could not be read', async () => {
    const fake = createFakeClient({
      routes: {
        bots: () => {
          throw new Error('500: database is locked');
        },
      },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('500: database is locked');
  });
});

/**
 * The inside of the fleet pane in each line of a frame, trimmed: the pane is the first 36 columns
 * of a 100-column terminal, the first 52 of a 160-column one.
 */
const fleetColumn = (frame: string, paneWidth = 36) =>
  frame.split('\n').map((line) => line.slice(2, paneWidth - 2).trimEnd());

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('fleet pane: workers', () => {
  it('lists the workers after the bots: name, jobs of concurrency, status in its colour, last seen, host', async () => {
    const fake = createFakeClient({
      routes: {
        workers: () => ({
          queue: 'bullmq',
          queueUrl: 'redis://10.0.0.5:6379',
          workers: [
            fakeWorker('mac-1', { status: 'lost', lastSeen: ago(125_000), host: 'studio' }),
            fakeWorker('ci-2', { running: ['b8-beef02'], concurrency: 4, host: 'ci2.lan' }),
          ],
        }),
      },
    });
    const app = renderApp({ fake, size: { columns: 160, rows: 45 } });
    await app.connect();
    await app.shows('mac-1');
    const column = fleetColumn(app.frame(), 52);
    // After the last bot; online first, the columns lined up.
    const heading = column.findIndex((line) => line.includes('Workers'));
    expect(heading).toBeGreaterThan(column.findIndex((line) => line.includes('LogBot')));
    expect(column[heading]).toBe('● Workers 1/2 online bullmq');
    expect(column[heading + 1]).toMatch(/^ {2}● ci-2 {2}1\/4 online (now|\ds ago) +ci2\.lan$/);
    expect(column[heading + 2]).toBe('  ● mac-1 0/2 lost   2m ago studio');
    const raw = app.rawFrame();
    expect(colourBefore(raw, 'online', 'ci-2')).toBe(GREEN);
    expect(colourBefore(raw, '●', 'ci-2')).toBe(GREEN);
    expect(colourBefore(raw, 'lost', 'mac-1')).toBe(RED);
    expect(colourBefore(raw, '●', 'mac-1')).toBe(RED);
    // One lost: the heading's dot says so.
    expect(colourBefore(raw, '●', 'Workers')).toBe(RED);
  });

  it('applies a workers message at once: a worker joins, takes a build, goes quiet', async () => {
    const fake = createFakeClient({
      routes: { workers: () => ({ queue: 'bullmq', queueUrl: 'redis://10.0.0.5:6379', workers: [] }) },
    });
    const app = renderApp({ fake });
    await app.connect();
    // None yet: how to start one, wrapped to the pane whole rather than cut.
    await app.shows('no workers yet');
    const hint = fleetColumn(app.frame())
      .filter((line) => /^ {2}\S/.test(line) && !line.includes('●'))
      .map((line) => line.trim())
      .join(' ');
    expect(hint).toBe(
      'no workers yet: forge worker --queue redis://10.0.0.5:6379 --url http://127.0.0.1:4317',
    );

    fake.emit({ type: 'workers', queue: 'bullmq', workers: [fakeWorker('ci-2')] });
    await waitFor(() => expect(app.linesWith('ci-2')[0]).toMatch(/● ci-2 0\/2 online/));
    expect(app.frame()).not.toContain('no workers yet');
    expect(app.linesWith('Workers')[0]).toContain('1/1 online bullmq');

    fake.emit({
      type: 'workers',
      queue: 'bullmq',
      workers: [fakeWorker('ci-2', { running: ['b9-000001'] })],
    });
    await waitFor(() => expect(app.linesWith('ci-2')[0]).toMatch(/● ci-2 1\/2 online/));

    const quiet: WorkerInfo = fakeWorker('ci-2', { status: 'lost', lastSeen: ago(20_000) });
    fake.emit({ type: 'workers', queue: 'bullmq', workers: [quiet] });
    await waitFor(() => expect(app.linesWith('ci-2')[0]).toMatch(/● ci-2 0\/2 lost +2\ds ago/));
    expect(colourBefore(app.rawFrame(), 'lost', 'ci-2')).toBe(RED);
    expect(app.linesWith('Workers')[0]).toContain('0/1 online');
  });

  it('says builds run in the daemon when its queue is in-process and no worker is known', async () => {
    const app = renderApp({ size: { columns: 160, rows: 45 } });
    await app.connect();
    await app.shows('builds run in this daemon (in-process queue)');
    expect(app.linesWith('in-process queue')[0]).toMatch(
      /│ builds run in this daemon \(in-process queue\) +│/,
    );
    expect(app.frame()).not.toContain('Workers');
    expect(app.fake.requests).toContain('workers');
  });

  it('shows nothing of workers for a daemon without the route, and asks again only after a reconnect', async () => {
    const fake = createFakeClient({
      routes: {
        workers: () => {
          throw new ForgeHttpError(
            404,
            'Not Found',
            JSON.stringify({ error: 'No such API route.', code: 'NOT_FOUND' }),
          );
        },
      },
    });
    const count = (name: 'bots' | 'workers') => fake.requests.filter((r) => r === name).length;
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('Fleet · 25');
    await waitFor(() => expect(count('workers')).toBe(1));
    expect(app.frame()).not.toMatch(/Workers|in-process|No such API route/);

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      // A reconnect (the interval re-armed under fake timers) asks again: the daemon may be new.
      fake.setStatus('disconnected');
      fake.setStatus('connected');
      await waitFor(() => expect(count('workers')).toBe(2));
      // The 5 s poll reads the bots, not the route this daemon does not have.
      await vi.advanceTimersByTimeAsync(5_000);
      await waitFor(() => expect(count('bots')).toBe(3));
      expect(count('workers')).toBe(2);
    } finally {
      vi.useRealTimers();
    }
    expect(app.frame()).not.toMatch(/Workers|in-process|No such API route/);
  });

  it('says why the workers could not be read, keeping the last known ones', async () => {
    const fake = createFakeClient({
      routes: { workers: () => ({ queue: 'bullmq', queueUrl: null, workers: [fakeWorker('ci-2')] }) },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('ci-2');
    fake.answer('workers', () => {
      throw new Error('500: redis is down');
    });
    fake.setStatus('disconnected');
    fake.setStatus('connected');
    await app.shows('500: redis is down');
    expect(colourBefore(app.rawFrame(), '500: redis is down')).toBe(RED);
    expect(app.frame()).toContain('ci-2');
    // The bots were read fine: their own error line stays away.
    expect(app.linesWith('redis is down')).toHaveLength(1);
  });
});

describe('fleetRows', () => {
  const bots = fakeBots({
    BuildBot: { status: 'building', currentJob: 'build site' },
    ScanBot: { status: 'error' },
  });

  it('lists every bot on its own line when 4 categories and 25 bots fit', () => {
    const { rows, mode } = fleetRows(bots, 29, 40);
    expect(mode).toBe('full');
    expect(rows).toHaveLength(29);
  });

  it('packs the names several to a line when they do not, keeping every bot', () => {
    const { rows, mode } = fleetRows(bots, 20, 40);
    expect(mode).toBe('dense');
    expect(rows.length).toBeLessThanOrEqual(20);
    const packed = rows.flatMap((r) => (r.kind === 'pack' ? r.bots.map((b) => b.name) : []));
    expect(packed).toHaveLength(25);
    // Each packed line fits the width: "● Name " tokens after a 2-column indent.
    for (const row of rows) {
      if (row.kind === 'pack')
        expect(2 + row.bots.reduce((n, b) => n + b.name.length + 3, 0) - 1).toBeLessThanOrEqual(40);
    }
  });

  const view = (workers: WorkerInfo[]): WorkersView => ({
    queue: 'bullmq',
    queueUrl: 'redis://10.0.0.5:6379',
    daemonUrl: 'http://127.0.0.1:4317',
    list: workers,
    error: null,
  });

  it('keeps every worker after the bots in each mode: the bots give way first', () => {
    const workers = view([fakeWorker('ci-1'), fakeWorker('ci-2'), fakeWorker('ci-3')]);
    const names = (rows: ReturnType<typeof fleetRows>['rows']) =>
      rows.flatMap((r) => (r.kind === 'worker' ? [r.worker.name] : r.kind === 'workers' ? ['Workers'] : []));
    // 29 bot rows fit 33 but not with the 4 worker rows beside them.
    const full = fleetRows(bots, 33, 40, workers);
    expect(full.mode).toBe('full');
    const dense = fleetRows(bots, 32, 40, workers);
    expect(dense.mode).toBe('dense');
    expect(dense.rows.length).toBeLessThanOrEqual(32);
    const busy = fleetRows(bots, 10, 30, workers);
    expect(busy.mode).toBe('busy');
    for (const { rows } of [full, dense, busy]) {
      expect(names(rows)).toEqual(['Workers', 'ci-1', 'ci-2', 'ci-3']);
      expect(rows.at(-1)).toMatchObject({ kind: 'worker', worker: { name: 'ci-3' } });
    }
  });

  it('wraps the way to start a worker to the width, between words', () => {
    const { rows } = fleetRows(bots, 40, 32, view([]));
    const notes = rows.flatMap((r) => (r.kind === 'note' ? [r.text] : []));
    expect(notes).toEqual([
      'no workers yet: forge worker',
      '--queue redis://10.0.0.5:6379',
      '--url http://127.0.0.1:4317',
    ]);
    for (const text of notes) expect(2 + text.length).toBeLessThanOrEqual(32);
  });

  it('keeps only the categories and the busy or failing bots when even that does not fit', () => {
    const { rows, mode } = fleetRows(bots, 8, 30);
    expect(mode).toBe('busy');
    expect(
      rows.map((r) => (r.kind === 'group' ? r.group.label : r.kind === 'bot' ? r.bot.name : '?')),
    ).toEqual(['Infrastructure', 'Development', 'BuildBot', 'Operations', 'ScanBot', 'Services']);
  });
});
