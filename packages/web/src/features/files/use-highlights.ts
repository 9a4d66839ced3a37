import { useCallback, useEffect, useRef, useState } from 'react';
import { CHANGED_FILE_HIGHLIGHT_MS } from '@forge/shared/schema-free';

/**
 * Paths lit up because they just changed (docs/product.md#file-tree-and-explorer, docs/product.md#constants:
 * 3 s). A path that changes again while lit stays lit for another full period.
 */
export function useHighlights(durationMs: number = CHANGED_FILE_HIGHLIGHT_MS) {
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(() => new Set());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const highlight = useCallback(
    (paths: readonly string[]) => {
      if (paths.length === 0) return;
      for (const path of paths) {
        clearTimeout(timers.current.get(path));
        timers.current.set(
          path,
          setTimeout(() => {
            timers.current.delete(path);
            setHighlighted((current) => {
              const next = new Set(current);
              next.delete(path);
              return next;
            });
          }, durationMs),
        );
      }
      setHighlighted((current) => new Set([...current, ...paths]));
    },
    [durationMs],
  );

  return { highlighted, highlight };
}
