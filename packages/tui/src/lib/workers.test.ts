import { describe, expect, it } from 'vitest';
import { buildWorkerText, formatAgo, noWorkersHint, wrapWords } from './workers.ts';

describe('formatAgo', () => {
  const now = Date.parse('2026-01-02T03:04:05.000Z');
  const before = (ms: number) => new Date(now - ms).toISOString();

  it('says how long ago in the largest whole unit', () => {
    expect(formatAgo(before(400), now)).toBe('now');
    expect(formatAgo(before(12_900), now)).toBe('12s ago');
    expect(formatAgo(before(3 * 60_000 + 59_000), now)).toBe('3m ago');
    expect(formatAgo(before(2 * 3_600_000), now)).toBe('2h ago');
    expect(formatAgo(before(4 * 86_400_000), now)).toBe('4d ago');
  });

  it('counts a time ahead of this clock (another machine) as now, and an unreadable one as unknown', () => {
    expect(formatAgo(before(-5_000), now)).toBe('now');
    expect(formatAgo('never', now)).toBe('?');
  });
});

describe('buildWorkerText', () => {
  it('names where a build ran, "—" while queued, nothing when a record does not say', () => {
    expect(buildWorkerText({ worker: 'ci-2', status: 'running' })).toBe('ci-2');
    expect(buildWorkerText({ worker: 'local', status: 'succeeded' })).toBe('local');
    expect(buildWorkerText({ worker: null, status: 'queued' })).toBe('—');
    // A record from before scale-out: not queued, just unknown.
    expect(buildWorkerText({ worker: null, status: 'succeeded' })).toBeNull();
  });
});

describe('wrapWords', () => {
  it('breaks between words, and cuts a word longer than a line across lines', () => {
    expect(wrapWords('no workers yet: forge worker --queue redis://h:6379', 16)).toEqual([
      'no workers yet:',
      'forge worker',
      '--queue',
      'redis://h:6379',
    ]);
    expect(wrapWords('--url http://127.0.0.1:4317', 10)).toEqual(['--url', 'http://127', '.0.0.1:431', '7']);
  });
});

describe('noWorkersHint', () => {
  it('fills in the queue it knows, else says what goes there', () => {
    const daemonUrl = 'http://10.0.0.2:4317';
    expect(noWorkersHint({ queueUrl: 'redis://10.0.0.5:6379', daemonUrl })).toBe(
      'no workers yet: forge worker --queue redis://10.0.0.5:6379 --url http://10.0.0.2:4317',
    );
    expect(noWorkersHint({ queueUrl: null, daemonUrl })).toContain('--queue <redis-url> --url');
  });
});
