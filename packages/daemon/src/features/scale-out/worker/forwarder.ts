import { isFinished, type Build, type ServerMessage, type WorkerOrders } from '@forge/shared';
import type { Logger } from '../../../logging/logger.ts';
import type { LogRow } from '../../../engine/build-repo.ts';
import { CoordinatorError, type CoordinatorClient } from './coordinator-client.ts';

/** How often what a build did is sent to the coordinator (the coordinator's /ws batches at the same pace). */
const FLUSH_MS = 100;
/** With nothing new, a post still goes out this often: it carries the coordinator's orders back (cancel). */
const IDLE_POST_MS = 1_000;
/** Live output frames kept while the coordinator cannot be reached; older ones are dropped (stored lines never are). */
const MAX_PENDING_MESSAGES = 5_000;
/** How long the end of a build is tried again while the coordinator is down (restarting). */
const FINAL_DELIVERY_MS = 15 * 60_000;

/**
 * Sends one build's record, stored log lines and /ws messages to the coordinator, in order, every
 * 100 ms: each post carries what happened since the last one (the record as it is now), so a post
 * retried after a lost answer repeats nothing the coordinator keeps twice (it skips seqs it has).
 * While the coordinator is unreachable (restarting) everything waits and goes with the next post.
 * The coordinator's `BuildRun.mirror()` makes the build's moves itself from the record; the
 * `build-stage` messages sent along only say where in the stream of messages each move stood.
 */
export class Forwarder {
  #record: Build | null = null;
  #logs: LogRow[] = [];
  #messages: ServerMessage[] = [];
  #sending: Promise<void> | null = null;
  #timer: NodeJS.Timeout;
  #lastPost = 0;
  #closed = false;
  #lost = false;
  #holding = false;

  constructor(
    private readonly deps: {
      client: CoordinatorClient;
      buildId: string;
      worker: string;
      logger: Logger;
      /** Orders in the coordinator's answer (cancel this build, stop a preview). */
      onOrders: (orders: WorkerOrders) => void;
      /** The coordinator no longer lets this worker run the build (given to another one). */
      onLost: (why: string) => void;
    },
  ) {
    this.#timer = setInterval(() => void this.#tick(), FLUSH_MS);
    this.#timer.unref();
  }

  record(build: Build): void {
    this.#record = build;
    // From the build's end on, everything waits for close(): what must reach the coordinator
    // before the end (the files repairs changed) is sent first.
    if (isFinished(build.status)) this.#holding = true;
  }
  logs(rows: readonly LogRow[]): void {
    this.#logs.push(...rows);
  }
  message(message: ServerMessage): void {
    this.#messages.push(message);
    if (this.#messages.length > MAX_PENDING_MESSAGES) {
      const i = this.#messages.findIndex((m) => m.type === 'build-output' || m.type === 'build-error');
      this.#messages.splice(i >= 0 ? i : 0, 1);
    }
  }

  async #tick(): Promise<void> {
    if (this.#sending || this.#lost || this.#holding) return;
    const idle = !this.#record && this.#logs.length === 0 && this.#messages.length === 0;
    if (idle && Date.now() - this.#lastPost < IDLE_POST_MS) return;
    // A failed post keeps everything for the next one (the coordinator may be restarting).
    this.#sending = this.#post()
      .catch(() => {})
      .finally(() => (this.#sending = null));
    await this.#sending;
  }

  /** One post of everything pending; on failure it is all put back in front of what came meanwhile. */
  async #post(): Promise<void> {
    const record = this.#record ? structuredClone(this.#record) : null;
    const logs = this.#logs;
    const messages = this.#messages;
    this.#record = null;
    this.#logs = [];
    this.#messages = [];
    this.#lastPost = Date.now();
    try {
      const orders = await this.deps.client.events(this.deps.buildId, {
        worker: this.deps.worker,
        record,
        logs,
        messages: messages as unknown as Array<Record<string, unknown>>,
      });
      this.deps.onOrders(orders);
    } catch (err) {
      if (err instanceof CoordinatorError && !err.transient) {
        this.#lost = true;
        this.deps.onLost(err.message);
        return;
      }
      this.#record ??= record;
      this.#logs = [...logs, ...this.#logs];
      this.#messages = [...messages, ...this.#messages];
      this.deps.logger.debug(
        { err: (err as Error).message, buildId: this.deps.buildId },
        'post to the coordinator failed',
      );
      throw err;
    }
  }

  /** Deliver everything left (the build's end), trying again while the coordinator restarts. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    const until = Date.now() + FINAL_DELIVERY_MS;
    let wait = 250;
    for (;;) {
      await this.#sending?.catch(() => {});
      if (this.#lost) return;
      if (!this.#record && this.#logs.length === 0 && this.#messages.length === 0) return;
      try {
        await (this.#sending = this.#post().finally(() => (this.#sending = null)));
      } catch {
        if (Date.now() > until) {
          this.deps.logger.error(
            { buildId: this.deps.buildId },
            'gave up sending the end of a build to the coordinator',
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, 5_000);
      }
    }
  }
}
