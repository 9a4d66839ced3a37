import type { ServerMessage } from '@forge/shared';
import type { BuildSource } from './source.ts';

/** How long a command waits for /ws before it goes on with polling alone. */
export const LIVE_READY_TIMEOUT_MS = 5_000;

export type LiveStatus = 'up' | 'down';

/**
 * The daemon's /ws as the CLI uses it: a connection counts as up once the daemon has greeted it
 * (`hello` is sent after the client is registered for broadcasts, so from then on no event is
 * missed), and down as soon as it drops. The shared socket reconnects by itself every 3 s.
 */
export interface LiveFeed {
  /** true once a connection is greeted, false if none is within `timeoutMs`. */
  ready(timeoutMs?: number): Promise<boolean>;
  /** A greeted connection is up right now. */
  readonly connected: boolean;
  /** The daemon's id for this connection (its `hello`), while it is up. */
  readonly clientId: string | null;
  /** Every message but `hello`; returns the unsubscribe. */
  onMessage(listener: (message: ServerMessage) => void): () => void;
  /** `up` after each greeting (also after a reconnect), `down` when a greeted connection drops. */
  onStatus(listener: (status: LiveStatus) => void): () => void;
  close(): void;
}

export function openLiveFeed(source: Pick<BuildSource, 'subscribe'>): LiveFeed {
  const messageListeners = new Set<(message: ServerMessage) => void>();
  const statusListeners = new Set<(status: LiveStatus) => void>();
  const readyWaiters = new Set<(greeted: boolean) => void>();
  let connected = false;
  let clientId: string | null = null;

  const subscription = source.subscribe({
    onMessage: (message) => {
      if (message.type === 'hello') {
        connected = true;
        clientId = message.clientId;
        for (const wake of [...readyWaiters]) wake(true);
        for (const listener of [...statusListeners]) listener('up');
        return;
      }
      for (const listener of [...messageListeners]) listener(message);
    },
    onStatus: (status) => {
      if (status === 'connected' || !connected) return;
      connected = false;
      clientId = null;
      for (const listener of [...statusListeners]) listener('down');
    },
  });

  return {
    get connected() {
      return connected;
    },
    get clientId() {
      return clientId;
    },
    ready(timeoutMs = LIVE_READY_TIMEOUT_MS) {
      if (connected) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (greeted: boolean) => {
          clearTimeout(timer);
          readyWaiters.delete(done);
          resolve(greeted);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        readyWaiters.add(done);
      });
    },
    onMessage(listener) {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    close() {
      connected = false;
      messageListeners.clear();
      statusListeners.clear();
      for (const wake of [...readyWaiters]) wake(false);
      subscription.close();
    },
  };
}
