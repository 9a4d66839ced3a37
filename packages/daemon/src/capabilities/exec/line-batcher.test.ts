import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LineBatcher } from './line-batcher.ts';

describe('LineBatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('flushes what arrived within one interval as one batch', () => {
    const batches: number[][] = [];
    const batcher = new LineBatcher<number>((batch) => batches.push(batch), { intervalMs: 50 });
    batcher.push(1);
    vi.advanceTimersByTime(30);
    batcher.push(2);
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(20);
    expect(batches).toEqual([[1, 2]]);
    batcher.push(3);
    vi.advanceTimersByTime(49);
    expect(batches).toEqual([[1, 2]]);
    vi.advanceTimersByTime(1);
    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('flushes at once when a batch is full, without waiting for the timer', () => {
    const batches: number[][] = [];
    const batcher = new LineBatcher<number>((batch) => batches.push(batch), { intervalMs: 50, maxItems: 3 });
    for (let i = 1; i <= 7; i++) batcher.push(i);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(batcher.pending).toBe(1);
    vi.advanceTimersByTime(50);
    expect(batches.at(-1)).toEqual([7]);
  });

  it('uses the defaults of ~50 ms and 200 lines', () => {
    const sizes: number[] = [];
    const batcher = new LineBatcher<string>((batch) => sizes.push(batch.length));
    for (let i = 0; i < 450; i++) batcher.push(`line ${i}`);
    expect(sizes).toEqual([200, 200]);
    vi.advanceTimersByTime(50);
    expect(sizes).toEqual([200, 200, 50]);
  });

  it('runs no timer while idle and flushes the rest on close', () => {
    const batches: string[][] = [];
    const batcher = new LineBatcher<string>((batch) => batches.push(batch));
    expect(vi.getTimerCount()).toBe(0);
    batcher.push('a');
    expect(vi.getTimerCount()).toBe(1);
    batcher.close();
    expect(batches).toEqual([['a']]);
    expect(vi.getTimerCount()).toBe(0);
    expect(() => batcher.push('b')).toThrow(/after close/);
  });
});
