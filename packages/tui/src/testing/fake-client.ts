import type {
  HealthResponse,
  RouteName,
  ServerMessage,
  SocketHandlers,
  SocketStatus,
  SocketSubscription,
} from '@forge/shared';
import type { TuiClient } from '../client.ts';

export interface FakeClientOptions {
  baseUrl?: string;
  /** What GET /api/health answers; a never-settling promise models a hung daemon. */
  health?: () => Promise<HealthResponse>;
  /** Throw from subscribe (models a broken client, to exercise the crash path). */
  subscribeError?: Error;
}

/**
 * A stand-in for the shared client: the test drives the socket status and messages by hand and
 * sees what the dashboard asked for.
 */
export function createFakeClient(options: FakeClientOptions = {}) {
  const subscriptions: { handlers: SocketHandlers; closed: boolean }[] = [];
  const requests: RouteName[] = [];
  const health = options.health ?? (() => Promise.resolve({ ok: true, version: '1.0.0', uptimeMs: 0 }));

  const client: TuiClient = {
    baseUrl: options.baseUrl ?? 'http://127.0.0.1:4317',
    request: ((name: RouteName) => {
      requests.push(name);
      if (name === 'health') return health();
      return Promise.reject(new Error(`fake client: ${name} is not faked`));
    }) as TuiClient['request'],
    subscribe(handlers): SocketSubscription {
      if (options.subscribeError) throw options.subscribeError;
      const entry = { handlers, closed: false };
      subscriptions.push(entry);
      return {
        get status(): SocketStatus {
          return 'connecting';
        },
        send: () => false,
        close() {
          entry.closed = true;
        },
      };
    },
  };

  const active = () => {
    const entry = subscriptions.at(-1);
    if (!entry || entry.closed) throw new Error('fake client: no open subscription');
    return entry;
  };

  return {
    client,
    requests,
    subscriptions,
    /** True once the dashboard subscribed (its effects have run). */
    get subscribed() {
      return subscriptions.length > 0;
    },
    setStatus(status: SocketStatus) {
      active().handlers.onStatus?.(status);
    },
    emit(message: ServerMessage) {
      active().handlers.onMessage?.(message);
    },
  };
}
