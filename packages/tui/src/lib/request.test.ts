import { describe, expect, it, vi } from 'vitest';
import { ForgeHttpError, ForgeUnreachableError } from '@forge/shared';
import { createRefresher } from './refresher.ts';
import { describeError, RequestTimeoutError, withTimeout } from './request.ts';

describe('withTimeout', () => {
  it('answers with the promise when it settles in time', async () => {
    await expect(withTimeout(Promise.resolve(7), 1_000)).resolves.toBe(7);
    await expect(withTimeout(Promise.reject(new Error('no')), 1_000)).rejects.toThrow('no');
  });

  it('gives up on a promise that never settles', async () => {
    await expect(withTimeout(new Promise(() => {}), 20)).rejects.toBeInstanceOf(RequestTimeoutError);
  });
});

describe('describeError', () => {
  it("uses the daemon's message and hint", () => {
    const body = JSON.stringify({
      error: 'There is no project named "x".',
      code: 'PROJECT_NOT_FOUND',
      hint: 'Upload it first',
    });
    expect(describeError(new ForgeHttpError(404, 'Not Found', body))).toBe(
      'There is no project named "x" — Upload it first',
    );
  });

  it('says when the daemon is unreachable or too slow', () => {
    expect(
      describeError(new ForgeUnreachableError('http://127.0.0.1:1', new TypeError('fetch failed'))),
    ).toBe('Cannot reach the Forge daemon at http://127.0.0.1:1');
    const timeout = new DOMException('timed out', 'TimeoutError');
    expect(describeError(new ForgeUnreachableError('http://h', timeout))).toBe(
      'The daemon did not answer in time.',
    );
    expect(describeError(new RequestTimeoutError(10_000))).toBe('The daemon did not answer within 10 s.');
  });
});

describe('createRefresher', () => {
  it('folds triggers that arrive during a run into one more run', async () => {
    let release!: () => void;
    const runs: number[] = [];
    const task = vi.fn(async () => {
      runs.push(runs.length);
      if (runs.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const refresher = createRefresher(task);
    refresher.trigger();
    refresher.trigger();
    refresher.trigger();
    expect(task).toHaveBeenCalledTimes(1);
    release();
    await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(2));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(task).toHaveBeenCalledTimes(2);
  });

  it('keeps going after a failed run and stops once disposed', async () => {
    const task = vi.fn(async () => {
      throw new Error('daemon down');
    });
    const refresher = createRefresher(task);
    refresher.trigger();
    await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(1));
    refresher.trigger();
    await vi.waitFor(() => expect(task).toHaveBeenCalledTimes(2));
    refresher.dispose();
    refresher.trigger();
    expect(task).toHaveBeenCalledTimes(2);
  });
});
