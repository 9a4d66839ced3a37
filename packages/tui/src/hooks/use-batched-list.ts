import { useCallback, useEffect, useRef, useState } from 'react';
import { RENDER_BATCH_MS } from '../constants.ts';

export interface BatchedList<T> {
  /** The items as of the last flush, oldest first, at most `max`. */
  items: readonly T[];
  /** The live array (all pushes so far), for merging before a flush. */
  current(): readonly T[];
  push(items: readonly T[]): void;
  replace(items: readonly T[]): void;
}

/**
 * A bounded list fed by /ws bursts: pushes land in a ref at once and reach React at most every
 * RENDER_BATCH_MS, so a build printing thousands of lines a second costs ~30 renders, not thousands.
 */
export function useBatchedList<T>(max: number): BatchedList<T> {
  const ref = useRef<readonly T[]>([]);
  const [items, setItems] = useState<readonly T[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const schedule = useCallback(() => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setItems(ref.current);
    }, RENDER_BATCH_MS);
  }, []);

  useEffect(() => () => clearTimeout(timer.current), []);

  const push = useCallback(
    (more: readonly T[]) => {
      if (more.length === 0) return;
      const next = [...ref.current, ...more];
      ref.current = next.length > max ? next.slice(next.length - max) : next;
      schedule();
    },
    [max, schedule],
  );
  const replace = useCallback(
    (all: readonly T[]) => {
      ref.current = all.length > max ? all.slice(all.length - max) : [...all];
      schedule();
    },
    [max, schedule],
  );
  const current = useCallback(() => ref.current, []);

  return { items, current, push, replace };
}
