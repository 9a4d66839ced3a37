import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  ClientMessage,
  ERROR_CATALOGUE,
  SOCKET_HEARTBEAT_MS,
  SOCKET_MAX_BUFFERED_BYTES,
  WS_CLOSE_GOING_AWAY,
  errorBody,
  type ErrorCode,
  type ServerMessage,
} from '@forge/shared';
import type { Logger } from '../logging/logger.ts';
import { checkUpgrade, type SecurityPolicy } from '../http/security.ts';

/** Largest frame a client may send; clients only send small control messages. */
const MAX_CLIENT_FRAME_BYTES = 64 * 1024;
/** How long shutdown waits for clients to acknowledge the close frame before cutting them. */
const CLOSE_WAIT_MS = 2_000;
/** RFC 6455 "Try Again Later": what a client dropped for being too slow is told. */
export const WS_CLOSE_TOO_SLOW = 1013;
export const WS_CLOSE_TOO_SLOW_REASON = 'Too slow to keep up: reconnect and refetch';
/**
 * How long a dropped slow client has to read its close frame (behind what it has not read yet)
 * before its connection is cut; nothing more is queued for it meanwhile, so its memory stays capped.
 */
const SLOW_CLOSE_GRACE_MS = 1_000;

export interface HubOptions {
  logger: Logger;
  version: string;
  policy: SecurityPolicy;
  heartbeatMs?: number;
  maxBufferedBytes?: number;
}

export interface Hub {
  /** Accept (or refuse, with an HTTP answer on the socket) an upgrade for /ws. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Send one message to every client; serialised once. Slow clients are dropped, not buffered. */
  broadcast(message: ServerMessage): void;
  /** Send one message to one client (by its hello `clientId`); false when it is not connected. */
  sendTo(clientId: string, message: ServerMessage): boolean;
  readonly clientCount: number;
  /**
   * How a connection's `family-auth` token is checked (AuthBot's tokens): the family member's name,
   * or null. `touch` counts the check as a use of the token (refreshing its idle expiry).
   */
  setFamilyAuth(check: FamilyTokenCheck | null): void;
  /**
   * Send to the connections signed in as family (ClientMessage family-auth), their token checked
   * again first: an expired or revoked one signs the connection out instead. Returns how many got it.
   */
  sendToFamily(message: ServerMessage): number;
  /** Close every client with 1001 and stop accepting. */
  close(): Promise<void>;
}

export type FamilyTokenCheck = (token: string, touch: boolean) => string | null;

interface ClientState {
  id: string;
  alive: boolean;
  /** Signed in as family with this token (kept in memory only, to re-check it on each send). */
  family: { name: string; token: string } | null;
}

