import pLimit from 'p-limit';

/**
 * A FIFO pool of slots: at most `capacity()` holders at once, the rest wait in the order they came.
 * Capacity is read at every acquire and release, so a settings change applies to the next holder.
 * The one pool for the build lane (whole builds) and the fleet (each bot's job).
 *
 * The queue and the concurrency are p-limit's. A slot is a p-limit task that lasts until the holder
 * gives it back, so it is held across a build's whole life; an abort is handled here, before the
 * grant (p-limit never sees the signal): a holder cancelled after its grant keeps the slot until its
 * processes have stopped, and one aborted while waiting gives its turn straight to the next. The
 * counts are kept here too, changed at the moment of the grant or the give-back: p-limit's own count
 * a slot as free only some microtasks after it is given back, and `busy` answers an upload at once.
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
  const size = () => Math.max(1, capacity());
  const limit = pLimit(size());
  /** Holders granted a slot that have not given it back. */
  let running = 0;
  /** Asked, neither granted nor aborted. */
  let waiting = 0;
  // A raised capacity lets those already waiting in first: p-limit starts from the head of its queue.
  const followCapacity = () => {
    const n = size();
    if (limit.concurrency !== n) limit.concurrency = n;
  };

  return {
    get busy() {
      return running >= size() || waiting > 0;
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting;
    },
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(reasonOf(signal));
      followCapacity();
      waiting++;
      return new Promise((resolve, reject) => {
        let state: 'waiting' | 'granted' | 'aborted' = 'waiting';
        let giveBack!: () => void;
        const held = new Promise<void>((r) => (giveBack = r));
        const onAbort = () => {
          state = 'aborted';
          waiting--;
          reject(reasonOf(signal!));
        };
        const grant = () => {
          state = 'granted';
          signal?.removeEventListener('abort', onAbort);
          waiting--;
          running++;
          let given = false;
          resolve(() => {
            if (given) return;
            given = true;
            running--;
            followCapacity();
            giveBack();
          });
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const queuedBefore = limit.pendingCount;
        void limit(() => {
          // Aborted while it waited: its turn passes at once to the next in line.
          if (state === 'aborted') return;
          if (state === 'waiting') grant();
          return held;
        });
        // p-limit takes a task at once when a slot is free and nobody waits (it runs it a microtask
        // later): the holder is granted now, as a free pool should.
        if (queuedBefore === 0 && limit.pendingCount === 0) grant();
      });
    },
  };
}

const reasonOf = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
