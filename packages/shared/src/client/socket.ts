import { SOCKET_RECONNECT_MS } from '../constants.ts';
import { parseServerFrame, type ServerMessage } from '../ws/events.ts';

/** The part of the WebSocket API we use; satisfied by the browser's and by `ws`. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketStatus = 'connecting' | 'connected' | 'disconnected';

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

export interface SocketSubscription {
  close(): void;
  readonly status: SocketStatus;
  send(data: string): boolean;
}

export function connectSocket(
  options: SocketHandlers & { url: string; WebSocket?: new (url: string) => WebSocketLike },
): SocketSubscription {
  const Ctor =
    options.WebSocket ?? (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  if (!Ctor) throw new Error('No WebSocket implementation: pass one in the client options');
  const reconnectMs = options.reconnectMs ?? SOCKET_RECONNECT_MS;
  let closed = false;
  let socket: WebSocketLike | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let status: SocketStatus = 'connecting';

  const setStatus = (next: SocketStatus) => {
    if (next === status && next !== 'connecting') return;
    status = next;
    options.onStatus?.(next);
  };

  const open = () => {
    if (closed) return;
    setStatus('connecting');
    let ws: WebSocketLike;
    try {
      ws = new Ctor(options.url);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.onopen = () => setStatus('connected');
    ws.onmessage = (ev) => {
      const text = typeof ev.data === 'string' ? ev.data : String(ev.data);
      const frame = parseServerFrame(text);
      if (frame.kind === 'message') options.onMessage?.(frame.message);
      else options.onUnknown?.(frame.value);
    };
    ws.onerror = () => {
      /* onclose follows; reconnect is scheduled there */
    };
    ws.onclose = () => {
      socket = undefined;
      if (closed) return;
      setStatus('disconnected');
      scheduleReconnect();
    };
  };

  const scheduleReconnect = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      open();
    }, reconnectMs);
    (timer as { unref?: () => void }).unref?.();
  };

  open();

  return {
    get status() {
      return status;
    },
    send(data: string) {
      if (socket && socket.readyState === 1) {
        socket.send(data);
        return true;
      }
      return false;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      socket?.close(1000, 'client closed');
      socket = undefined;
    },
  };
}
