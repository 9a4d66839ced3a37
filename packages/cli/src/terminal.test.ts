import { describe, expect, it } from 'vitest';
import { formatTable } from './table.ts';
import { detectTerminal, paint, sanitize } from './terminal.ts';

describe('detectTerminal', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };
  const none = { stdoutColor: false, stderrColor: false, stderrLive: false };

  it('colours and redraws only when stdout and the stream are terminals', () => {
    expect(detectTerminal({ stdout: tty, stderr: tty, env: {} })).toEqual({
      stdoutColor: true,
      stderrColor: true,
      stderrLive: true,
    });
    expect(detectTerminal({ stdout: tty, stderr: pipe, env: {} })).toEqual({
      stdoutColor: true,
      stderrColor: false,
      stderrLive: false,
    });
    // stdout captured (a pipeline, `| jq`, a CI log): plain everywhere, stderr included.
    expect(detectTerminal({ stdout: pipe, stderr: tty, env: {} })).toEqual(none);
    expect(detectTerminal({ stdout: pipe, stderr: pipe, env: {} })).toEqual(none);
  });

  it('NO_COLOR, TERM=dumb and --no-color turn every escape code off, the progress line too', () => {
    expect(detectTerminal({ stdout: tty, stderr: tty, env: { NO_COLOR: '1' } })).toEqual(none);
    expect(detectTerminal({ stdout: tty, stderr: tty, env: { TERM: 'dumb' } })).toEqual(none);
    expect(detectTerminal({ stdout: tty, stderr: tty, env: {}, color: false })).toEqual(none);
    // An empty NO_COLOR does not count (no-color.org).
    expect(detectTerminal({ stdout: tty, stderr: tty, env: { NO_COLOR: '' } }).stdoutColor).toBe(true);
  });
});

describe('sanitize', () => {
  it('removes escape sequences and turns other control characters into spaces, keeping tabs', () => {
    expect(sanitize('a\u001b[1;31mb\u001b[0m')).toBe('ab');
    expect(sanitize('\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\')).toBe('link');
    expect(sanitize('a\rb\u0000c\td\u009bz')).toBe('a b c\td z');
  });
});

describe('formatTable', () => {
  it('pads every column but the last, and colours after padding', () => {
    const rows = [
      ['a', { text: 'ok', tone: 'good' as const }, 'x'],
      ['long', 'failed', ''],
    ];
    expect(formatTable(['K', 'STATUS', 'NOTE'], rows, paint(false))).toEqual([
      'K     STATUS  NOTE',
      'a     ok      x',
      'long  failed',
    ]);
    expect(formatTable(['K', 'STATUS', 'NOTE'], rows, paint(true))[1]).toBe(
      'a     \u001b[32mok    \u001b[39m  x',
    );
  });
});
