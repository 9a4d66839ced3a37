import type { SocketHandlers, SocketStatus, SocketSubscription, WebSocketLike } from '@forge/shared';
import { openSocket, socketUrl } from '@forge/shared/schema-free';
import type { BootSocket } from '../boot-protocol.ts';
import { protocol, type Protocol } from './protocol.ts';

/**
 * Opens the app's socket (lib/socket.tsx's `SocketConnector` shape): called with the handlers of
 * whoever listens, answers the subscription.
 */
export type SocketDial = (handlers: SocketHandlers) => SocketSubscription;

/**
 * Takes over the socket the boot script dialled (src/boot.ts), once: it stops recording, and
 * right after the caller has set its handlers (a microtask later) what it recorded is replayed to
 * them in order, so the caller sees the socket open and every message exactly as if it had dialled
 * it itself. Null when there is none, its URL differs, or it was taken already.
 */
export function adoptBootSocket(
  url: string,
  host: { __forgeBootSocket?: BootSocket } = window,
): WebSocketLike | null {
  const boot = host.__forgeBootSocket;
  if (!boot || boot.url !== url) return null;
  delete host.__forgeBootSocket;
  boot.stop();
  // The browser's WebSocket, seen through the interface connectSocket sets its handlers on.
  const socket = boot.socket as unknown as WebSocketLike;
  const { events } = boot;
  queueMicrotask(() => {
    for (const event of events) {
      if (event.type === 'open') socket.onopen?.({ type: 'open' });
      else if (event.type === 'message') socket.onmessage?.({ data: event.data });
      else socket.onclose?.({ code: event.code, reason: event.reason });
    }
  });
  return socket;
}

/** A WebSocket constructor that adopts the boot script's socket the first time, and dials after. */
const BootAwareWebSocket = function BootAwareWebSocket(url: string): WebSocketLike {
  return adoptBootSocket(url) ?? (new WebSocket(url) as unknown as WebSocketLike);
} as unknown as new (url: string) => WebSocketLike;

type ParseFrame = Protocol['parseServerFrame'];

/**
 * Hands each text frame to the handlers as a message (or an unknown frame) parsed against the
 * protocol, in the order they arrived: frames that come before the schemas are loaded
 * (lib/protocol.ts) wait for them, the rest are parsed at once.
 */
export function parseInOrder(
  handlers: Pick<SocketHandlers, 'onMessage' | 'onUnknown'>,
  load: () => Promise<{ parseServerFrame: ParseFrame }> = protocol,
): (text: string) => void {
  let parse: ParseFrame | null = null;
  let waiting: string[] = [];
  let loading = false;
  const deliver = (read: ParseFrame, text: string) => {
    const frame = read(text);
    if (frame.kind === 'message') handlers.onMessage?.(frame.message);
    else handlers.onUnknown?.(frame.value);
  };
  const loadThenDrain = () => {
    loading = true;
    load().then(
      (loaded) => {
        parse = loaded.parseServerFrame;
        const queued = waiting;
        waiting = [];
        for (const text of queued) deliver(loaded.parseServerFrame, text);
      },
      (err: unknown) => {
        // The schemas' chunk did not load (Forge rebuilt under the tab): the frames stay queued and
        // the next one tries again; the screens report the same failure from their reads.
        console.error('[forge] could not load the protocol to read socket messages', err);
        loading = false;
      },
    );
  };
  return (text) => {
    if (parse) {
      deliver(parse, text);
      return;
    }
    waiting.push(text);
    if (!loading) loadThenDrain();
  };
}

/** Dials /ws on this page's origin (adopting the boot script's socket); redials every 3 s until closed. */
export const connectAppSocket: SocketDial = (handlers) =>
  openSocket({
    url: socketUrl(''),
    WebSocket: BootAwareWebSocket,
    onStatus: handlers.onStatus,
    reconnectMs: handlers.reconnectMs,
    onText: parseInOrder(handlers),
  });

/** A connector whose connection may already be under way before anyone attaches to it. */
export interface EarlySocketConnector {
  (handlers: SocketHandlers): SocketSubscription;
  /**
   * What the connection is right now, for the first render to show it without waiting for an
   * effect: 'connected' when the socket opened before React rendered.
   */
  status(): SocketStatus;
}

type Pending =
  | { kind: 'message'; message: Parameters<NonNullable<SocketHandlers['onMessage']>>[0] }
  | {
      kind: 'unknown';
      value: unknown;
    };

/**
 * Dials now, hands the connection over later. The page's socket is otherwise dialled by
 * SocketProvider's effect, i.e. only after the whole first render has committed, and its handshake
 * then waits behind that render; dialled while the scripts are still evaluating (src/boot.ts), it is
 * usually open by the time React renders, which then shows Connected at once.
 *
 * The first call attaches to the early connection: its current status is replayed, then every
 * message that arrived before the attach, in order (nothing the daemon sent is lost). Closing that
 * subscription closes the early connection; any later call (a remount) dials a fresh one with `dial`,
 * exactly as a plain connector would.
 */
export function dialEarly(dial: SocketDial): EarlySocketConnector {
  let status: SocketStatus = 'connecting';
  let attached: SocketHandlers | null = null;
  let handedOver = false;
  let pending: Pending[] = [];

  const early = dial({
    onStatus: (next) => {
      status = next;
      attached?.onStatus?.(next);
    },
    onMessage: (message) => {
      if (attached) attached.onMessage?.(message);
      else pending.push({ kind: 'message', message });
    },
    onUnknown: (value) => {
      if (attached) attached.onUnknown?.(value);
      else pending.push({ kind: 'unknown', value });
    },
  });

  const connector = (handlers: SocketHandlers): SocketSubscription => {
    if (handedOver) return dial(handlers);
    handedOver = true;
    attached = handlers;
    handlers.onStatus?.(status);
    const queued = pending;
    pending = [];
    for (const item of queued) {
      if (item.kind === 'message') handlers.onMessage?.(item.message);
      else handlers.onUnknown?.(item.value);
    }
    return {
      get status() {
        return early.status;
      },
      send: (data) => early.send(data),
      close() {
        attached = null;
        early.close();
      },
    };
  };
  // After the hand-over the next connection is a fresh one, which starts by connecting.
  connector.status = (): SocketStatus => (handedOver ? 'connecting' : status);
  return connector;
}
