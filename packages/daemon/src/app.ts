import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type Express, type Router } from 'express';
import { FORGE_VERSION, MAX_JSON_BODY_BYTES, routes, WS_PATH, type DaemonConfigView } from '@forge/shared';
import { DEFAULT_BRAIN_SESSION_MINUTES, type DaemonConfig } from './config/schema.ts';
import { toConfigView } from './config/load-config.ts';
import { createHealthService, type HealthService } from './features/health/service.ts';
import { registerHealthRoutes } from './features/health/routes.ts';
import { registerConfigRoutes } from './features/config/routes.ts';
import { createSettingsService, type SettingsService } from './features/settings/service.ts';
import { registerSettingsRoutes } from './features/settings/routes.ts';
import { apiNotFound, errorMiddleware, notFound } from './http/error-middleware.ts';
import { ForgeError } from './http/forge-error.ts';
import {
  checkUpgrade,
  createSecurityPolicy,
  parseRequestTarget,
  type SecurityPolicy,
} from './http/security.ts';
import {
  admitsQuietly,
  baseHeaders,
  securityMiddleware,
  setBaseHeaders,
} from './http/security-middleware.ts';
import { loadShedding } from './http/load-shedding.ts';
import { answerParserErrors, jsonBody, wellFormedTarget } from './http/request-guards.ts';
import { startViteDev } from './http/vite-dev.ts';
import {
  devHtmlHeaders,
  resolveWebRoot,
  staticWeb,
  webFastPath,
  webFiles,
  type WebMode,
} from './features/web-app/serve-web.ts';
import { debugModeSwitch, redactUrl, type Logger } from './logging/logger.ts';
import type { Store } from './store/store.ts';
import type { ServerMessage } from '@forge/shared';
import { concurrencyOf, createFleet, type Fleet } from './engine/fleet/fleet.ts';
import { homeLayout, type HomeLayout } from './home-layout.ts';
import { createBuildRepo, type BuildRepo } from './engine/build-repo.ts';
import { createLogArchive } from './engine/log-archive.ts';
import { createBuildService, type BuildService } from './features/builds/service.ts';
import { registerBuildRoutes } from './features/builds/routes.ts';
import { registerArtifactRoutes } from './features/artifacts/routes.ts';
import { registerRebuildRoutes } from './features/artifacts/rebuild-routes.ts';
import { registerWhyRedRoutes } from './features/why-red/routes.ts';
import { registerHistoryRoutes } from './features/artifacts/history-routes.ts';
import { pruneHistory } from './engine/artifact-history.ts';
import { registerQueueRoutes } from './features/scale-out/routes.ts';
import { registerUploadRoutes } from './features/uploads/routes.ts';
import { registerProjectRoutes } from './features/projects/routes.ts';
import { registerBotRoutes } from './features/bots/routes.ts';
import { createPreviewRegistry, type PreviewRegistry } from './capabilities/preview/preview-registry.ts';
import { createHub, refuseUpgrade, type Hub } from './ws/hub.ts';
import { createFilesService, type FilesService } from './features/files/service.ts';
import { registerFileRoutes } from './features/files/routes.ts';
import { createAutoForge, type AutoForge } from './features/forge/auto-forge.ts';
import { createFlags } from './store/flags.ts';
import { registerForgeRoutes } from './features/forge/routes.ts';
import { registerOperationRoutes } from './features/forge/operations-routes.ts';
import { registerBrainRoutes } from './features/brain/routes.ts';
import { registerChatRoutes } from './features/chat/routes.ts';
import { registerMemoryRoutes } from './features/memory/routes.ts';
import { registerCodegenRoutes } from './features/codegen/routes.ts';
import { registerExtensionRoutes } from './features/extensions/routes.ts';
import { registerIntegrationRoutes } from './features/integration/routes.ts';
import { registerDynamicRoutes } from './features/dynamic-routes/routes.ts';
import { registerFamilyRoutes } from './features/family/routes.ts';
import { registerPackagingRoutes } from './features/packaging/routes.ts';
import { createRepairService, type RepairService } from './features/repairs/service.ts';
import { registerRepairRoutes } from './features/repairs/routes.ts';
import { createRepairJournal } from './capabilities/repair/journal.ts';
import type { ModelClient } from './capabilities/model/types.ts';
import { createModelClient } from './capabilities/model/openai.ts';

