import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ServerMessage, SocketStatus } from '@forge/shared';
import type { TuiClient } from '../client.ts';
import { MESSAGE_BUFFER_SIZE } from '../constants.ts';

export type MessageListener = (message: ServerMessage) => void;

/** What every pane reads: the client, the /ws connection state and the recent messages. */
export interface ForgeContextValue {
  client: TuiClient;
  /** Daemon origin as shown in the header. */
  baseUrl: string;
  status: SocketStatus;
  /** Most recent messages, oldest first, at most MESSAGE_BUFFER_SIZE. */
  messages: readonly ServerMessage[];
  /**
   * Every message as it arrives (not batched into renders); for panes that keep their own
   * bounded state, such as a build log. Returns the unsubscribe function.
   */
  onMessage(listener: MessageListener): () => void;
}

const ForgeContext = createContext<ForgeContextValue | null>(null);

/**
 * Owns the one /ws subscription of the dashboard. The shared client reconnects every 3 s by
 * itself; this only mirrors its status and closes it on unmount (quit closes the socket).
 */
export function ForgeProvider({ client, children }: { client: TuiClient; children: ReactNode }) {
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const [messages, setMessages] = useState<readonly ServerMessage[]>([]);
  const listeners = useRef(new Set<MessageListener>());

  useEffect(() => {
    const subscription = client.subscribe({
      onStatus: setStatus,
      onMessage: (message) => {
        setMessages((prev) => [...prev.slice(-(MESSAGE_BUFFER_SIZE - 1)), message]);
        for (const listener of listeners.current) listener(message);
      },
    });
    return () => subscription.close();
  }, [client]);

  const value = useMemo<ForgeContextValue>(
    () => ({
      client,
      baseUrl: client.baseUrl,
      status,
      messages,
      onMessage: (listener) => {
        listeners.current.add(listener);
        return () => {
          listeners.current.delete(listener);
        };
      },
    }),
    [client, status, messages],
  );

  return <ForgeContext.Provider value={value}>{children}</ForgeContext.Provider>;
}

export function useForge(): ForgeContextValue {
  const value = useContext(ForgeContext);
  if (!value) throw new Error('useForge must be used inside <ForgeProvider>');
  return value;
}
