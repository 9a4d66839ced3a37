import type { CancelReason } from '@forge/shared';
import type { Logger } from '../../logging/logger.ts';
import { startServerApp, type PortFound, type ServerAppOptions } from './server-app.ts';
import type { StaticSite } from '@forge/shared';
import type { SiteReport } from './site-answers.ts';
import { startStaticPreview, type StaticPreviewOptions } from './static-server.ts';
import { httpOrigin, startTcpRelay } from './tcp-relay.ts';

/**
 * PreviewBot's bookkeeping: at most one live preview per project. Starting a preview supersedes the
 * project's current one (it is stopped first, so two builds never answer on two URLs) and aborts a
 * start still in progress for that project (a server app waiting to listen).
 */

export type PreviewKind = 'static' | 'server';

/** A live preview. */
export interface PreviewInfo {
  /** Origin of the preview ("http://127.0.0.1:41234"). */
  url: string;
  kind: PreviewKind;
}

export interface PreviewRegistryOptions {
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** Address static previews listen on (default 127.0.0.1). */
  host?: string;
  /** Host-header guard for static previews (see `StaticPreviewOptions.isHostAllowed`). */
  isHostAllowed?: StaticPreviewOptions['isHostAllowed'];
}

/**
 * Server-app options. `signal` (e.g. the build's) cancels the start only: once the app listens it
 * belongs to the registry and ends by `stop`, `stopAll` or a newer preview of the project.
 */
export type RunServerOptions = ServerAppOptions;

/** A running server app's preview; `pid` is its process group, for a crash sweep at next start. */
export interface ServerPreviewInfo extends PreviewInfo {
  kind: 'server';
  pid: number;
  /** Set when the app ignored PORT and was found listening elsewhere (`url` is that address). */
  found?: PortFound;
}

/** A static preview started here, with what it applies (absent when it is served elsewhere). */
export interface StaticPreviewInfo extends PreviewInfo {
  site?: SiteReport;
}

/** How a static preview answers: the plan's `site` decision (see StaticPreviewOptions). */
export interface ServeStaticOptions {
  site?: StaticSite | null;
  /** For plans made before `site` was decided. */
  spaFallback?: boolean;
}

export interface PreviewRegistry {
  /** Serves `root` statically on a new port; resolves once it listens. */
  serveStatic(project: string, root: string, options?: ServeStaticOptions): Promise<StaticPreviewInfo>;
  /**
   * Runs a server app; resolves once it accepts connections (on PORT, or on the port it was found
   * listening on: `url` and `found` say so). Rejects as `startServerApp` does, or
   * with `PreviewCancelledError` when superseded, stopped or `options.signal` aborts first.
   */
  runServer(project: string, options: RunServerOptions): Promise<ServerPreviewInfo>;
  /**
   * Scale-out: the project's preview is a server app running elsewhere (on a worker): serve a port
   * here that relays to `target`. `onStop` is told when this preview ends (superseded, stopped).
   */
  relay(project: string, target: { host: string; port: number }, onStop: () => void): Promise<PreviewInfo>;
  get(project: string): StaticPreviewInfo | null;
  /** Stops the project's preview (and a start in progress); false when there was none. */
  stop(project: string): Promise<boolean>;
  /** Stops every preview, e.g. on daemon shutdown. */
  stopAll(): Promise<void>;
}

/** Why a preview start did not complete: a newer start, a stop, or shutdown came first. */
export class PreviewCancelledError extends Error {
  override readonly name = 'PreviewCancelledError';
  constructor(readonly reason: CancelReason) {
    super(`The preview start was cancelled (${reason}).`);
  }
}

interface Entry extends PreviewInfo {
  pid?: number;
  site?: SiteReport;
  found?: PortFound;
  stop(reason: CancelReason): Promise<void>;
}

/** What callers see of a live preview. */
const infoOf = (entry: Entry): StaticPreviewInfo => ({
  url: entry.url,
  kind: entry.kind,
  ...(entry.site ? { site: entry.site } : {}),
});

/** The CancelReason an abort carries (a CancelReason string or an object with one), else "user". */
const reasonOf = (signal: AbortSignal): CancelReason => {
  const given: unknown = signal.reason;
  const value = typeof given === 'object' && given !== null && 'reason' in given ? given.reason : given;
  return value === 'superseded' || value === 'timeout' || value === 'shutdown' ? value : 'user';
};

