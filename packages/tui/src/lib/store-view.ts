import type { ClientState, ClientStore } from '@forge/shared';

/** The client store as the dashboard renders it (the shape useSyncExternalStore wants). */
export interface StoreView {
  /** The state as of the last flush: every component of a render reads this one snapshot. */
  getSnapshot(): ClientState;
  subscribe(listener: () => void): () => void;
}

/**
 * A view of `store` whose changes reach its listeners at most every `batchMs`: a build printing
 * thousands of lines a second costs ~30 renders, not thousands. The store itself takes every event
 * at once; only drawing waits. While nothing listens the view reads the store directly.
 */
export function batchedView(store: ClientStore, batchMs: number): StoreView {
  let snapshot = store.getState();
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: (() => void) | undefined;

  const flush = () => {
    timer = undefined;
    const next = store.getState();
    if (next === snapshot) return;
    snapshot = next;
    for (const listener of [...listeners]) listener();
  };
  const schedule = () => {
    timer ??= setTimeout(flush, batchMs);
  };

  return {
    getSnapshot: () => (listeners.size === 0 ? (snapshot = store.getState()) : snapshot),
    subscribe(listener) {
      listeners.add(listener);
      if (!unsubscribe) {
        unsubscribe = store.subscribe(schedule);
        // A change between the render that read the snapshot and this subscription is not lost.
        if (store.getState() !== snapshot) schedule();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        unsubscribe?.();
        unsubscribe = undefined;
        clearTimeout(timer);
        timer = undefined;
      };
    },
  };
}