/** Answer a refused upgrade with a real HTTP response in the catalogue shape, then close. */
export function refuseUpgrade(socket: Duplex, code: ErrorCode): void {
  const { status } = ERROR_CATALOGUE[code];
  const body = JSON.stringify(errorBody(code));
  const reason = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Service Unavailable';
  socket.once('finish', () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\n\r\n${body}`,
  );
}

export function createHub(options: HubOptions): Hub {
  const { logger, policy } = options;
  const heartbeatMs = options.heartbeatMs ?? SOCKET_HEARTBEAT_MS;
  const maxBuffered = options.maxBufferedBytes ?? SOCKET_MAX_BUFFERED_BYTES;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_FRAME_BYTES,
    clientTracking: false,
  });
  const clients = new Map<WebSocket, ClientState>();
  let closing = false;
  let familyCheck: FamilyTokenCheck | null = null;

  const sendData = (ws: WebSocket, data: string, bytes: number): void => {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount + bytes > maxBuffered) {
      // A client that cannot keep up is dropped (1013, then cut if it does not read even that); it
      // reconnects and refetches state. Its queue never grows past the cap plus one message.
      logger.warn(
        { clientId: clients.get(ws)?.id, bufferedAmount: ws.bufferedAmount },
        'dropping slow WebSocket client',
      );
      clients.delete(ws);
      ws.close(WS_CLOSE_TOO_SLOW, WS_CLOSE_TOO_SLOW_REASON);
      const cut = setTimeout(() => ws.terminate(), SLOW_CLOSE_GRACE_MS);
      cut.unref();
      ws.once('close', () => clearTimeout(cut));
      return;
    }
    ws.send(data);
  };
  const send = (ws: WebSocket, message: ServerMessage): void => {
    const data = JSON.stringify(message);
    sendData(ws, data, Buffer.byteLength(data));
  };

  const onMessage = (ws: WebSocket, raw: RawData, isBinary: boolean): void => {
    if (isBinary) return;
    let value: unknown;
    try {
      value = JSON.parse(raw.toString());
    } catch {
      return; // not JSON: ignored, as the protocol says
    }
    const parsed = ClientMessage.safeParse(value);
    if (!parsed.success) return;
    if (parsed.data.type === 'ping') {
      send(ws, parsed.data.id === undefined ? { type: 'pong' } : { type: 'pong', id: parsed.data.id });
    } else if (parsed.data.type === 'family-auth') {
      const state = clients.get(ws);
      if (!state) return;
      const { token } = parsed.data;
      const name = token && familyCheck ? familyCheck(token, true) : null;
      state.family = name && token ? { name, token } : null;
      send(ws, { type: 'family-auth', name });
    }
  };

  const onConnection = (ws: WebSocket): void => {
    const state: ClientState = { id: crypto.randomUUID(), alive: true, family: null };
    clients.set(ws, state);
    ws.on('pong', () => {
      state.alive = true;
    });
    ws.on('message', (raw, isBinary) => onMessage(ws, raw, isBinary));
    ws.on('error', (err) => logger.debug({ clientId: state.id, err: err.message }, 'WebSocket client error'));
    ws.on('close', () => clients.delete(ws));
    logger.debug({ clientId: state.id }, 'WebSocket client connected');
    send(ws, { type: 'hello', version: options.version, clientId: state.id });
  };

  const heartbeat = setInterval(() => {
    for (const [ws, state] of clients) {
      if (!state.alive) {
        logger.debug({ clientId: state.id }, 'WebSocket client missed a heartbeat');
        clients.delete(ws);
        ws.terminate();
        continue;
      }
      state.alive = false;
      ws.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();

  return {
    handleUpgrade(req, socket, head) {
      const refusal = closing ? 'SHUTTING_DOWN' : checkUpgrade(policy, req);
      if (refusal) {
        logger.debug(
          { code: refusal, host: req.headers.host, origin: req.headers.origin },
          'WebSocket upgrade refused',
        );
        refuseUpgrade(socket, refusal);
        return;
      }
      wss.handleUpgrade(req, socket, head, onConnection);
    },
    broadcast(message) {
      if (clients.size === 0) return;
      const data = JSON.stringify(message);
      const bytes = Buffer.byteLength(data);
      for (const ws of [...clients.keys()]) sendData(ws, data, bytes);
    },
    sendTo(clientId, message) {
      for (const [ws, state] of clients) {
        if (state.id !== clientId) continue;
        const data = JSON.stringify(message);
        sendData(ws, data, Buffer.byteLength(data));
        return true;
      }
      return false;
    },
    setFamilyAuth(check) {
      familyCheck = check;
    },
    sendToFamily(message) {
      const data = JSON.stringify(message);
      const bytes = Buffer.byteLength(data);
      let sent = 0;
      for (const [ws, state] of [...clients]) {
        if (!state.family) continue;
        if (!familyCheck || familyCheck(state.family.token, false) !== state.family.name) {
          state.family = null;
          send(ws, { type: 'family-auth', name: null });
          continue;
        }
        sendData(ws, data, bytes);
        sent++;
      }
      return sent;
    },
    get clientCount() {
      return clients.size;
    },
    async close() {
      closing = true;
      clearInterval(heartbeat);
      const open = [...clients.keys()];
      await Promise.all(
        open.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === WebSocket.CLOSED) return resolve();
              const timer = setTimeout(() => {
                ws.terminate();
                resolve();
              }, CLOSE_WAIT_MS);
              ws.once('close', () => {
                clearTimeout(timer);
                resolve();
              });
              ws.close(WS_CLOSE_GOING_AWAY, 'Forge is shutting down');
            }),
        ),
      );
      clients.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