export interface AppDeps {
  config: Pick<DaemonConfig, 'host' | 'allowedHosts' | 'accessToken' | 'webRoot' | 'home'> &
    Partial<Pick<DaemonConfig, 'brain' | 'queue'>>;
  logger: Logger;
  store: Store;
  version?: string;
  now?: () => number;
  /** Default: the built web app (config webRoot, else @forge/web's dist). */
  web?: WebMode;
  socket?: { heartbeatMs?: number; maxBufferedBytes?: number };
  /** Run build commands inside bubblewrap when the machine has it (default true). */
  sandbox?: boolean;
  /** Create the "Forge" starter project when the home has no project at all (default true). */
  starterProject?: boolean;
  /**
   * The configuration the daemon runs with, as GET /api/config answers it (main passes the one it
   * loaded, with the port it listens on). Default: what `config` holds, defaults for the rest.
   */
  configView?: () => DaemonConfigView;
  /** Extra /api routes registered before the 404 (tests, and later features under development). */
  registerRoutes?: (router: Router, services: AppServices) => void;
}

export interface AppServices {
  health: HealthService;
  settings: SettingsService;
  fleet: Fleet;
  builds: BuildService;
  previews: PreviewRegistry;
  repo: BuildRepo;
  layout: HomeLayout;
  files: FilesService;
  autoForge: AutoForge;
  /** RepairBot: proposed and applied repairs, the journal, undo. */
  repairs: RepairService;
  /** The language model the user configured (brain.provider), or null: every assistant works without. */
  model: ModelClient | null;
  store: Store;
  logger: Logger;
  broadcast: (message: ServerMessage) => void;
  /** Send to one /ws connection (its hello `clientId`); false when it is gone. */
  sendTo: (clientId: string, message: ServerMessage) => boolean;
  /** The /ws hub: AuthBot signs family connections in and sends them the family chat. */
  familySockets: Pick<Hub, 'setFamilyAuth' | 'sendToFamily'>;
}

/** What a feature that keeps something running (a timer, a model call) hands back to be closed. */
export interface FeatureHandle {
  close?(): void | Promise<void>;
}

export interface ForgeApp {
  /** The request handler; pass it to http.createServer. */
  handle: RequestListener;
  /** The Express app behind `handle` (which answers the web app's files before it). */
  app: Express;
  hub: Hub;
  services: AppServices;
  policy: SecurityPolicy;
  /** Route WebSocket upgrades of `server` (and, in dev, start Vite with HMR on it). Call before listen. */
  attach(server: Server): Promise<void>;
  /** Refuse new requests, close WebSocket clients with 1001, stop Vite. Does not close the store. */
  close(): Promise<void>;
}

/**
 * Routes of the protocol that no feature has built yet answer 503 NOT_IMPLEMENTED (the catalogue's
 * "service unavailable" text), never a fake answer. Registered after the features, so a real
 * handler always wins.
 */
function registerNotImplemented(router: Router): void {
  for (const route of Object.values(routes)) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](route.path, () => {
      throw new ForgeError('NOT_IMPLEMENTED', undefined, { route: `${route.method} ${route.path}` });
    });
  }
}

/** The view of an app made without a loaded config (tests): its own fields, defaults for the rest. */
function defaultConfigView(config: AppDeps['config']): DaemonConfigView {
  return toConfigView({
    port: 0,
    logLevel: 'info',
    configFile: null,
    brain: { provider: null, sessionMinutes: DEFAULT_BRAIN_SESSION_MINUTES },
    queue: { kind: 'in-process', url: null },
    ...config,
    webRoot: config.webRoot ?? null,
  });
}

