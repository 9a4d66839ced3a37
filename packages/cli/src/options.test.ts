import { describe, expect, it } from 'vitest';
import { WorkerName } from '@forge/shared';
import { formatTimeout, parseDuration, parseWorkerName } from './options.ts';

describe('parseDuration (--timeout)', () => {
  it('reads whole numbers with units, largest first', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('2m5s')).toBe(125_000);
    expect(parseDuration('1500ms')).toBe(1_500);
    expect(parseDuration('24h')).toBe(86_400_000);
  });

  it('reads what a forge config reads: a decimal, spaces between parts', () => {
    expect(parseDuration('1.5m')).toBe(90_000);
    expect(parseDuration('1h 30m')).toBe(5_400_000);
  });

  it.each(['', '90', '0s', '5x', 's', 'm5', '30s1m', '1m1m', '-5s', '25h', '10M'])('refuses %j', (text) => {
    expect(() => parseDuration(text)).toThrow(/expected a duration/);
  });
});

describe('formatTimeout', () => {
  it('writes the duration back compactly', () => {
    expect(formatTimeout(90_000)).toBe('1m30s');
    expect(formatTimeout(3_600_000)).toBe('1h');
    expect(formatTimeout(1_500)).toBe('1s500ms');
  });
});

describe('parseWorkerName (forge worker --name)', () => {
  it.each(['ci-2', 'a', 'Box_1.local', 'x'.repeat(64)])('takes %j, as the coordinator does', (name) => {
    expect(WorkerName.safeParse(name).success).toBe(true);
    expect(parseWorkerName(name)).toBe(name);
  });

  it.each(['', '-ci', '.hidden', 'a b', 'ci/2', 'ümlaut', 'x'.repeat(65)])(
    'refuses %j, as the coordinator does',
    (name) => {
      expect(WorkerName.safeParse(name).success).toBe(false);
      expect(() => parseWorkerName(name)).toThrow(/^a worker name must /);
    },
  );

  it('says what a name may hold', () => {
    expect(() => parseWorkerName('a b')).toThrow(
      'a worker name must be letters, digits, dots, dashes or underscores, e.g. "ci-2".',
    );
    expect(() => parseWorkerName('x'.repeat(65))).toThrow('a worker name must be at most 64 characters.');
  });
});
