import { describe, expect, it } from 'vitest';
import { createSlots } from './slots.ts';

describe('createSlots', () => {
  it('grants up to capacity at once and the rest in the order they asked', async () => {
    const slots = createSlots(() => 2);
    const a = await slots.acquire();
    const b = await slots.acquire();
    expect(slots.busy).toBe(true);
    const order: string[] = [];
    const c = slots.acquire().then((release) => (order.push('c'), release));
    const d = slots.acquire().then((release) => (order.push('d'), release));
    expect([slots.running, slots.waiting]).toEqual([2, 2]);
    a();
    a(); // giving a slot back twice frees one slot only
    const releaseC = await c;
    expect(order).toEqual(['c']);
    expect([slots.running, slots.waiting]).toEqual([2, 1]);
    b();
    const releaseD = await d;
    expect(order).toEqual(['c', 'd']);
    releaseC();
    releaseD();
    expect([slots.running, slots.waiting, slots.busy]).toEqual([0, 0, false]);
  });

  it('reads the capacity again at every change: raised, it lets the waiting in; lowered, it holds them', async () => {
    let capacity = 1;
    const slots = createSlots(() => capacity);
    const first = await slots.acquire();
    const second = slots.acquire();
    expect(slots.waiting).toBe(1);
    capacity = 2;
    const third = slots.acquire(); // asking reads the new capacity
    const releaseSecond = await second;
    expect([slots.running, slots.waiting]).toEqual([2, 1]);
    capacity = 1;
    first(); // giving back reads it too: one holder is already the capacity
    await new Promise((resolve) => setImmediate(resolve));
    expect([slots.running, slots.waiting]).toEqual([1, 1]);
    releaseSecond();
    (await third)();
    expect([slots.running, slots.waiting]).toEqual([0, 0]);
  });

  it('rejects with the reason when aborted while waiting, and the next in line moves up', async () => {
    const slots = createSlots(() => 1);
    const held = await slots.acquire();
    const controller = new AbortController();
    const aborted = slots.acquire(controller.signal);
    const after = slots.acquire();
    controller.abort(new Error('cancelled by the user'));
    await expect(aborted).rejects.toThrow('cancelled by the user');
    expect(slots.waiting).toBe(1);
    held();
    const release = await after;
    expect(slots.running).toBe(1);
    release();
  });

  it('refuses at once when the signal is already aborted', async () => {
    const slots = createSlots(() => 1);
    await expect(slots.acquire(AbortSignal.abort(new Error('too late')))).rejects.toThrow('too late');
    expect([slots.running, slots.waiting]).toEqual([0, 0]);
  });

  it('keeps a granted slot when the holder is cancelled: it is free only when given back', async () => {
    const slots = createSlots(() => 1);
    const controller = new AbortController();
    const release = await slots.acquire(controller.signal);
    controller.abort(new Error('cancel'));
    const next = slots.acquire();
    let granted = false;
    void next.then(() => (granted = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(granted).toBe(false);
    expect(slots.running).toBe(1);
    release();
    (await next)();
    expect(granted).toBe(true);
  });

  it('grants thousands of waiters in order, skipping those aborted, never above capacity', async () => {
    const slots = createSlots(() => 3);
    const granted: number[] = [];
    let peak = 0;
    const controllers = Array.from({ length: 2_000 }, () => new AbortController());
    const holders = controllers.map(async (controller, i) => {
      try {
        const release = await slots.acquire(controller.signal);
        granted.push(i);
        peak = Math.max(peak, slots.running);
        await Promise.resolve();
        release();
      } catch {
        // aborted while waiting
      }
    });
    // Every third waiter gives up while it waits.
    for (let i = 10; i < controllers.length; i += 3) controllers[i]!.abort(new Error('gave up'));
    await Promise.all(holders);
    const expected = controllers.map((_, i) => i).filter((i) => i < 10 || (i - 10) % 3 !== 0);
    expect(granted).toEqual(expected);
    expect(peak).toBe(3);
    expect([slots.running, slots.waiting, slots.busy]).toEqual([0, 0, false]);
  });
});