export function createPreviewRegistry(options: PreviewRegistryOptions = {}): PreviewRegistry {
  const { logger } = options;
  const live = new Map<string, Entry>();
  /** Starts in progress, to abort when superseded or stopped. */
  const starting = new Map<string, AbortController>();
  /** Per project, the tail of its operations: they run one after another. */
  const queues = new Map<string, Promise<unknown>>();

  const enqueue = <T>(project: string, operation: () => Promise<T>): Promise<T> => {
    const previous = queues.get(project) ?? Promise.resolve();
    const run = previous.then(operation, operation);
    const tail = run.catch(() => undefined);
    queues.set(project, tail);
    void tail.then(() => {
      if (queues.get(project) === tail) queues.delete(project);
    });
    return run;
  };

  const stopLive = async (project: string, reason: CancelReason): Promise<boolean> => {
    const entry = live.get(project);
    if (!entry) return false;
    live.delete(project);
    try {
      await entry.stop(reason);
      logger?.info({ project, url: entry.url, kind: entry.kind, reason }, 'preview stopped');
    } catch (error) {
      logger?.warn({ project, url: entry.url, err: error }, 'preview did not stop cleanly');
    }
    return true;
  };

  const start = (
    project: string,
    startEntry: (signal: AbortSignal) => Promise<Entry>,
    outer?: AbortSignal,
  ): Promise<Entry> => {
    // Supersede a start still waiting in line or in progress; it rejects with "superseded".
    starting.get(project)?.abort(new PreviewCancelledError('superseded'));
    const controller = new AbortController();
    starting.set(project, controller);
    const onOuterAbort = () => controller.abort(new PreviewCancelledError(reasonOf(outer!)));
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    return enqueue(project, async () => {
      try {
        controller.signal.throwIfAborted();
        await stopLive(project, 'superseded');
        const entry = await startEntry(controller.signal);
        if (controller.signal.aborted) {
          // Superseded while it started: it never becomes the project's preview.
          await entry.stop('superseded');
          controller.signal.throwIfAborted();
        }
        live.set(project, entry);
        logger?.info({ project, url: entry.url, kind: entry.kind }, 'preview started');
        return entry;
      } finally {
        outer?.removeEventListener('abort', onOuterAbort);
        if (starting.get(project) === controller) starting.delete(project);
      }
    });
  };

  return {
    async serveStatic(project, root, staticOptions = {}) {
      const entry = await start(project, async () => {
        const server = await startStaticPreview({
          root,
          ...(options.host !== undefined ? { host: options.host } : {}),
          ...(options.isHostAllowed ? { isHostAllowed: options.isHostAllowed } : {}),
          ...(staticOptions.spaFallback !== undefined ? { spaFallback: staticOptions.spaFallback } : {}),
          ...(staticOptions.site !== undefined ? { site: staticOptions.site } : {}),
        });
        return { url: server.url, kind: 'static', site: server.site, stop: () => server.close() };
      });
      return infoOf(entry);
    },

    async runServer(project, { signal: outer, ...serverOptions }) {
      const entry = await start(
        project,
        async (signal) => {
          const app = await startServerApp({ ...serverOptions, signal });
          const started: Entry = {
            url: app.url,
            kind: 'server',
            pid: app.pid,
            ...(app.found ? { found: app.found } : {}),
            stop: (reason) => app.stop(reason),
          };
          void app.exited.then((result) => {
            // An app that dies on its own is no longer a preview; one we stopped is already gone.
            if (live.get(project) !== started) return;
            live.delete(project);
            logger?.warn(
              { project, url: app.url, exitCode: result.exitCode, signal: result.signal },
              'preview app exited',
            );
          });
          return started;
        },
        outer,
      );
      return {
        url: entry.url,
        kind: 'server',
        pid: entry.pid!,
        ...(entry.found ? { found: entry.found } : {}),
      };
    },

    async relay(project, target, onStop) {
      const entry = await start(project, async () => {
        const relay = await startTcpRelay({ host: options.host ?? '127.0.0.1' }, target);
        return {
          url: httpOrigin(relay.host, relay.port),
          kind: 'server',
          stop: async () => {
            await relay.close();
            onStop();
          },
        };
      });
      return { url: entry.url, kind: entry.kind };
    },

    get(project) {
      const entry = live.get(project);
      return entry ? infoOf(entry) : null;
    },

    stop(project) {
      starting.get(project)?.abort(new PreviewCancelledError('user'));
      return enqueue(project, () => stopLive(project, 'user'));
    },

    async stopAll() {
      for (const controller of starting.values()) controller.abort(new PreviewCancelledError('shutdown'));
      await Promise.all([...queues.values()]);
      await Promise.all([...live.keys()].map((project) => stopLive(project, 'shutdown')));
    },
  };
}
