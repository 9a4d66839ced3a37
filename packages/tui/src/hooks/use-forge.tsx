import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { ServerMessage, SocketStatus } from '@forge/shared';
import type { TuiClient } from '../client.ts';
import { REQUEST_TIMEOUT_MS } from '../constants.ts';

export type MessageListener = (message: ServerMessage) => void;

/** What every pane reads: the client, the /ws connection state and the message stream. */
export interface ForgeContextValue {
  client: TuiClient;
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
   * Every message as it arrives (not batched into renders); panes keep their own bounded state.
   * Returns the unsubscribe function.
   */
  onMessage(listener: MessageListener): () => void;
}

const ForgeContext = createContext<ForgeContextValue | null>(null);

/**
 * Owns the one /ws subscription of the dashboard. The shared client reconnects every 3 s by
 * itself; this mirrors its status and closes it on unmount (quit closes the socket). Messages are
 * handed to listeners rather than kept in state, so a flood of output re-renders only the panes
 * that show it.
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
        for (const listener of [...listeners.current]) listener(message);
      },
    });
    return () => subscription.close();
  }, [client]);

  const value = useMemo<ForgeContextValue>(
    () => ({
      client,
      baseUrl: client.baseUrl,
      status,
      offline,
      connection,
      version,
      timeoutMs,
      onMessage,
    }),
    [client, status, offline, connection, version, timeoutMs, onMessage],
  );

  return <ForgeContext.Provider value={value}>{children}</ForgeContext.Provider>;
}

export function useForge(): ForgeContextValue {
  const value = useContext(ForgeContext);
  if (!value) throw new Error('useForge must be used inside <ForgeProvider>');
  return value;
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
