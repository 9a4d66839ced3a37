import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followFile, formatLogLine, readLastLines } from './logs.ts';

describe('formatLogLine', () => {
  it('shows a pino line as HH:MM:SS LEVEL msg in local time', () => {
    const time = new Date(2026, 0, 2, 3, 4, 5).getTime();
    expect(formatLogLine(JSON.stringify({ level: 30, time, msg: 'Forge daemon listening' }))).toBe(
      '03:04:05 INFO  Forge daemon listening',
    );
    expect(
      formatLogLine(JSON.stringify({ level: 50, time, msg: 'request failed', err: { message: 'boom' } })),
    ).toBe('03:04:05 ERROR request failed: boom');
  });

  it('shows lines that are not pino JSON unchanged', () => {
    expect(formatLogLine('plain text from a crash')).toBe('plain text from a crash');
    expect(formatLogLine('42')).toBe('42');
  });
});

describe('readLastLines / followFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'forge-logs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('returns the last n lines, also across the backwards read chunks, and the end offset', () => {
    const file = join(dir, 'big.log');
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const { lines: last, end } = readLastLines(file, 3000);
    expect(last).toEqual(lines.slice(-3000));
    expect(end).toBe(Buffer.byteLength(`${lines.join('\n')}\n`));
    expect(readLastLines(file, 0).lines).toEqual([]);
  });

  it('leaves a last line still being written to the follower', () => {
    const file = join(dir, 'partial.log');
    writeFileSync(file, 'one\ntwo\nthr');
    expect(readLastLines(file, 5)).toEqual({ lines: ['one', 'two'], end: 8 });
    expect(readLastLines(file, 0)).toEqual({ lines: [], end: 8 });
  });

  it('treats a missing file as empty', () => {
    expect(readLastLines(join(dir, 'nope.log'), 10)).toEqual({ lines: [], end: 0 });
  });

  it('follows appended lines, joining a line written in two parts, until aborted', async () => {
    const file = join(dir, 'daemon.log');
    writeFileSync(file, 'old\n');
    const seen: string[] = [];
    const waiters: Array<{ count: number; resolve: () => void }> = [];
    const seenCount = (count: number) =>
      new Promise<void>((resolve) => (seen.length >= count ? resolve() : waiters.push({ count, resolve })));
    const stop = new AbortController();
    const done = followFile(
      file,
      4,
      (line) => {
        seen.push(line);
        for (const w of waiters) if (seen.length >= w.count) w.resolve();
      },
      stop.signal,
    );
    appendFileSync(file, 'first\nsec');
    await seenCount(1); // 'sec' has been read by now, without its end
    appendFileSync(file, 'ond\n');
    await seenCount(2);
    stop.abort();
    await done;
    expect(seen).toEqual(['first', 'second']);
  });
});
