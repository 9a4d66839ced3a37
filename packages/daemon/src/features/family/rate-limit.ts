/**
 * Failed-login counting for the university: at most `max` failures in a sliding `windowMs`, per key
 * (a username, a client address). Memory is bounded: at most `maxKeys` keys, the oldest dropped
 * first, and a key keeps at most `max` timestamps.
 */
export interface LoginLimiter {
  /** Seconds until `key` may try again, or 0 when it may now. */
  retryAfter(key: string): number;
  fail(key: string): void;
  reset(key: string): void;
}

export interface LimiterOptions {
  now: () => number;
  max?: number;
  windowMs?: number;
  maxKeys?: number;
}

export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60_000;

export function createLoginLimiter(options: LimiterOptions): LoginLimiter {
  const { now } = options;
  const max = options.max ?? LOGIN_MAX_FAILURES;
  const windowMs = options.windowMs ?? LOGIN_WINDOW_MS;
  const maxKeys = options.maxKeys ?? 10_000;
  const failures = new Map<string, number[]>();

  const recent = (key: string): number[] => {
    const since = now() - windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) failures.delete(key);
    else failures.set(key, list);
    return list;
  };

  return {
    retryAfter(key) {
      const list = recent(key);
      if (list.length < max) return 0;
      // Free again when the oldest failure that keeps the count at `max` leaves the window.
      const freeAt = list[list.length - max]! + windowMs;
      return Math.max(1, Math.ceil((freeAt - now()) / 1000));
    },
    fail(key) {
      const list = recent(key);
      list.push(now());
      failures.delete(key); // re-insert: Map order is then "least recently failed first"
      failures.set(key, list.slice(-max));
      while (failures.size > maxKeys) failures.delete(failures.keys().next().value!);
    },
    reset(key) {
      failures.delete(key);
    },
  };
}
