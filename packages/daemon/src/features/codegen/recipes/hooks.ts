import type { Language } from '../emit-common.ts';
import { renderTemplate } from '../ts-template.ts';
import { hasWord, type Desc } from './describe.ts';
import type { Recipe } from './recipe.ts';

/**
 * React hooks: useDebounce, useFetch (aborted when the URL changes or the component unmounts),
 * useLocalStorage (JSON, kept in step with other tabs) and useInterval (always the latest callback).
 * Asked for as a function or a component: a hook is what the description names either way.
 */

const isHook = (d: Desc): boolean =>
  hasWord(d, /^(hook|hooks)$/) || /\buse[A-Z]\w*/.test(d.spec.description) || hasWord(d, /^use$/);

const hookName = (d: Desc, fallback: string): string =>
  d.explicitName && /^use[A-Z]/.test(d.explicitName) ? d.explicitName : fallback;

const hook = (name: string, template: string, language: Language) => ({
  name,
  fileName: `${name}.${language === 'typescript' ? 'ts' : 'js'}`,
  code: renderTemplate(template, { $name: name }, language, false),
});

const HOOK_WORDS = 'hook|hooks|react|use|state|component|components|custom';

const useDebounce: Recipe = {
  id: 'use-debounce',
  kinds: ['function', 'component'],
  fields: 'collections',
  summary: 'a hook whose value follows its input once it has been still for delayMs',
  match: (d) => isHook(d) && hasWord(d, /^(debounce|debounced|usedebounce|debouncing)$/),
  vocabulary: new RegExp(
    `^(${HOOK_WORDS}|debounce|debounced|usedebounce|debouncing|delay|milliseconds|ms|after|stops?|changing|typing|search|query|input|latest|still)$`,
  ),
  build: (d, language) =>
    hook(
      hookName(d, 'useDebounce'),
      `import { useEffect, useState } from 'react';

/** value, once it has stopped changing for delayMs (the latest value wins). */
export function $name<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
`,
      language,
    ),
};

const useFetch: Recipe = {
  id: 'use-fetch',
  kinds: ['function', 'component'],
  fields: 'collections',
  summary: 'a hook that fetches JSON, with loading and error state, aborted when the URL changes',
  match: (d) =>
    isHook(d) && hasWord(d, /^(fetch|fetches|fetching|usefetch|load|loads|request|requests|http|api|get)$/),
  vocabulary: new RegExp(
    `^(${HOOK_WORDS}|fetch|fetches|fetching|usefetch|load|loads|loading|request|requests|http|api|get|json|data|url|urls|endpoint|error|errors|abort|aborts|aborted|abortcontroller|cancel|cancels|cancellation|unmount|unmounts|changes?|reload|refetch|status|response)$`,
  ),
  build: (d, language) =>
    hook(
      hookName(d, 'useFetch'),
      `import { useCallback, useEffect, useState } from 'react';

export interface FetchState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** Fetches again. */
  reload: () => void;
}

/**
 * Fetches url as JSON. The request is aborted (AbortController) when url changes or the component
 * unmounts, so a late answer never overwrites a newer one; a non-2xx status is an error. A null
 * url fetches nothing.
 */
export function $name<T = unknown>(url: string | null, init?: RequestInit): FetchState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(url !== null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (url === null) return undefined;
    const controller = new AbortController();
    setLoading(true);
    setError(undefined);
    fetch(url, { ...init, signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(url + ' answered ' + String(response.status) + ' ' + response.statusText);
        return (await response.json()) as T;
      })
      .then((body) => {
        setData(body);
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setError(err instanceof Error ? err : new Error(String(err)));
        setLoading(false);
      });
    return () => controller.abort();
    // init is read when url or attempt change: an object literal would refetch on every render.
  }, [url, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { data, error, loading, reload };
}
`,
      language,
    ),
};

const useLocalStorage: Recipe = {
  id: 'use-local-storage',
  kinds: ['function', 'component'],
  fields: 'collections',
  summary: 'a hook for state kept in localStorage as JSON, in step with other tabs',
  match: (d) =>
    isHook(d) &&
    (hasWord(d, /^(localstorage|uselocalstorage|persist|persisted|persists|storage)$/) ||
      /local\s*storage/.test(d.text)),
  vocabulary: new RegExp(
    `^(${HOOK_WORDS}|localstorage|uselocalstorage|local|storage|persist|persisted|persists|persistent|stored|store|stores|saved|saves|save|key|initial|json|tabs?|sync|synced|across|reload|reloads|survives|page)$`,
  ),
  build: (d, language) =>
    hook(
      hookName(d, 'useLocalStorage'),
      `import { useCallback, useEffect, useState } from 'react';

/**
 * State kept in localStorage under key, as JSON: it survives a reload, follows changes made in
 * other tabs, and falls back to initialValue when nothing (or unreadable JSON) is stored.
 */
export function $name<T>(key: string, initialValue: T): [T, (next: T | ((previous: T) => T)) => void] {
  const read = useCallback((): T => {
    if (typeof window === 'undefined') return initialValue;
    try {
      const stored = window.localStorage.getItem(key);
      return stored === null ? initialValue : (JSON.parse(stored) as T);
    } catch {
      return initialValue;
    }
    // initialValue is only the first value: a new literal each render must not re-read.
  }, [key]);
  const [value, setValue] = useState<T>(read);
  useEffect(() => {
    setValue(read());
    const onStorage = (event: StorageEvent) => {
      if (event.key === key) setValue(read());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [key, read]);
  const update = useCallback(
    (next: T | ((previous: T) => T)) => {
      setValue((previous) => {
        const resolved = typeof next === 'function' ? (next as (previous: T) => T)(previous) : next;
        try {
          window.localStorage.setItem(key, JSON.stringify(resolved));
        } catch {
          // Storage full or blocked: the state still changes for this page.
        }
        return resolved;
      });
    },
    [key],
  );
  return [value, update];
}
`,
      language,
    ),
};

const useInterval: Recipe = {
  id: 'use-interval',
  kinds: ['function', 'component'],
  fields: 'collections',
  summary: 'a hook that calls back every delayMs (null pauses), always the latest callback',
  match: (d) =>
    isHook(d) && hasWord(d, /^(interval|intervals|useinterval|setinterval|every|tick|ticks|polling|poll)$/),
  vocabulary: new RegExp(
    `^(${HOOK_WORDS}|interval|intervals|useinterval|setinterval|every|tick|ticks|polling|poll|delay|milliseconds|ms|pause|paused|pauses|stop|stops|latest|repeatedly|timer|runs?|calls?)$`,
  ),
  build: (d, language) =>
    hook(
      hookName(d, 'useInterval'),
      `import { useEffect, useRef } from 'react';

/** Calls callback every delayMs while mounted; a null delay pauses it. The latest callback is called. */
export function $name(callback: () => void, delayMs: number | null): void {
  const saved = useRef(callback);
  useEffect(() => {
    saved.current = callback;
  }, [callback]);
  useEffect(() => {
    if (delayMs === null) return undefined;
    const id = setInterval(() => saved.current(), delayMs);
    return () => clearInterval(id);
  }, [delayMs]);
}
`,
      language,
    ),
};

export const HOOK_RECIPES: readonly Recipe[] = [useDebounce, useFetch, useLocalStorage, useInterval];
