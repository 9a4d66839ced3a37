import { createContext, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';
import { TOAST } from '@forge/shared/schema-free';
import type { ToastActionElement, ToastVariant } from './toast.tsx';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  action?: ToastActionElement;
}

export interface ToastItem extends ToastInput {
  id: string;
  /** False once dismissed; the item stays until the removal delay has passed. */
  open: boolean;
}

export interface ToastHandle {
  id: string;
  dismiss: () => void;
}

/** The notices on screen. A store object, not module state, so each app (and each test) has its own. */
export interface ToastStore {
  getSnapshot: () => readonly ToastItem[];
  subscribe: (listener: () => void) => () => void;
  toast: (input: ToastInput) => ToastHandle;
  /** Dismiss one notice, or all of them. */
  dismiss: (id?: string) => void;
}

/**
 * docs/product.md#constants: one notice at a time; a dismissed one is removed 1,000,000 ms later (or when
 * replaced).
 */
export function createToastStore(): ToastStore {
  let toasts: readonly ToastItem[] = [];
  let counter = 0;
  const listeners = new Set<() => void>();
  const removals = new Map<string, ReturnType<typeof setTimeout>>();

  const set = (next: readonly ToastItem[]) => {
    toasts = next;
    for (const listener of listeners) listener();
  };

  const scheduleRemoval = (id: string) => {
    if (removals.has(id)) return;
    removals.set(
      id,
      setTimeout(() => {
        removals.delete(id);
        set(toasts.filter((t) => t.id !== id));
      }, TOAST.removeDelayMs),
    );
  };

  const dismiss = (id?: string) => {
    for (const t of toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
    set(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  };

  return {
    getSnapshot: () => toasts,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    toast: (input) => {
      counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
      const id = String(counter);
      const kept = [{ ...input, id, open: true }, ...toasts].slice(0, TOAST.limit);
      for (const t of toasts) {
        if (kept.includes(t)) continue;
        clearTimeout(removals.get(t.id));
        removals.delete(t.id);
      }
      set(kept);
      return { id, dismiss: () => dismiss(id) };
    },
    dismiss,
  };
}

const ToastStoreContext = createContext<ToastStore | null>(null);

export function ToastStoreProvider({ children, store }: { children: ReactNode; store?: ToastStore }) {
  const [value] = useState(() => store ?? createToastStore());
  return <ToastStoreContext.Provider value={value}>{children}</ToastStoreContext.Provider>;
}

/** Show and dismiss notices from any component under <ToastStoreProvider>. */
export function useToast() {
  const store = useContext(ToastStoreContext);
  if (!store) throw new Error('useToast must be used inside <ToastStoreProvider>');
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return { toasts, toast: store.toast, dismiss: store.dismiss };
}
