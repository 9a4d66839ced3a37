import { LINE_BATCH_INTERVAL_MS, LINE_BATCH_MAX_LINES } from './limits.ts';

export interface LineBatcherOptions {
  /** Longest an item waits before its batch is flushed. */
  intervalMs?: number;
  /** A batch is flushed as soon as it holds this many items. */
  maxItems?: number;
}

/**
 * Groups items (log lines) into batches so a fan-out sends one frame per batch instead of one per
 * line (PERFORMANCE.md: stringify once, ~20 lines per frame). The timer only runs while items wait,
 * so an idle batcher costs nothing.
 */
export class LineBatcher<T> {
  readonly #onFlush: (batch: T[]) => void;
  readonly #intervalMs: number;
  readonly #maxItems: number;
  #items: T[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(onFlush: (batch: T[]) => void, options: LineBatcherOptions = {}) {
    this.#onFlush = onFlush;
    this.#intervalMs = options.intervalMs ?? LINE_BATCH_INTERVAL_MS;
    this.#maxItems = options.maxItems ?? LINE_BATCH_MAX_LINES;
  }

  /** Items waiting for the next flush. */
  get pending(): number {
    return this.#items.length;
  }

  push(item: T): void {
    if (this.#closed) throw new Error('LineBatcher: push after close');
    this.#items.push(item);
    if (this.#items.length >= this.#maxItems) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), this.#intervalMs);
  }

  /** Sends what is waiting now (no-op when empty). */
  flush(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#items.length === 0) return;
    const batch = this.#items;
    this.#items = [];
    this.#onFlush(batch);
  }

  /** Flushes the rest and stops; later pushes are a bug and throw. */
  close(): void {
    this.flush();
    this.#closed = true;
  }
}
