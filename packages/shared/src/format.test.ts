import { describe, expect, it } from 'vitest';
import { formatDuration, formatSessionTime, logExportFileName } from './format.ts';

describe('formatSessionTime (m:ss, docs/product.md#constants)', () => {
  it('pads seconds and does not pad minutes', () => {
    expect(formatSessionTime(0)).toBe('0:00');
    expect(formatSessionTime(5_000)).toBe('0:05');
    expect(formatSessionTime(65_000)).toBe('1:05');
    expect(formatSessionTime(125_999)).toBe('2:05');
    expect(formatSessionTime(60 * 60_000)).toBe('60:00');
  });
  it('clamps negative and non-finite values to 0:00', () => {
    expect(formatSessionTime(-3000)).toBe('0:00');
    expect(formatSessionTime(Number.POSITIVE_INFINITY)).toBe('0:00');
  });
});

describe('formatDuration', () => {
  it('picks a unit a person reads at a glance', () => {
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(12_340)).toBe('12.3s');
    expect(formatDuration(125_000)).toBe('2m05s');
  });
});

describe('logExportFileName', () => {
  it('is a .txt named with the date (docs/product.md#fixit-console)', () => {
    expect(logExportFileName(new Date('2026-11-22T21:00:00Z'))).toBe('forge-logs-2026-11-22.txt');
  });
});
