import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { WebSocket, type ClientOptions } from 'ws';
import { ServerMessage } from '@forge/shared';
import { createApp, type AppDeps, type ForgeApp } from '../src/app.ts';
import { openStore, STORE_FILE, type Store } from '../src/store/store.ts';

const cleanups: Array<() => Promise<void> | void> = [];

/** Run registered cleanups (servers, sockets, temp dirs); call from afterEach. */
export async function cleanup(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!();
}

/**
 * A fresh temp folder, removed at cleanup by an `rm -rf` left to run on its own: a FORGE_HOME with a
 * few installs holds tens of thousands of files, and deleting them in the test's process (or
 * awaiting it) can outlast a hook's timeout on a busy disk.
 */
export function tempDir(prefix = 'forge-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => removeInBackground(dir));
  return dir;
}

function removeInBackground(dir: string): void {
  // Renamed first, so nothing can write into it again under its name while it goes.
  const gone = `${dir}.removing`;
  try {
    fs.renameSync(dir, gone);
  } catch {
    return fs.rmSync(dir, { recursive: true, force: true });
  }
  spawn('rm', ['-rf', '--', gone], { detached: true, stdio: 'ignore' })
    .on('error', () => fs.rmSync(gone, { recursive: true, force: true }))
    .unref();
}

/** A pino logger that keeps its JSON lines in memory. */
export function memoryLogger(level: string = 'debug'): {
  logger: Logger;
  lines: () => Array<Record<string, unknown>>;
} {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ level }, stream);
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

export interface TestApp {
  url: string;
  port: number;
  home: string;
  forge: ForgeApp;
  store: Store;
  server: http.Server;
  logLines: () => Array<Record<string, unknown>>;
  /** Stop this app early (e.g. to restart on the same home). */
  stop(): Promise<void>;
}

export interface TestAppOptions extends Partial<Omit<AppDeps, 'config' | 'logger' | 'store'>> {
  home?: string;
  /** Level of the app's in-memory log (default debug). */
  logLevel?: string;
  config?: Partial<AppDeps['config']>;
}

/** createApp on 127.0.0.1:0 with a temporary FORGE_HOME, as the daemon would run it. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { home: givenHome, config, logLevel, ...rest } = options;
  const home = givenHome ?? tempDir('forge-home-');
  const store = openStore(path.join(home, STORE_FILE));
  const { logger, lines } = memoryLogger(logLevel);
  const forge = createApp({
    config: { host: '127.0.0.1', allowedHosts: [], accessToken: null, webRoot: null, home, ...config },
    logger,
    store,
    web: { mode: 'static', root: null },
    // Most tests want an empty home; the starter project has its own tests.
    starterProject: false,
    ...rest,
  });
  const server = http.createServer(forge.handle);
  await forge.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await forge.close();
    await closed;
    store.close();
  };
  cleanups.push(stop);
  return { url: `http://127.0.0.1:${port}`, port, home, forge, store, server, logLines: lines, stop };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: () => unknown;
}

/** node:http request, so tests can send any Host/Origin header (fetch forbids setting Host). */
export function rawRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: Object.fromEntries(
          Object.entries(options.headers ?? {}).filter(([k, v]) => k !== 'host' || v !== ''),
        ),
        agent: false,
        // An empty host header means "send none at all".
        setHost: options.headers?.host !== '',
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A WebSocket client that queues parsed server messages so tests can await them in order. */
export interface TestSocket {
  ws: WebSocket;
  next<T extends ServerMessage['type']>(type: T): Promise<Extract<ServerMessage, { type: T }>>;
  closed: Promise<{ code: number; reason: string }>;
}

export function openSocket(url: string, options: ClientOptions = {}): Promise<TestSocket> {
  const ws = new WebSocket(url.replace(/^http/, 'ws') + (url.includes('/ws') ? '' : '/ws'), options);
  const queue: ServerMessage[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    queue.push(ServerMessage.parse(JSON.parse(data.toString())));
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const next = async <T extends ServerMessage['type']>(type: T) => {
    for (;;) {
      const index = queue.findIndex((m) => m.type === type);
      if (index >= 0) return queue.splice(index, 1)[0] as Extract<ServerMessage, { type: T }>;
      await new Promise<void>((resolve, reject) => {
        waiters.push(resolve);
        void closed.then(() => reject(new Error(`socket closed while waiting for ${type}`)));
      });
    }
  };
  cleanups.push(() => {
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate();
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, next, closed }));
    ws.once('error', reject);
  });
}

/** Attempt an upgrade and report the HTTP status of a refusal (or 101 when accepted). */
export function upgradeStatus(
  url: string,
  options: ClientOptions = {},
  protocols: string[] = [],
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (result: { status: number; body: string }) => {
      settled = true;
      resolve(result);
    };
    const ws = new WebSocket(url.replace(/^http/, 'ws'), protocols, options);
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => settle({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    ws.on('open', () => {
      ws.terminate();
      settle({ status: 101, body: '' });
    });
    ws.on('error', (err) => {
      if (!settled) reject(err);
    });
  });
}

export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

/**
 * Environment for a spawned process whose HOME is a scratch folder: npm run by the test itself
 * (install.sh's `npm install`) uses this user's npm cache. A daemon's builds do not: their package
 * managers' caches are FORGE_HOME/caches (capabilities/exec/build-home.ts), filled from the registry.
 */
export function userPackageCaches(): Record<string, string> {
  const home = os.homedir();
  return {
    npm_config_cache: process.env.npm_config_cache ?? path.join(home, '.npm'),
    XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? path.join(home, '.cache'),
    XDG_DATA_HOME: process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'),
  };
}
