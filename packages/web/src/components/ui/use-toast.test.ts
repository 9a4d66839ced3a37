import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST } from '@forge/shared';
import { createToastStore } from './use-toast.tsx';

afterEach(() => {
  vi.useRealTimers();
});

describe('toast store (docs/product.md#constants)', () => {
  it('shows one notice at a time: a new one replaces the current one', () => {
    const store = createToastStore();
    store.toast({ title: 'Setting updated' });
    store.toast({ title: 'Error', description: 'Failed to update setting.' });

    expect(store.getSnapshot().map((t) => t.title)).toEqual(['Error']);
  });

  it('closes a dismissed notice at once and removes it after the removal delay', () => {
    vi.useFakeTimers();
    const store = createToastStore();
    const handle = store.toast({ title: 'Setting updated' });

    handle.dismiss();
    expect(store.getSnapshot()).toEqual([expect.objectContaining({ id: handle.id, open: false })]);

    vi.advanceTimersByTime(TOAST.removeDelayMs - 1);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toHaveLength(0);
  });
});
