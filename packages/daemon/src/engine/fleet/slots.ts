/**
 * A FIFO pool of slots: at most `capacity()` holders at once, the rest wait in the order they came.
 * Capacity is read at every acquire and release, so a settings change applies to the next holder.
 * The one pool for the build lane (whole builds) and the fleet (each bot's job).
 *
 * Not p-queue/p-limit: a slot here is held across a build's whole life and given back only when
 * the build has wound down, while p-queue frees a running task's slot as soon as its signal aborts
 * (a cancelled build's slot would go to the next build while the first still stops its processes),
 * and counts a slot as free only some microtasks after it is given back.
 */
export interface Slots {
  /** Would a holder asking now have to wait? */
  readonly busy: boolean;
  /**
   * Waits for a slot; resolves with the function that gives it back (idempotent; call it when the
   * work ends). Rejects with the signal's reason when it aborts while waiting; an abort after the
   * slot was granted changes nothing: the holder keeps it until it gives it back.
   */
  acquire(signal?: AbortSignal): Promise<() => void>;
  readonly running: number;
  readonly waiting: number;
}

export function createSlots(capacity: () => number): Slots {
  let running = 0;
  const waiting: Array<() => void> = [];
  const limit = () => Math.max(1, capacity());

  const grantNext = () => {
    while (running < limit() && waiting.length > 0) waiting.shift()!();
  };
  const slot = (): (() => void) => {
    running++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      running--;
      grantNext();
    };
  };

  return {
    get busy() {
      return running >= limit() || waiting.length > 0;
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(reasonOf(signal));
      // A raised capacity lets those already waiting in first.
      grantNext();
      if (running < limit() && waiting.length === 0) return Promise.resolve(slot());
      return new Promise((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot());
        };
        const onAbort = () => {
          const i = waiting.indexOf(grant);
          if (i >= 0) waiting.splice(i, 1);
          reject(reasonOf(signal!));
        };
        waiting.push(grant);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

const reasonOf = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
