/**
 * Build slots: at most `capacity()` builds run at once, the rest wait in the order they came
 * (status `queued`). Capacity is read at every change, so a settings change applies to the next
 * build that starts: botOrchestration on → maxConcurrentBots builds at once; off → one at a time.
 */
export interface BuildLane {
  /** Would a build asking now have to wait? */
  readonly busy: boolean;
  /**
   * Wait for a slot; resolves with the function that gives it back (call it once, when the build
   * ends). Rejects with the signal's reason when it aborts while waiting.
   */
  acquire(signal: AbortSignal): Promise<() => void>;
  readonly running: number;
  readonly waiting: number;
}

export function createBuildLane(capacity: () => number): BuildLane {
  let running = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    running--;
    grantNext();
  };
  const grantNext = () => {
    while (running < Math.max(1, capacity()) && waiting.length > 0) waiting.shift()!();
  };
  const slot = (): (() => void) => {
    running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };

  return {
    get busy() {
      return running >= Math.max(1, capacity()) || waiting.length > 0;
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
    acquire(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (running < Math.max(1, capacity()) && waiting.length === 0) return Promise.resolve(slot());
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot());
        };
        const onAbort = () => {
          const i = waiting.indexOf(grant);
          if (i >= 0) waiting.splice(i, 1);
          reject(signal.reason);
        };
        waiting.push(grant);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
