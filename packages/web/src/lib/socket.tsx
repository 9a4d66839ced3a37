import {
  useLayoutEffect,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  ClientMessage,
  ServerMessage,
  SocketHandlers,
  SocketStatus,
  SocketSubscription,
} from '@forge/shared';
import { connectAppSocket } from './early-socket.ts';
import { createLiveStore, LiveStoreContext } from './live-store.ts';
import { routeQuery } from './query-client.ts';

/**
 * What the UI shows (docs/product.md#live-state): a socket that is not open — yet or any more — is
 * disconnected.
 */
export type ConnectionStatus = 'connected' | 'disconnected';

export type MessageListener = (message: ServerMessage) => void;

/**
 * Opens the app's socket. The default (lib/early-socket.ts) dials /ws on this page's origin and
 * redials every 3 s.
 */
export type SocketConnector = ((handlers: SocketHandlers) => SocketSubscription) & {
  /**
   * What the connection already is before any handler attaches (a socket dialled at boot,
   * lib/early-socket.ts), so the first render can show it; absent, the first render says
   * Disconnected and waits for the first attempt.
   */
  status?: () => SocketStatus;
};

interface SocketContextValue {
  status: ConnectionStatus;
  /** True until the first attempt has either opened or failed: "not known yet", not "down". */
  firstAttempt: boolean;
  /** Listen to every server message; returns the unsubscribe function. */
  subscribe: (listener: MessageListener) => () => void;
  /**
   * This connection's id (from the daemon's `hello`), or null while it is down: sent with a chat
   * line so a signed-in brain answer comes back to this tab alone.
   */
  clientId: () => string | null;
  /**
   * Send a message to the daemon on this connection; false when it is not open (the caller sends
   * it again once the status is back to connected, e.g. a family sign-in).
   */
  send: (message: ClientMessage) => boolean;
}

const SocketContext = createContext<SocketContextValue | null>(null);

/**
 * Messages that change data the app caches are written into the query cache here, once, so every
 * screen reading that query updates without refetching.
 */
export function applyToQueryCache(queryClient: QueryClient, message: ServerMessage): void {
  switch (message.type) {
    case 'settings-updated':
      queryClient.setQueryData(routeQuery('getSettings').queryKey, message.settings);
      break;
    default:
      break;
  }
}

/**
 * The one app-wide socket and the client model it feeds (lib/live-store.ts). Mount once, above
 * everything that reads the connection, the messages or the model; each provider has its own model,
 * so every app a test renders starts empty.
 */
export function SocketProvider({
  children,
  connect = connectAppSocket,
}: {
  children: ReactNode;
  connect?: SocketConnector;
}) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ConnectionStatus>(() =>
    connect.status?.() === 'connected' ? 'connected' : 'disconnected',
  );
  const [firstAttempt, setFirstAttempt] = useState(
    () => (connect.status?.() ?? 'connecting') === 'connecting',
  );
  const listeners = useRef(new Set<MessageListener>());
  const clientIdRef = useRef<string | null>(null);
  const subscriptionRef = useRef<SocketSubscription | null>(null);
  const [store] = useState(createLiveStore);

  useEffect(() => {
    // Results never go stale on their own (docs/product.md#http-calls), so after an outage everything on
    // screen is refetched once the socket is back: the daemon may have restarted or missed us a push.
    let hadOutage = false;
    const subscription = connect({
      onStatus: (next) => {
        if (next !== 'connecting') setFirstAttempt(false);
        if (next === 'connected') {
          setStatus('connected');
          if (hadOutage) void queryClient.invalidateQueries();
          hadOutage = false;
        } else {
          clientIdRef.current = null;
          setStatus('disconnected');
          if (next === 'disconnected') hadOutage = true;
        }
      },
      onMessage: (message) => {
        if (message.type === 'hello') clientIdRef.current = message.clientId;
        applyToQueryCache(queryClient, message);
        store.receive(message);
        for (const listener of listeners.current) {
          // One panel's bug must not starve the others of the message.
          try {
            listener(message);
          } catch (err) {
            console.error('[forge] a socket listener failed', err);
          }
        }
      },
      onUnknown: (value) => {
        // docs/product.md#websocket-messages: frames we cannot parse are only logged.
        console.debug('[forge] ignored socket frame', value);
      },
    });
    subscriptionRef.current = subscription;
    return () => {
      subscriptionRef.current = null;
      subscription.close();
    };
  }, [connect, queryClient, store]);

  const subscribe = useCallback((listener: MessageListener) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  const clientId = useCallback(() => clientIdRef.current, []);
  const send = useCallback(
    (message: ClientMessage) => subscriptionRef.current?.send(JSON.stringify(message)) ?? false,
    [],
  );
  const value = useMemo(
    () => ({ status, firstAttempt, subscribe, clientId, send }),
    [status, firstAttempt, subscribe, clientId, send],
  );
  return (
    <SocketContext.Provider value={value}>
      <LiveStoreContext.Provider value={store}>{children}</LiveStoreContext.Provider>
    </SocketContext.Provider>
  );
}

export function useSocket(): SocketContextValue {
  const value = useContext(SocketContext);
  if (!value) throw new Error('useSocket must be used inside <SocketProvider>');
  return value;
}

export const useConnectionStatus = (): ConnectionStatus => useSocket().status;

/** Run `listener` for every server message while the calling component is mounted. */
export function useSocketMessages(listener: MessageListener): void {
  const { subscribe } = useSocket();
  const latest = useRef(listener);
  // A layout effect runs in the commit itself: a message arriving right after a render already sees
  // the listener of that render (a passive effect could still be pending, and the listener stale).
  useLayoutEffect(() => {
    latest.current = listener;
  });
  useEffect(() => subscribe((message) => latest.current(message)), [subscribe]);
}
