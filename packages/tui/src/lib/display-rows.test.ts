import { describe, expect, it } from 'vitest';
import { createClientStore } from '@forge/shared';
import { logEntry } from '@forge/testing';
import { consoleRows, outputRows } from './display-rows.ts';

function storeWithBuild() {
  const store = createClientStore();
  store.receive({
    type: 'build-stage',
    buildId: 'b1',
    projectName: 'site',
    status: 'running',
    stage: 'build-start',
  });
  return store;
}

describe('outputRows', () => {
  it('gives each line of a frame its own row, safe to draw, with a stable key', () => {
    const store = storeWithBuild();
    store.receive({
      type: 'build-output',
      buildId: 'b1',
      botName: 'BuildBot',
      seq: 1,
      output: '\u001B[32m✓ built\u001B[39m in 1s\n10%\r50%\r100% done\n',
    });
    store.receive({ type: 'build-error', buildId: 'b1', seq: 3, output: 'a\tb' });
    const lines = store.getState().builds.b1!.log.lines;
    expect(outputRows(lines)).toEqual([
      { key: 's1:0', level: 'info', text: '✓ built in 1s' },
      { key: 's2:0', level: 'info', text: '100% done' },
      { key: 's3:0', level: 'warn', text: 'a  b' },
    ]);
  });

  it('splits a stored entry holding several lines, and reuses the rows of an unchanged log', () => {
    const store = storeWithBuild();
    store.dispatch({ type: 'log-page', buildId: 'b1', entries: [logEntry(1, 'Error: boom\n    at x.js:1')] });
    const lines = store.getState().builds.b1!.log.lines;
    const rows = outputRows(lines);
    expect(rows.map((r) => [r.key, r.text])).toEqual([
      ['s1:0', 'Error: boom'],
      ['s1:1', '    at x.js:1'],
    ]);
    expect(outputRows(lines)).toBe(rows);
  });
});

describe('consoleRows', () => {
  it('keeps the bot, time and level of each console line', () => {
    const store = createClientStore();
    store.receive({
      type: 'log',
      botName: 'Test\u001B[2KBot',
      level: 'error',
      message: 'two\nlines',
      timestamp: '2026-01-02T03:04:05.000Z',
    });
    expect(consoleRows(store.getState().console)).toEqual([
      {
        key: 'log-1:0',
        level: 'error',
        botName: 'TestBot',
        timestamp: '2026-01-02T03:04:05.000Z',
        text: 'two',
      },
      {
        key: 'log-1:1',
        level: 'error',
        botName: 'TestBot',
        timestamp: '2026-01-02T03:04:05.000Z',
        text: 'lines',
      },
    ]);
  });
});
