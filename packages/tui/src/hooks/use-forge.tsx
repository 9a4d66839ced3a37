import {
  createContext,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import {
  createClientStore,
  type ClientState,
  type ClientStore,
  type ServerMessage,
  type SocketStatus,
} from '@forge/shared';
import type { TuiClient } from '../client.ts';
import { LOG_BUFFER_LINES, OUTPUT_BUFFER_LINES, RENDER_BATCH_MS, REQUEST_TIMEOUT_MS } from '../constants.ts';
import { batchedView, type StoreView } from '../lib/store-view.ts';
import { useRequiredContext } from './required-context.ts';

export type MessageListener = (message: ServerMessage) => void;

/** What every pane reads: the client, the /ws connection state, the client model and the message stream. */
export interface ForgeContextValue {
  client: TuiClient;
  /**
   * The dashboard's one client model (the shared reducer): fed every /ws message here and every
   * REST read (records, log pages, bots) by the hooks that make them. Panes render from `view`.
   */
  store: ClientStore;
  view: StoreView;
  /** Daemon origin as shown in the header. */
  baseUrl: string;
  status: SocketStatus;
  /**
   * A connection attempt failed since the socket was last open (the daemon is down or
   * restarting): the dashboard says how to start one. False during the very first attempt.
   */
  offline: boolean;
  /**
   * Counts the times the socket opened: effects that must run again after every reconnect (the
   * daemon may have restarted, events of the gap are lost) depend on it, even when a drop and a
   * reconnect land in the same render.
   */
  connection: number;
  /** Daemon version from the socket's `hello`, once greeted. */
  version: string | null;
  /** Upper bound of every daemon call made by the panes. */
  timeoutMs: number;
  /**
   * Every message as it arrives, after the store took it in: for what a message should set off (a
   * fresh read of a record), never for state, which lives in the store. Returns the unsubscribe.
   */
  onMessage(listener: MessageListener): () => void;
}

const ForgeContext = createContext<ForgeContextValue | null>(null);

/**
 * Owns the one /ws subscription of the dashboard and its client store. The shared client
 * reconnects every 3 s by itself; this mirrors its status and closes it on unmount (quit closes
 * the socket). Each message is folded into the store, which panes see at most every
 * RENDER_BATCH_MS, so a flood of output costs a bounded number of renders.
 */
export function ForgeProvider({
  client,
  timeoutMs = REQUEST_TIMEOUT_MS,
  children,
}: {
  client: TuiClient;
  timeoutMs?: number;
  children: ReactNode;
}) {
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const [offline, setOffline] = useState(false);
  const [connection, setConnection] = useState(0);
  const [version, setVersion] = useState<string | null>(null);
  const [{ store, view }] = useState(() => {
    const store = createClientStore({ linesPerBuild: OUTPUT_BUFFER_LINES, console: LOG_BUFFER_LINES });
    return { store, view: batchedView(store, RENDER_BATCH_MS) };
  });
  const listeners = useRef(new Set<MessageListener>());
  const onMessage = useCallback((listener: MessageListener) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  useEffect(() => {
    const subscription = client.subscribe({
      onStatus: (next) => {
        setStatus(next);
        if (next === 'connected') {
          setOffline(false);
          setConnection((n) => n + 1);
        }
        if (next === 'disconnected') setOffline(true);
      },
      onMessage: (message) => {
        if (message.type === 'hello') setVersion(message.version);
        store.receive(message);
        for (const listener of [...listeners.current]) listener(message);
      },
    });
    return () => subscription.close();
  }, [client, store]);

  const value = useMemo<ForgeContextValue>(
    () => ({
      client,
      store,
      view,
      baseUrl: client.baseUrl,
      status,
      offline,
      connection,
      version,
      timeoutMs,
      onMessage,
    }),
    [client, store, view, status, offline, connection, version, timeoutMs, onMessage],
  );

  return <ForgeContext.Provider value={value}>{children}</ForgeContext.Provider>;
}

export function useForge(): ForgeContextValue {
  return useRequiredContext(ForgeContext, 'useForge', 'ForgeProvider');
}

/** Subscribe `listener` to every /ws message for the component's lifetime (latest closure wins). */
export function useMessages(listener: MessageListener): void {
  const { onMessage } = useForge();
  const latest = useRef(listener);
  useLayoutEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onMessage((message) => latest.current(message)), [onMessage]);
}

/**
 * The client model as of the last drawn batch. Every component reads the same snapshot in a
 * render, so two panes showing one build never disagree.
 */
export function useClientState(): ClientState {
  const { view } = useForge();
  return useSyncExternalStore(view.subscribe, view.getSnapshot);
}
