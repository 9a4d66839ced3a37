import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectSocket, type SocketStatus, type WebSocketLike } from './socket.ts';
import type { ServerMessage } from '../ws/events.ts';

class FakeSocket implements WebSocketLike {
  static instances: FakeSocket[] = [];
  readyState = 0;
  onopen: WebSocketLike['onopen'] = null;
  onclose: WebSocketLike['onclose'] = null;
  onerror: WebSocketLike['onerror'] = null;
  onmessage: WebSocketLike['onmessage'] = null;
  sent: string[] = [];
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({ code: 1006, reason: '' });
  }
}

describe('connectSocket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.instances = [];
  });
  afterEach(() => vi.useRealTimers());

  it('reports status, delivers messages and reconnects 3 s after a drop', () => {
    const statuses: SocketStatus[] = [];
    const messages: ServerMessage[] = [];
    const sub = connectSocket({
      url: 'ws://h/ws',
      WebSocket: FakeSocket,
      onStatus: (s) => statuses.push(s),
      onMessage: (m) => messages.push(m),
    });
    const first = FakeSocket.instances[0]!;
    first.open();
    first.onmessage?.({ data: '{"type":"rapid-build-start","projectName":"app"}' });
    first.onmessage?.({ data: 'plain text' });
    expect(messages).toEqual([
      { type: 'rapid-build-start', projectName: 'app' },
      { type: 'log', botName: 'SYSTEM', level: 'info', message: 'plain text' },
    ]);
    expect(sub.send('x')).toBe(true);

    first.drop();
    expect(sub.status).toBe('disconnected');
    vi.advanceTimersByTime(2_999);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    FakeSocket.instances[1]!.open();
    expect(statuses).toEqual(['connecting', 'connected', 'disconnected', 'connecting', 'connected']);
    sub.close();
  });

  it('stops reconnecting once closed', () => {
    const sub = connectSocket({ url: 'ws://h/ws', WebSocket: FakeSocket });
    FakeSocket.instances[0]!.drop();
    sub.close();
    vi.advanceTimersByTime(10_000);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(sub.send('x')).toBe(false);
  });

  it('hands unknown JSON to onUnknown and drops it', () => {
    const unknown: unknown[] = [];
    const messages: unknown[] = [];
    connectSocket({
      url: 'ws://h/ws',
      WebSocket: FakeSocket,
      onUnknown: (v) => unknown.push(v),
      onMessage: (m) => messages.push(m),
    });
    FakeSocket.instances[0]!.onmessage?.({ data: '{"type":"nope"}' });
    expect(unknown).toEqual([{ type: 'nope' }]);
    expect(messages).toEqual([]);
  });
});
