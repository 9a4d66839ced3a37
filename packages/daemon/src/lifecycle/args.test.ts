import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError, workerNameFromHost } from './args.ts';

describe('the worker command', () => {
  it('takes the queue, the coordinator, a name and a concurrency', () => {
    expect(
      parseCommand([
        'worker',
        '--queue',
        'redis://r:6379',
        '--url',
        'http://c:4317',
        '--name',
        'ci-2',
        '--concurrency',
        '3',
      ]),
    ).toEqual({
      name: 'worker',
      queue: 'redis://r:6379',
      url: 'http://c:4317',
      workerName: 'ci-2',
      concurrency: 3,
    });
    expect(parseCommand(['worker', '--url', 'http://c:4317'])).toMatchObject({
      concurrency: 1,
      queue: undefined,
    });
  });

  it('refuses a bad concurrency or name as a usage error', () => {
    expect(() => parseCommand(['worker', '--concurrency', '0'])).toThrow(UsageError);
    expect(() => parseCommand(['worker', '--concurrency', 'two'])).toThrow(/--concurrency "two"/);
    expect(() => parseCommand(['worker', '--name', '../x'])).toThrow(/--name/);
    expect(() => parseCommand(['worker', '--bogus'])).toThrow(UsageError);
  });

  it('names a worker after its host when not told', () => {
    expect(workerNameFromHost('build box.local')).toBe('build-box.local');
    expect(workerNameFromHost('---')).toBe('worker');
  });
});
