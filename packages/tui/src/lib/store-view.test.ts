import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClientStore, type ServerMessage } from '@forge/shared';
import { batchedView } from './store-view.ts';

const log = (message: string): ServerMessage => ({
  type: 'log',
  botName: 'BuildBot',
  level: 'info',
  message,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('batchedView', () => {
  it('hands a burst of changes to its listeners once, after the batch time, as one snapshot', () => {
    vi.useFakeTimers();
    const store = createClientStore();
    const view = batchedView(store, 33);
    const seen: number[] = [];
    view.subscribe(() => seen.push(view.getSnapshot().console.length));
    const before = view.getSnapshot();
    for (let i = 0; i < 100; i++) store.receive(log(`line ${i}`));
    // Until the batch is drawn every reader sees the same, older snapshot.
    expect(view.getSnapshot()).toBe(before);
    vi.advanceTimersByTime(33);
    expect(seen).toEqual([100]);
    expect(view.getSnapshot()).toBe(store.getState());
  });

  it('reads the store directly while nothing listens, and stops its timer when the last listener leaves', () => {
    vi.useFakeTimers();
    const store = createClientStore();
    const view = batchedView(store, 33);
    store.receive(log('before'));
    expect(view.getSnapshot().console).toHaveLength(1);
    const listener = vi.fn();
    const unsubscribe = view.subscribe(listener);
    store.receive(log('then'));
    unsubscribe();
    vi.advanceTimersByTime(100);
    expect(listener).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not lose a change made between reading the snapshot and subscribing', () => {
    vi.useFakeTimers();
    const store = createClientStore();
    const view = batchedView(store, 33);
    const rendered = view.getSnapshot();
    store.receive(log('in between'));
    const listener = vi.fn();
    view.subscribe(listener);
    vi.advanceTimersByTime(33);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(view.getSnapshot()).not.toBe(rendered);
    expect(view.getSnapshot().console.at(-1)?.message).toBe('in between');
  });
});
