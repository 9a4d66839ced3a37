import type { Server } from 'node:http';
import { stripVTControlCharacters } from 'node:util';
import type { Connect, Logger as ViteLogger } from 'vite';
import type { Logger } from '../logging/logger.ts';

export interface ViteDev {
  middlewares: Connect.Server;
  close(): Promise<void>;
}

/** Vite's messages go to the daemon log, so `run --dev` keeps stdout to its one line. */
function viteLogger(logger: Logger): ViteLogger {
  const warned = new Set<string>();
  const errors = new WeakSet<object>();
  const clean = (msg: string) => stripVTControlCharacters(msg).trim();
  const self: ViteLogger = {
    hasWarned: false,
    info: (msg) => logger.info({ source: 'vite' }, clean(msg)),
    warn: (msg) => {
      self.hasWarned = true;
      logger.warn({ source: 'vite' }, clean(msg));
    },
    warnOnce: (msg) => {
      if (warned.has(msg)) return;
      warned.add(msg);
      self.warn(msg);
    },
    error: (msg, options) => {
      if (options?.error) errors.add(options.error);
      logger.error({ source: 'vite', err: options?.error }, clean(msg));
    },
    clearScreen: () => undefined,
    hasErrorLogged: (error) => errors.has(error),
  };
  return self;
}

/**
 * Vite in middleware mode on the daemon's own server: HMR upgrades arrive on the same port
 * (app.ts lets them through after its Host/Origin/token checks). vite is a devDependency, so it
 * is imported only here, only for `run --dev`.
 */
export async function startViteDev(options: {
  root: string;
  configFile?: string | false;
  server: Server;
  logger: Logger;
}): Promise<ViteDev> {
  const { createServer } = await import('vite');
  return createServer({
    root: options.root,
    configFile: options.configFile,
    appType: 'spa',
    clearScreen: false,
    customLogger: viteLogger(options.logger),
    server: {
      middlewareMode: true,
      ws: { server: options.server },
      // Host checks are the daemon's; CORS stays off as everywhere else in Forge.
      allowedHosts: true,
      cors: false,
    },
  });
}
