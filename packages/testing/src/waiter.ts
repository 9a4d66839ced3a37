/**
 * Things a test receives (messages, events) kept in order, with a way to wait for the one it needs
 * — never a sleep: `until` resolves as soon as a matching item is there, or fails after the
 * timeout naming what did arrive.
 */
export interface Received<T> {
  readonly items: T[];
  push(item: T): void;
  until<U extends T = T>(pred: (item: T) => item is U, timeoutMs?: number): Promise<U>;
  until(pred: (item: T) => boolean, timeoutMs?: number): Promise<T>;
}

export function received<T>(describe: (item: T) => string = (item) => JSON.stringify(item)): Received<T> {
  const items: T[] = [];
  const waiters = new Set<() => void>();
  return {
    items,
    push(item) {
      items.push(item);
      for (const waiter of [...waiters]) waiter();
    },
    until(pred: (item: T) => boolean, timeoutMs = 60_000): Promise<T> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`timed out after ${timeoutMs} ms; got ${items.map(describe).join(', ') || 'nothing'}`),
          );
        }, timeoutMs);
        const check = () => {
          const found = items.find(pred);
          if (found === undefined) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      });
    },
  } as Received<T>;
}
