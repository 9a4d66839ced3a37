import { describe, expect, it } from 'vitest';
import { formatUptime } from './format.ts';

describe('formatUptime', () => {
  it.each([
    [0, '0s'],
    [999, '0s'],
    [42_000, '42s'],
    [125_000, '2m 05s'],
    [3_725_000, '1h 02m 05s'],
    [90_000_000, '1d 01h 00m'],
    [-5, '0s'],
    [Number.NaN, '0s'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatUptime(ms)).toBe(text);
  });
});
