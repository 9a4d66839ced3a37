import crypto from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DEFAULT_SETTINGS, FORGE_VERSION, type ServerMessage } from '@forge/shared';
import { cleanup, onCleanup, openSocket, startTestApp } from './helpers.ts';

afterEach(cleanup);

describe('/ws hub', () => {
  it('greets a client with hello and answers ping with pong', async () => {
    const app = await startTestApp();
    const socket = await openSocket(app.url);
    const hello = await socket.next('hello');
    expect(hello.version).toBe(FORGE_VERSION);
    expect(hello.clientId).toMatch(/^[0-9a-f-]{36}$/);
    socket.ws.send(JSON.stringify({ type: 'ping', id: 'abc' }));
    expect(await socket.next('pong')).toEqual({ type: 'pong', id: 'abc' });
  });

  it('ignores invalid client messages without dropping the client or crashing', async () => {
    const app = await startTestApp();
    const socket = await openSocket(app.url);
    await socket.next('hello');
    for (const junk of [
      'not json',
      '{"type":"nope"}',
      '{"type":"ping","id":5}',
      'null',
      '[]',
      '{"__proto__":{}}',
    ]) {
      socket.ws.send(junk);
    }
    socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    socket.ws.send(JSON.stringify({ type: 'ping', id: 'after' }));
    // The only answer is to the valid ping sent last: the junk produced nothing.
    expect(await socket.next('pong')).toEqual({ type: 'pong', id: 'after' });
    expect(app.forge.hub.clientCount).toBe(1);
  });

  it('closes a client that sends an oversized frame, and keeps serving others', async () => {
    const app = await startTestApp();
    const big = await openSocket(app.url);
    const other = await openSocket(app.url);
    big.ws.send('x'.repeat(100 * 1024));
    expect((await big.closed).code).toBe(1009);
    other.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await other.next('pong')).toEqual({ type: 'pong' });
  });

  it('broadcasts settings-updated to every client when a setting changes', async () => {
    const app = await startTestApp();
    const a = await openSocket(app.url);
    const b = await openSocket(app.url);
    await Promise.all([a.next('hello'), b.next('hello')]);
    const res = await fetch(`${app.url}/api/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ botOrchestration: false }),
    });
    expect(res.status).toBe(200);
    const expected = { type: 'settings-updated', settings: { ...DEFAULT_SETTINGS, botOrchestration: false } };
    expect(await a.next('settings-updated')).toEqual(expected);
    expect(await b.next('settings-updated')).toEqual(expected);
  });

  it('terminates a client that stops answering heartbeats and keeps one that answers', async () => {
    const app = await startTestApp({ socket: { heartbeatMs: 40 } });
    const silent = await openSocket(app.url, { autoPong: false });
    const healthy = await openSocket(app.url);
    const { code } = await silent.closed;
    expect(code).toBe(1006); // terminated, no close frame
    expect(healthy.ws.readyState).toBe(WebSocket.OPEN);
    expect(app.forge.hub.clientCount).toBe(1);
  });

  it('destroys upgrades for paths other than /ws', async () => {
    const app = await startTestApp();
    const ws = new WebSocket(`ws://127.0.0.1:${app.port}/not-ws`);
    const error = await new Promise<Error>((resolve) => ws.on('error', resolve));
    expect(error.message).toMatch(/socket hang up|ECONNRESET/);
  });

  it('drops a client that does not read once its buffer passes the cap; others get every message', async () => {
    const cap = 256 * 1024;
    const app = await startTestApp({ socket: { maxBufferedBytes: cap } });
    const slow = await rawSocketClient(app.port);
    const fast = await openSocket(app.url);
    await fast.next('hello');
    expect(app.forge.hub.clientCount).toBe(2);

    slow.pause(); // never reads again: the kernel buffers fill, then the daemon's
    const output = 'o'.repeat(64 * 1024);
    let sent = 0;
    for (; sent < 2_000 && app.forge.hub.clientCount === 2; sent++) {
      app.forge.hub.broadcast({ type: 'build-output', output, buildId: String(sent) });
      await new Promise((resolve) => setImmediate(resolve)); // let the sockets write
    }
    expect(app.forge.hub.clientCount).toBe(1);
    expect(sent).toBeLessThan(2_000);
    expect(sent).toBeGreaterThan(cap / output.length); // not dropped before passing the cap

    let received = 0;
    while (received < sent) {
      const message: ServerMessage = await fast.next('build-output');
      expect(message).toMatchObject({ buildId: String(received) });
      received++;
    }
    // The slow client, once it reads again, finds its connection gone.
    const ended = new Promise<void>((resolve) => slow.on('close', () => resolve()));
    slow.resume();
    await ended;
  });
});

/** A WebSocket client on a bare TCP socket, so the test controls reading (pause = never read). */
async function rawSocketClient(port: number): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  onCleanup(() => {
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  const key = crypto.randomBytes(16).toString('base64');
  socket.write(
    `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await new Promise<void>((resolve, reject) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (head.startsWith('HTTP/1.1 101')) resolve();
      else reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
    };
    socket.on('data', onData);
  });
  return socket;
}