const VITE_PROTOCOLS = new Set(['vite-hmr', 'vite-ping']);

/** Build the daemon's HTTP app. It never listens: main.ts and the tests own the server. */
export function createApp(deps: AppDeps): ForgeApp {
  const { logger } = deps;
  const now = deps.now ?? Date.now;
  const version = deps.version ?? FORGE_VERSION;
  const policy = createSecurityPolicy(deps.config);
  const hub = createHub({ logger, version, policy, ...deps.socket });
  const broadcast = (m: ServerMessage) => hub.broadcast(m);
  const setDebugLogging = debugModeSwitch(logger);
  const settings = createSettingsService({
    store: deps.store,
    logger,
    broadcast,
    onChange: (s) => setDebugLogging(s.debugMode),
  });
  setDebugLogging(settings.get().debugMode);
  const layout = homeLayout(deps.config.home);
  const repo = createBuildRepo(deps.store, {
    logArchive: createLogArchive(layout.buildLogsDir, layout.tmpDir),
  });
  const fleet = createFleet({ broadcast, maxConcurrent: () => concurrencyOf(settings.get()) });
  const previews = createPreviewRegistry({ logger });
  const sandbox = deps.sandbox ?? true;
  const journal = createRepairJournal(deps.store);
  const builds = createBuildService({
    layout,
    repo,
    fleet,
    previews,
    logger,
    settings: settings.get,
    broadcast,
    sandbox,
    journal,
    queueUrl: deps.config.queue?.url ?? null,
  });
  const autoForge = createAutoForge({
    flags: createFlags(deps.store),
    repo,
    builds,
    fleet,
    logger,
    broadcast,
  });
  const files = createFilesService({
    layout,
    repo,
    logger,
    broadcast,
    onChange: autoForge.noteChange,
    starterProject: deps.starterProject ?? true,
  });
  const repairs = createRepairService({ layout, repo, builds, journal, logger, broadcast });
  const services: AppServices = {
    health: createHealthService({ version, startedAt: now(), now }),
    settings,
    fleet,
    builds,
    previews,
    repo,
    layout,
    files,
    autoForge,
    repairs,
    model: createModelClient(deps.config.brain?.provider, logger),
    store: deps.store,
    logger,
    broadcast,
    sendTo: (clientId, message) => hub.sendTo(clientId, message),
    familySockets: hub,
  };
  const web: WebMode = deps.web ?? { mode: 'static', root: resolveWebRoot(deps.config.webRoot) };
  let closing = false;
  let vite: { close(): Promise<void> } | undefined;

  /** Answers the fast path (below) took on: already logged and given their base headers. */
  const fastAnswered = new WeakSet<ServerResponse>();
  /** Every answer is logged at debug level (debugMode), whichever path answered it. */
  const logWhenDone = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const url = redactUrl(req.url ?? '');
    res.on('finish', () => {
      const ms = Math.round(performance.now() - started);
      logger.debug({ method: req.method, url, status: res.statusCode, ms }, 'request');
    });
  };

  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    if (!res.headersSent && !fastAnswered.has(res)) logWhenDone(req, res);
    if (!closing) return next();
    res.setHeader('Connection', 'close');
    next(new ForgeError('SHUTTING_DOWN'));
  });
  app.use(baseHeaders);
  app.use(securityMiddleware(policy));
  app.use('/api', loadShedding({ logger }));
  // The built web app first: its GETs skip the API's hundred routes (the static router passes
  // /api and /ws on untouched).
  const webAppFiles = web.mode === 'static' && web.root !== null ? webFiles(web.root) : undefined;
  if (web.mode === 'static') app.use(staticWeb(web.root, webAppFiles));

  app.use('/api', wellFormedTarget, jsonBody(MAX_JSON_BODY_BYTES));
  const api = express.Router();
  registerHealthRoutes(api, services);
  registerConfigRoutes(api, {
    configView: deps.configView ?? (() => defaultConfigView(deps.config)),
    version,
  });
  registerSettingsRoutes(api, services);
  registerUploadRoutes(api, { builds, layout });
  registerBuildRoutes(api, { builds, repo });
  registerArtifactRoutes(api, { builds, layout });
  registerWhyRedRoutes(api, { repo, layout });
  registerHistoryRoutes(api, { repo, layout, previews, settings: settings.get, broadcast, logger, sandbox });
  registerQueueRoutes(api, {
    builds,
    layout,
    previews,
    logger,
    journal,
    pruneHistory: (name, keptBuildId) =>
      pruneHistory({ repo, layout, name, keep: settings.get().keepArtifacts, alsoKeep: keptBuildId }),
  });
  registerProjectRoutes(api, { repo, layout, previews, logger });
  registerFileRoutes(api, { files });
  registerForgeRoutes(api, { autoForge });
  registerRepairRoutes(api, services);
  // IntegrationBot's and PackageBot's services are looked up when a card is pressed, not here.
  const botJobs = registerBotRoutes(api, { fleet, builds, repo, services });
  const features: FeatureHandle[] = [
    botJobs,
    registerRebuildRoutes(api, {
      builds,
      layout,
      logger,
      settings: settings.get,
      sandbox,
      store: deps.store,
    }),
    // First: AuthBot's guard must be in place before the routes it protects are registered.
    registerFamilyRoutes(api, services, deps),
    registerOperationRoutes(api, services, deps),
    registerBrainRoutes(api, services, deps),
    registerChatRoutes(api, services, deps),
    registerMemoryRoutes(api, services, deps),
    registerCodegenRoutes(api, services, deps),
    registerExtensionRoutes(api, services, deps),
    registerIntegrationRoutes(api, services, deps),
    registerPackagingRoutes(api, services, deps),
  ];
  registerDynamicRoutes(api, services);
  deps.registerRoutes?.(api, services);
  registerNotImplemented(api);
  app.use(api);
  app.use('/api', apiNotFound);

  const devRouter = express.Router();
  if (web.mode !== 'static') app.use(devHtmlHeaders, devRouter);
  app.use(notFound);
  app.use(errorMiddleware(logger));

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', (err) => logger.debug({ err: err.message }, 'upgrade socket error'));
    const url = parseRequestTarget(req.url);
    if (url.pathname === WS_PATH) return hub.handleUpgrade(req, socket, head);
    const protocol = req.headers['sec-websocket-protocol'];
    if (web.mode === 'dev' && protocol && VITE_PROTOCOLS.has(protocol)) {
      // Vite's own upgrade listener takes it from here, but only once our checks pass.
      const refusal = closing ? 'SHUTTING_DOWN' : checkUpgrade(policy, req);
      if (refusal) refuseUpgrade(socket, refusal);
      return;
    }
    logger.debug({ url: redactUrl(req.url ?? '') }, 'upgrade for an unknown path refused');
    socket.destroy();
  };

  // The page's own files (most of its requests) are answered before Express, after the same checks
  // and headers every request gets; whatever that path does not answer goes through Express.
  const fast = webAppFiles
    ? webFastPath(webAppFiles, (req, res) => {
        if (closing || !admitsQuietly(policy, req)) return false;
        fastAnswered.add(res);
        logWhenDone(req, res);
        setBaseHeaders(res);
        return true;
      })
    : null;
  const handle: RequestListener = fast ? (req, res) => fast(req, res, () => app(req, res)) : app;

  return {
    handle,
    app,
    hub,
    services,
    policy,
    async attach(server) {
      await builds.recover();
      answerParserErrors(server);
      server.on('upgrade', onUpgrade);
      if (web.mode !== 'dev') return;
      const devServer = await startViteDev({ root: web.root, configFile: web.configFile, server, logger });
      vite = devServer;
      devRouter.use(devServer.middlewares);
    },
    async close() {
      closing = true;
      autoForge.close();
      await Promise.all(features.map((f) => f.close?.()));
      await builds.shutdown();
      await Promise.all([hub.close(), vite?.close(), previews.stopAll(), files.close()]);
    },
  };
}
