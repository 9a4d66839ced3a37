import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { renderApp, waitFor } from '../testing/render-app.tsx';

// The active filter is told by its highlight: force colour codes on before Ink loads.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

// Each test drives a few dozen renders; under a loaded 2-core CI machine that takes seconds.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
});

const t = '2025-01-01T10:00:00.000Z';

/** The body lines of the logs pane (below its title). */
function logRows(frame: string): string[] {
  return frame.split('\n').filter((line) => /\d\d:\d\d:\d\d (INFO|ERROR|WARN|SUCCESS)/.test(line));
}

describe('logs pane', () => {
  it('shows log, build-output and build-error lines with their level, newest last', async () => {
    const app = renderApp();
    await app.connect();
    app.fake.emit({
      type: 'log',
      botName: 'ExtractBot',
      level: 'success',
      message: 'Extracted 3 files.',
      timestamp: t,
    });
    app.fake.emit({ type: 'build-output', output: 'vite v7 building\n', timestamp: t });
    app.fake.emit({ type: 'build-error', output: 'npm warn deprecated x', timestamp: t });
    app.fake.emit({
      type: 'log',
      botName: 'BuildBot',
      level: 'error',
      message: 'Build failed: exit 1',
      timestamp: t,
    });
    await app.shows('Build failed: exit 1');
    const rows = logRows(app.frame());
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/SUCCESS\s+ExtractBot\s+Extracted 3 files\./);
    expect(rows[1]).toMatch(/INFO\s+SYSTEM\s+vite v7 building/);
    expect(rows[2]).toMatch(/WARN\s+SYSTEM\s+npm warn deprecated x/);
    expect(rows[3]).toMatch(/ERROR\s+BuildBot\s+Build failed: exit 1/);
    expect(app.frame()).toMatch(/Logs 4/);
  });

  it('cycles the FixIt filters all → error → warn → success → info → all with f', async () => {
    const app = renderApp();
    await app.connect();
    for (const [level, message] of [
      ['error', 'an error'],
      ['warn', 'a warning'],
      ['success', 'a success'],
      ['info', 'some info'],
    ] as const) {
      app.fake.emit({ type: 'log', botName: 'TestBot', level, message, timestamp: t });
    }
    await app.shows('some info');
    expect(logRows(app.frame())).toHaveLength(4);

    const expectOnly = (filter: string, message: string) =>
      waitFor(() => {
        const rows = logRows(app.frame());
        expect(rows, filter).toHaveLength(1);
        expect(rows[0]).toContain(message);
        expect(app.frame()).toContain('Logs 1/4');
        // The active filter is highlighted (inverse) in the title's filter list.
        expect(app.rawFrame()).toContain(`\u001B[7m\u001B[36m ${filter} `);
      });
    app.press('f');
    await expectOnly('error', 'an error');
    app.press('f');
    await expectOnly('warn', 'a warning');
    app.press('f');
    await expectOnly('success', 'a success');
    app.press('f');
    await expectOnly('info', 'some info');
    app.press('f');
    await app.shows('Logs 4');
    expect(logRows(app.frame())).toHaveLength(4);
  });

  it('says when a filter hides everything', async () => {
    const app = renderApp();
    await app.connect();
    await app.shows('No log lines yet.');
    app.fake.emit({ type: 'log', botName: 'TestBot', level: 'info', message: 'fine', timestamp: t });
    await app.shows('fine');
    app.press('f');
    await app.shows('No error lines (f changes the filter).');
  });

  it('adds a line for each stage a build enters and for how it ended, in the level a user expects', async () => {
    const app = renderApp();
    await app.connect();
    app.fake.emit({
      type: 'build-stage',
      buildId: 'b1',
      projectName: 'site',
      status: 'running',
      stage: 'build-start',
      timestamp: t,
    });
    app.fake.emit({
      type: 'build-stage',
      buildId: 'b1',
      projectName: 'site',
      status: 'failed',
      stage: 'build-failed',
      timestamp: t,
    });
    app.fake.emit({
      type: 'build-finished',
      buildId: 'b1',
      projectName: 'site',
      status: 'failed',
      stage: 'build-failed',
      error: { code: 'BUILD_FAILED', message: 'exit 1' },
      endedAt: t,
    });
    await app.shows('site: build failed: exit 1');
    const rows = logRows(app.frame());
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/INFO\s+SYSTEM\s+site: Building/);
    expect(rows[1]).toMatch(/ERROR\s+SYSTEM\s+site: Build Failed/);
    expect(rows[2]).toMatch(/ERROR\s+SYSTEM\s+site: build failed: exit 1/);
  });

  it('gives each line of a multi-line message its own row', async () => {
    const app = renderApp();
    await app.connect();
    app.fake.emit({
      type: 'log',
      botName: 'BuildBot',
      level: 'error',
      message: 'Error: boom\n    at build.js:1',
      timestamp: t,
    });
    await app.shows('at build.js:1');
    const rows = logRows(app.frame());
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/ERROR\s+BuildBot\s+Error: boom/);
    expect(rows[1]).toMatch(/ERROR\s+BuildBot\s+at build\.js:1/);
    expect(app.frame()).toMatch(/Logs 2/);
  });

  it('strips escape codes from tool output so the frame stays intact', async () => {
    const app = renderApp();
    await app.connect();
    app.fake.emit({ type: 'build-output', output: '\u001B[2J\u001B[32mgreen\u001B[0m text', timestamp: t });
    await app.shows('green text');
    expect(app.rawFrame()).not.toContain('\u001B[2J');
  });
});
