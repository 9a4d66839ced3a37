import { parseServerFrame, type ServerMessage } from '../ws/events.ts';
import {
  openSocket,
  type SocketStatus,
  type SocketSubscription,
  type WebSocketLike,
} from './socket-transport.ts';

export * from './socket-transport.ts';

export interface SocketHandlers {
  onMessage?: (message: ServerMessage) => void;
  onStatus?: (status: SocketStatus) => void;
  /**
   * A JSON frame that matched no known message (dropped; docs/product.md#websocket-messages says parse errors
   * are only logged).
   */
  onUnknown?: (value: unknown) => void;
  /** Reconnect delay; docs/product.md#constants says 3 s. */
  reconnectMs?: number;
}

/** /ws with every frame parsed against the protocol (socket-transport.ts for the transport alone). */
export function connectSocket(
  options: SocketHandlers & { url: string; WebSocket?: new (url: string) => WebSocketLike },
): SocketSubscription {
  return openSocket({
    ...options,
    onText: (text) => {
      const frame = parseServerFrame(text);
      if (frame.kind === 'message') options.onMessage?.(frame.message);
      else options.onUnknown?.(frame.value);
    },
  });
}
