import { describe, expect, it } from 'vitest';
import { writeDuration, parseDuration } from './duration.ts';

describe('parseDuration', () => {
  it.each<[string, number]>([
    ['500ms', 500],
    ['90s', 90_000],
    ['10m', 600_000],
    ['2.5m', 150_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1h 30m', 5_400_000],
    ['2m5s', 125_000],
    ['1s500ms', 1_500],
    ['24h', 86_400_000],
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    '',
    '90',
    '60000',
    '0s',
    'soon',
    '5 minutes',
    '-5m',
    's',
    'm5',
    '30s1m',
    '1m1m',
    '5x',
    '10M',
    '1.s',
  ])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe('writeDuration', () => {
  it('writes a duration back in the grammar it was read in', () => {
    expect(writeDuration(90_000)).toBe('1m30s');
    expect(writeDuration(3_600_000)).toBe('1h');
    expect(writeDuration(1_500)).toBe('1s500ms');
    for (const ms of [1, 999, 61_000, 5_400_000, 86_400_000])
      expect(parseDuration(writeDuration(ms))).toBe(ms);
  });
});
