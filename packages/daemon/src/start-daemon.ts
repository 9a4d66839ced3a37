import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { FORGE_VERSION, SHUTDOWN_GRACE_MS } from '@forge/shared';
import { createApp } from './app.ts';
import type { DaemonConfig } from './config/schema.ts';
import { toConfigView } from './config/load-config.ts';
import { resolveWebPackageDir, type WebMode } from './features/web-app/serve-web.ts';
import { sweepScratch } from './fs/atomic-write.ts';
import { homeLayout } from './home-layout.ts';
import { createLogger } from './logging/logger.ts';
import { openStore, STORE_FILE } from './store/store.ts';
import { acquireInstanceLock } from './lifecycle/instance-lock.ts';
import {
  healthAnswers,
  isPidAlive,
  readStateFile,
  removeStateFile,
  stateFilePath,
  writeStateFile,
} from './lifecycle/state-file.ts';
import { daemonUrl, isLoopbackHost, listenHost } from './lifecycle/urls.ts';
import { evictionWarning, openRedis } from './features/scale-out/redis.ts';

/** A refusal to start, with the message the user sees and the exit code. */
export class StartError extends Error {
  override readonly name = 'StartError';
}

export interface RunningDaemon {
  url: string;
  port: number;
  /** Graceful stop: refuse new work, close sockets with 1001, close the store, remove daemon.json. */
  stop(reason: string): Promise<void>;
}

export interface StartOptions {
  config: DaemonConfig;
  dev: boolean;
  /** Pretty logs on the terminal. */
  pretty: boolean;
}

async function refuseIfRunning(home: string): Promise<void> {
  const state = readStateFile(home);
  if (state && state.pid !== process.pid && isPidAlive(state.pid) && (await healthAnswers(state.url))) {
    throw new StartError(`Forge is already running at ${state.url} (pid ${state.pid}).`);
  }
}

function listen(server: http.Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        reject(
          new StartError(
            `Port ${port} on ${host} is already in use. Pick another with --port or FORGE_PORT.`,
          ),
        );
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
        reject(new StartError(`Cannot bind to host "${host}" (${err.code}).`));
      else reject(err);
    };
    server.once('error', onError);
    server.listen(port, listenHost(host), () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Bring the daemon up: checks, lock, store, app, listen, state file. */
export async function startDaemon({ config, dev, pretty }: StartOptions): Promise<RunningDaemon> {
  if (!isLoopbackHost(config.host) && !config.accessToken) {
    throw new StartError(
      `Refusing to listen on ${config.host} without an access token: anyone on the network could run code here. ` +
        'Set FORGE_TOKEN (or accessToken in forge.config), or bind to 127.0.0.1.',
    );
  }
  fs.mkdirSync(config.home, { recursive: true });
  const lock = acquireInstanceLock(config.home);
  if (!lock) {
    const state = readStateFile(config.home);
    throw new StartError(
      state
        ? `Forge is already running at ${state.url} (pid ${state.pid}).`
        : `Another Forge daemon is using ${config.home} (it holds ${path.join(config.home, 'daemon.lock')}).`,
    );
  }
  const cleanups: Array<() => void> = [() => lock.release()];
  const cleanup = () => {
    for (const fn of cleanups.reverse()) fn();
    cleanups.length = 0;
  };
  try {
    await refuseIfRunning(config.home);
    const log = createLogger({ home: config.home, level: config.logLevel, pretty });
    cleanups.push(() => log.close());
    const { logger } = log;
    // We hold the lock: whatever is in tmp/ was left by a daemon killed mid-work. Gone before any new work.
    const swept = sweepScratch(homeLayout(config.home).tmpDir);
    if (swept) logger.info({ entries: swept }, 'removing what a stopped daemon left in tmp');
    if (config.queue.url !== null) {
      // A coordinator without its queue would take uploads it cannot hand to anyone: refuse to start.
      const probe = await openRedis(config.queue.url, 'forge-coordinator-probe').catch((err: unknown) => {
        throw new StartError(
          `${(err as Error).message}. Start Redis, or unset FORGE_QUEUE_URL (queue in forge.config) to build in this daemon.`,
        );
      });
      const warning = await evictionWarning(probe);
      probe.disconnect();
      if (warning) {
        logger.warn(warning);
        process.stderr.write(`Warning: ${warning}\n`);
      }
    }
    const store = openStore(path.join(config.home, STORE_FILE));
    cleanups.push(() => store.close());

    let web: WebMode | undefined;
    if (dev) {
      const root = resolveWebPackageDir();
      if (!root) throw new StartError('--dev needs the @forge/web workspace package (run pnpm install).');
      web = { mode: 'dev', root };
    }
    let port = config.port;
    const forge = createApp({
      config,
      logger,
      store,
      version: FORGE_VERSION,
      configView: () => ({ ...toConfigView(config), port }),
      ...(web ? { web } : {}),
    });
    const server = http.createServer({ keepAliveTimeout: 5_000 }, forge.handle);
    await forge.attach(server);
    const address = await listen(server, config.port, config.host);
    port = address.port;
    const url = daemonUrl(config.host, address.port);
    await writeStateFile(config.home, {
      pid: process.pid,
      port: address.port,
      host: config.host,
      url,
      version: FORGE_VERSION,
      startedAt: new Date().toISOString(),
    });
    cleanups.push(() => removeStateFile(config.home, process.pid));
    logger.info(
      { url, host: config.host, port: address.port, home: config.home, dev },
      'Forge daemon listening',
    );

    let stopping: Promise<void> | undefined;
    const stop = (reason: string): Promise<void> => {
      stopping ??= (async () => {
        logger.info({ reason }, 'Forge daemon stopping');
        // In-flight requests get half the grace period; then every connection is cut.
        const cutOff = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS / 2);
        cutOff.unref();
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await forge.close();
        await serverClosed;
        clearTimeout(cutOff);
        logger.info('Forge daemon stopped');
        cleanup();
      })();
      return stopping;
    };
    return { url, port: address.port, stop };
  } catch (err) {
    cleanup();
    throw err;
  }
}

export { stateFilePath };
