import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { createFakeClient, fakeBots } from '../testing/fake-client.ts';
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

  it('polls GET /api/bots every 5 s while connected', async () => {
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

  it('keeps only the categories and the busy or failing bots when even that does not fit', () => {
    const { rows, mode } = fleetRows(bots, 8, 30);
    expect(mode).toBe('busy');
    expect(
      rows.map((r) => (r.kind === 'group' ? r.group.label : r.kind === 'bot' ? r.bot.name : '?')),
    ).toEqual(['Infrastructure', 'Development', 'BuildBot', 'Operations', 'ScanBot', 'Services']);
  });
});
