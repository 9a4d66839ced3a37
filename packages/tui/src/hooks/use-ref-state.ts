import { useCallback, useRef, useState } from 'react';

/**
 * State whose latest value is also readable at once through a ref. Keys typed in one burst (a
 * paste, fast typing, a test) arrive before React re-renders: each must see what the previous
 * one did (the prompt's text, the focused pane), not the last rendered value.
 */
export function useRefState<T>(
  initial: T,
): [T, (next: T | ((prev: T) => T)) => void, { readonly current: T }] {
  const [value, setValue] = useState(initial);
  const ref = useRef(initial);
  const set = useCallback((next: T | ((prev: T) => T)) => {
    ref.current = typeof next === 'function' ? (next as (prev: T) => T)(ref.current) : next;
    setValue(ref.current);
  }, []);
  return [value, set, ref];
}
