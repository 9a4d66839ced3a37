import { SOCKET_RECONNECT_MS } from '../constants.ts';

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

export interface SocketSubscription {
  close(): void;
  readonly status: SocketStatus;
  send(data: string): boolean;
}

export interface SocketTransportOptions {
  url: string;
  WebSocket?: new (url: string) => WebSocketLike;
  /** Every text frame, as received and in order (socket.ts parses them into messages). */
  onText: (text: string) => void;
  onStatus?: (status: SocketStatus) => void;
  /** Reconnect delay; docs/product.md#constants says 3 s. */
  reconnectMs?: number;
}

/**
 * /ws as a transport: dials, reports its status, redials every 3 s until closed, and hands each
 * text frame on unread. It imports no schema, so a client can be connected before the protocol's
 * schemas are loaded (the web's first paint) and parse what arrived once they are.
 */
export function openSocket(options: SocketTransportOptions): SocketSubscription {
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
    ws.onmessage = (ev) => options.onText(typeof ev.data === 'string' ? ev.data : String(ev.data));
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

/** ws:// or wss:// URL of /ws for a base URL ('' = the current page's origin). */
export function socketUrl(baseUrl: string, token?: string): string {
  let origin = baseUrl;
  if (!origin) {
    const loc = (globalThis as { location?: { protocol: string; host: string } }).location;
    if (!loc) throw new Error('socketUrl needs a baseUrl outside a browser');
    origin = `${loc.protocol}//${loc.host}`;
  }
  const u = new URL('/ws', origin);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  if (token) u.searchParams.set('token', token);
  return u.toString();
}
