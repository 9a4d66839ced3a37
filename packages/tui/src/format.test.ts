import { describe, expect, it } from 'vitest';
import { formatBytes, formatClock, sanitizeLine, splitOutput } from './format.ts';

describe('sanitizeLine', () => {
  it('drops colour codes, cursor moves and control characters that would tear the frame', () => {
    expect(sanitizeLine('\u001B[32m✓ built\u001B[39m in 1s')).toBe('✓ built in 1s');
    expect(sanitizeLine('a\u0007b\u0000c\u001B[2Kd')).toBe('abcd');
  });

  it('keeps what a terminal would show after carriage returns (progress bars)', () => {
    expect(sanitizeLine('10%\r50%\r100% done')).toBe('100% done');
    expect(sanitizeLine('done\r')).toBe('done');
  });

  it('turns tabs into spaces', () => {
    expect(sanitizeLine('a\tb')).toBe('a  b');
  });
});

describe('splitOutput', () => {
  it('splits a frame into lines without a trailing empty one', () => {
    expect(splitOutput('one\r\ntwo\n')).toEqual(['one', 'two']);
    expect(splitOutput('')).toEqual(['']);
  });
});

describe('formatClock', () => {
  it('formats local time and marks a missing or bad timestamp', () => {
    const at = new Date(2024, 0, 2, 3, 4, 5).toISOString();
    expect(formatClock(at)).toBe('03:04:05');
    expect(formatClock(undefined)).toBe('--:--:--');
    expect(formatClock('nope')).toBe('--:--:--');
  });
});

describe('formatBytes', () => {
  it.each([
    [512, '512 B'],
    [1536, '1.5 KB'],
    [50 * 1024 * 1024, '50.0 MB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
