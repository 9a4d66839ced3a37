import { WorkersResponse, type WorkerInfo } from '@forge/shared';
import { describe, expect, it } from 'vitest';
import { paint } from '../terminal.ts';
import { formatAgo, formatQueueLine, formatWorkersTable } from './workers.ts';

const plain = paint(false);
const NOW = Date.parse('2025-03-01T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

const worker = (overrides: Partial<WorkerInfo>): WorkerInfo => ({
  name: 'ci-1',
  host: 'build-box-1',
  version: '1.0.0',
  concurrency: 2,
  running: [],
  jobsDone: 0,
  status: 'online',
  lastSeen: ago(2_000),
  since: ago(600_000),
  ...overrides,
});

describe('formatQueueLine', () => {
  it('names the queue, and its Redis (as the daemon shows it, password hidden)', () => {
    expect(formatQueueLine({ queue: 'in-process', queueUrl: null })).toBe(
      'queue: in-process (builds run in this daemon)',
    );
    expect(formatQueueLine({ queue: 'bullmq', queueUrl: 'redis://:***@10.0.0.2:6379' })).toBe(
      'queue: bullmq (redis://:***@10.0.0.2:6379)',
    );
  });
});

describe('formatWorkersTable', () => {
  it('one aligned row per worker: host, status, running of its concurrency, builds done, last seen', () => {
    const workers = [
      worker({ running: ['b3-x'], jobsDone: 14 }),
      worker({ name: 'gpu.box_2', host: 'gpu', concurrency: 8, status: 'lost', lastSeen: ago(5 * 60_000) }),
    ];
    expect(WorkersResponse.safeParse({ queue: 'bullmq', queueUrl: 'redis://r:6379', workers }).success).toBe(
      true,
    );
    const lines = formatWorkersTable(workers, plain, NOW);
    expect(lines).toEqual([
      'NAME       HOST         STATUS  RUNNING  DONE  LAST SEEN',
      'ci-1       build-box-1  online  1/2      14    2s ago',
      'gpu.box_2  gpu          lost    0/8      0     5m ago',
    ]);
  });

  it('colours online green and lost red, only when asked', () => {
    const coloured = formatWorkersTable([worker({}), worker({ status: 'lost' })], paint(true), NOW);
    expect(coloured[1]).toContain('\u001b[32monline');
    expect(coloured[2]).toContain('\u001b[31mlost');
    expect(formatWorkersTable([worker({})], plain, NOW).join('\n')).not.toContain('\u001b');
  });

  it('keeps escape codes a worker sends out of the terminal', () => {
    const [, row] = formatWorkersTable([worker({ host: 'evil\u001b]0;pwned\u0007box' })], plain, NOW);
    expect(row).toContain('evilbox');
    expect(row).not.toContain('\u001b');
  });

  it('is empty without workers', () => {
    expect(formatWorkersTable([], plain, NOW)).toEqual([]);
  });
});

describe('formatAgo', () => {
  it.each([
    [0, '0s ago'],
    [59_999, '59s ago'],
    [60_000, '1m ago'],
    [3_599_000, '59m ago'],
    [2 * 3_600_000, '2h ago'],
    [3 * 86_400_000, '3d ago'],
    // A worker's clock slightly ahead of ours.
    [-1_500, '0s ago'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatAgo(ago(ms), NOW)).toBe(text);
  });

  it('an unreadable time is a dash', () => {
    expect(formatAgo('yesterday', NOW)).toBe('-');
  });
});
