import { describe, expect, it, vi } from 'vitest';
import {
  connectSocket,
  type ServerMessage,
  type SocketHandlers,
  type SocketStatus,
  type SocketSubscription,
  type WebSocketLike,
} from '@forge/shared';
import type { BootSocket, BootSocketEvent } from '../boot-protocol.ts';
import { adoptBootSocket, dialEarly } from './early-socket.ts';

/** Only passed through, never parsed here: any shape will do. */
const frame = (n: number): ServerMessage => ({ type: 'test-frame', n }) as unknown as ServerMessage;

/** A dial the test drives: it records every connection and lets the test say what happens on it. */
function fakeDial() {
  const connections: { handlers: SocketHandlers; closed: boolean }[] = [];
  const dial = vi.fn((handlers: SocketHandlers): SocketSubscription => {
    const connection = { handlers, closed: false };
    connections.push(connection);
    handlers.onStatus?.('connecting');
    return {
      status: 'connecting',
      send: () => false,
      close: () => {
        connection.closed = true;
      },
    };
  });
  return { dial, connections };
}

/** Everything a set of handlers was told, in order. */
function recorder() {
  const seen: string[] = [];
  const handlers: SocketHandlers = {
    onStatus: (status: SocketStatus) => seen.push(`status ${status}`),
    onMessage: (message) => seen.push(`message ${JSON.stringify(message)}`),
    onUnknown: (value) => seen.push(`unknown ${JSON.stringify(value)}`),
  };
  return { seen, handlers };
}

describe('dialEarly', () => {
  it('dials at once and reports the status before anyone attaches', () => {
    const { dial, connections } = fakeDial();
    const connector = dialEarly(dial);

    expect(dial).toHaveBeenCalledTimes(1);
    expect(connector.status()).toBe('connecting');
    connections[0]!.handlers.onStatus?.('connected');
    expect(connector.status()).toBe('connected');
  });

  it('replays the status, then every message that came before the attach, in order', () => {
    const { dial, connections } = fakeDial();
    const connector = dialEarly(dial);
    const early = connections[0]!.handlers;
    early.onStatus?.('connected');
    early.onMessage?.(frame(1));
    early.onUnknown?.({ nope: 1 });
    early.onMessage?.(frame(2));

    const { seen, handlers } = recorder();
    connector(handlers);

    expect(seen).toEqual([
      'status connected',
      `message ${JSON.stringify(frame(1))}`,
      'unknown {"nope":1}',
      `message ${JSON.stringify(frame(2))}`,
    ]);
    // From now on, straight through.
    early.onMessage?.(frame(1));
    early.onStatus?.('disconnected');
    expect(seen.slice(4)).toEqual([`message ${JSON.stringify(frame(1))}`, 'status disconnected']);
  });

  it('closes the early connection with its subscription, and dials afresh for a later attach', () => {
    const { dial, connections } = fakeDial();
    const connector = dialEarly(dial);
    connections[0]!.handlers.onStatus?.('connected');

    const first = connector(recorder().handlers);
    first.close();
    expect(connections[0]!.closed).toBe(true);
    const second = recorder();
    expect(connector.status()).toBe('connecting');
    connector(second.handlers);

    expect(dial).toHaveBeenCalledTimes(2);
    expect(connections[1]!.handlers).toBe(second.handlers);
    expect(second.seen).toEqual(['status connecting']);
  });
});

/** A stand-in for the browser's WebSocket: handler properties and a ready state. */
function fakeWebSocket(readyState: number) {
  return {
    readyState,
    onopen: null,
    onclose: null,
    onerror: null,
    onmessage: null,
    send: vi.fn(),
    close: vi.fn(),
  } as WebSocketLike;
}

function bootSocket(url: string, events: BootSocketEvent[], socket = fakeWebSocket(1)) {
  const boot: BootSocket = { url, socket: socket as unknown as WebSocket, events, stop: vi.fn() };
  return { host: { __forgeBootSocket: boot } as { __forgeBootSocket?: BootSocket }, boot, socket };
}

describe('adoptBootSocket', () => {
  const url = 'ws://127.0.0.1:4317/ws';

  it('takes the socket once, stops its recording and replays what it recorded to the new handlers', async () => {
    const { host, boot, socket } = bootSocket(url, [
      { type: 'open' },
      { type: 'message', data: '{"type":"a"}' },
      { type: 'message', data: '{"type":"b"}' },
    ]);

    const adopted = adoptBootSocket(url, host);
    expect(adopted).toBe(socket);
    expect(boot.stop).toHaveBeenCalled();
    expect(host.__forgeBootSocket).toBeUndefined();
    expect(adoptBootSocket(url, host)).toBeNull();

    const seen: string[] = [];
    socket.onopen = () => seen.push('open');
    socket.onmessage = (ev) => seen.push(String(ev.data));
    await Promise.resolve();
    expect(seen).toEqual(['open', '{"type":"a"}', '{"type":"b"}']);
  });

  it('leaves a socket dialled for another URL alone', () => {
    const { host, boot } = bootSocket('ws://127.0.0.1:9/ws', []);
    expect(adoptBootSocket(url, host)).toBeNull();
    expect(host.__forgeBootSocket).toBe(boot);
    expect(adoptBootSocket(url, {})).toBeNull();
  });

  it('lets connectSocket see the boot socket open, its messages, and its close, then redial', async () => {
    vi.useFakeTimers();
    try {
      const { host, socket } = bootSocket(url, [
        { type: 'open' },
        { type: 'message', data: JSON.stringify({ type: 'not-a-message' }) },
        { type: 'close', code: 1006, reason: '' },
      ]);
      const dialled: string[] = [];
      const Ctor = function (target: string) {
        const adopted = adoptBootSocket(target, host);
        if (adopted) return adopted;
        dialled.push(target);
        return fakeWebSocket(0);
      } as unknown as new (url: string) => WebSocketLike;
      const statuses: SocketStatus[] = [];
      const unknown: unknown[] = [];
      const subscription = connectSocket({
        url,
        WebSocket: Ctor,
        reconnectMs: 50,
        onStatus: (s) => statuses.push(s),
        onUnknown: (v) => unknown.push(v),
      });
      expect(socket.onopen).not.toBeNull();
      await vi.advanceTimersByTimeAsync(0);
      expect(statuses).toEqual(['connecting', 'connected', 'disconnected']);
      expect(unknown).toEqual([{ type: 'not-a-message' }]);
      await vi.advanceTimersByTimeAsync(50);
      expect(dialled).toEqual([url]);
      subscription.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
