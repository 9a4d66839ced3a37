import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import express, { type Express, type Router } from 'express';
import {
  FORGE_VERSION,
  MAX_JSON_BODY_BYTES,
  routes,
  WS_PATH,
  type DaemonConfigView,
  type ServerMessage,
} from '@forge/shared';
import { DEFAULT_BRAIN_SESSION_MINUTES, type DaemonConfig } from './config/schema.ts';
import { toConfigView } from './config/load-config.ts';
import { createHealthService } from './features/health/service.ts';
import { registerHealthRoutes } from './features/health/routes.ts';
import { registerConfigRoutes } from './features/config/routes.ts';
import { createSettingsService } from './features/settings/service.ts';
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
import { concurrencyOf, createFleet } from './engine/fleet/fleet.ts';
import { homeLayout } from './home-layout.ts';
import { createBuildRepo } from './engine/build-repo.ts';
import { createLogArchive } from './engine/log-archive.ts';
import { createBuildService } from './features/builds/service.ts';
import { registerBuildRoutes } from './features/builds/routes.ts';
import { registerArtifactRoutes } from './features/artifacts/routes.ts';
import { registerRebuildRoutes } from './features/artifacts/rebuild-routes.ts';
import { createRebuilds } from './features/artifacts/rebuild.ts';
import { registerWhyRedRoutes } from './features/why-red/routes.ts';
import { registerHistoryRoutes } from './features/artifacts/history-routes.ts';
import { pruneHistory } from './engine/artifact-history.ts';
import { registerQueueRoutes } from './features/scale-out/routes.ts';
import { registerUploadRoutes } from './features/uploads/routes.ts';
import { registerProjectRoutes } from './features/projects/routes.ts';
import { registerBotRoutes } from './features/bots/routes.ts';
import { logRotationFromEnv, scheduleLogRotation } from './features/bots/jobs.ts';
import { createPreviewRegistry } from './capabilities/preview/preview-registry.ts';
import { createHub, refuseUpgrade, type Hub } from './ws/hub.ts';
import { createFilesService } from './features/files/service.ts';
import { registerFileRoutes } from './features/files/routes.ts';
import { createAutoForge, type AutoForge } from './features/auto-rebuild/auto-forge.ts';
import { registerAutoRebuildRoutes } from './features/auto-rebuild/routes.ts';
import { createFlags } from './store/flags.ts';
import type { OperationDeps } from './features/assistant/operations.ts';
import { registerAssistantRoutes } from './features/assistant/routes.ts';
import { createHealthBot, type HealthBot } from './features/health/health-bot.ts';
import { createBrain, type Brain } from './features/brain/brain.ts';
import { registerBrainRoutes } from './features/brain/routes.ts';
import { createChat, type Chat } from './features/chat/service.ts';
import { registerChatRoutes } from './features/chat/routes.ts';
import { createMemoryService, type MemoryService } from './features/memory/service.ts';
import { registerMemoryRoutes } from './features/memory/routes.ts';
import { createCodegenService, type CodegenService } from './features/codegen/service.ts';
import { registerCodegenRoutes } from './features/codegen/routes.ts';
import { bundledExtensionsDir } from './features/extensions/bundled.ts';
import { createExtensionService, type ExtensionService } from './features/extensions/service.ts';
import { registerExtensionRoutes } from './features/extensions/routes.ts';
import { createIntegrationService, type IntegrationService } from './features/integration/service.ts';
import { registerIntegrationRoutes } from './features/integration/routes.ts';
import { registerDynamicRoutes } from './features/dynamic-routes/routes.ts';
import { createFamilyService, type FamilyService } from './features/family/service.ts';
import { registerFamilyRoutes } from './features/family/routes.ts';
import { createPackagingService, type PackagingService } from './features/packaging/service.ts';
import { registerPackagingRoutes } from './features/packaging/routes.ts';
import { createRepairService } from './features/repairs/service.ts';
import { registerRepairRoutes } from './features/repairs/routes.ts';
import { createRepairJournal } from './capabilities/repair/journal.ts';
import { createModelClient } from './capabilities/model/openai.ts';
import type { CoreServices, FeatureHandle } from './features/services.ts';

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

/**
 * Every service of the daemon, built by createApp before any route is registered. Features are
 * handed the few they need (their own `XDeps`); tests and `registerRoutes` get them all.
 */
export interface AppServices extends CoreServices {
  /** Auto-Forge: rebuilds a project when its files change (features/auto-rebuild). */
  autoForge: AutoForge;
  /** AuthBot: family accounts, tokens, the family chat and audit log; its `require` guards family-only routes. */
  family: FamilyService;
  /** MemoryBot's cells, shared by the memory routes and the brain. */
  memory: MemoryService;
  /** HealthBot's rounds (started with the app, stopped when it closes). */
  healthBot: HealthBot;
  brain: Brain;
  chat: Chat;
  codegen: CodegenService;
  extensions: ExtensionService;
  integration: IntegrationService;
  packaging: PackagingService;
  /** The /ws hub: AuthBot signs family connections in and sends them the family chat. */
  familySockets: Pick<Hub, 'setFamilyAuth' | 'sendToFamily'>;
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
  const { store } = deps;

  // 1. Every service, each built from the ones before it. Nothing here depends on a route.
  const settings = createSettingsService({
    store,
    logger,
    broadcast,
    onChange: (s) => setDebugLogging(s.debugMode),
  });
  setDebugLogging(settings.get().debugMode);
  const layout = homeLayout(deps.config.home);
  // One repository over the flags table: Auto-Forge's switch, the brain's phrases, the chosen project.
  const flags = createFlags(store);
  const repo = createBuildRepo(store, {
    logArchive: createLogArchive(layout.buildLogsDir, layout.tmpDir),
    flags,
  });
  const fleet = createFleet({ broadcast, maxConcurrent: () => concurrencyOf(settings.get()) });
  const previews = createPreviewRegistry({ logger });
  const sandbox = deps.sandbox ?? true;
  const journal = createRepairJournal(store);
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
  const autoForge = createAutoForge({ flags, repo, builds, fleet, logger, broadcast });
  const files = createFilesService({
    layout,
    repo,
    logger,
    broadcast,
    onChange: autoForge.noteChange,
    starterProject: deps.starterProject ?? true,
  });
  const repairs = createRepairService({ layout, repo, builds, journal, logger, broadcast });
  const rebuilds = createRebuilds({ builds, layout, logger, settings: settings.get, sandbox, store });
  const model = createModelClient(deps.config.brain?.provider, logger);
  const core: CoreServices = {
    health: createHealthService({ version, startedAt: now(), now }),
    settings,
    fleet,
    builds,
    previews,
    repo,
    layout,
    files,
    repairs,
    model,
    store,
    logger,
    broadcast,
    sendTo: (clientId, message) => hub.sendTo(clientId, message),
  };

  const family = createFamilyService({ store, fleet, logger, now });
  hub.setFamilyAuth((token, touch) => family.nameOfToken(token, touch));
  const memory = createMemoryService({ store, fleet, now });
  const healthBot = createHealthBot(core);
  const assistant = { ...core, sandbox, healthBot } satisfies OperationDeps;
  const brain = createBrain({
    ...core,
    flags,
    memory,
    now,
    sessionMinutes: deps.config.brain?.sessionMinutes ?? DEFAULT_BRAIN_SESSION_MINUTES,
  });
  const chat = createChat({ ...assistant, brain });
  // Read from `services` at each request, so a test can swap in its own model client.
  const codegen = createCodegenService({ fleet, logger, model: () => services.model });
  const extensions = createExtensionService({
    extensionsDir: path.join(layout.home, 'extensions'),
    tmpDir: layout.tmpDir,
    store,
    fleet,
    logger,
    bundledDir: bundledExtensionsDir(),
  });
  const integration = createIntegrationService(core);
  const packaging = createPackagingService({
    fleet,
    logger,
    home: layout.home,
    version,
    extensions: () =>
      extensions
        .list()
        .flatMap((e) => (e.version === undefined ? [] : [{ name: e.name, version: e.version }])),
    onPackaged: (archive, actor) =>
      family.audit('package', actor, `${archive.name} (${archive.bytes} bytes)`),
  });
  const services: AppServices = {
    ...core,
    autoForge,
    family,
    memory,
    healthBot,
    brain,
    chat,
    codegen,
    extensions,
    integration,
    packaging,
    familySockets: hub,
  };

  // What keeps running in the background, stopped by close().
  healthBot.start();
  // The apps published before this start are served again, in the background.
  void integration.start();
  const rotation = logRotationFromEnv();
  const shutdown = new AbortController();
  const running: FeatureHandle[] = [
    scheduleLogRotation(assistant, rotation),
    rebuilds,
    { close: () => hub.setFamilyAuth(null) },
    { close: () => healthBot.stop() },
    brain,
    chat,
    { close: () => shutdown.abort(new Error('The daemon is shutting down.')) },
    extensions,
    integration,
    // A shutdown waits for the archive in progress, so no half-written tmp file is left behind.
    { close: () => packaging.idle() },
  ];

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
  // 2. The routes, each given what it needs. They only register handlers, so their order is free;
  // registerNotImplemented comes last so that a real handler always wins.
  const api = express.Router();
  registerHealthRoutes(api, core);
  registerConfigRoutes(api, {
    configView: deps.configView ?? (() => defaultConfigView(deps.config)),
    version,
  });
  registerSettingsRoutes(api, core);
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
  registerAutoRebuildRoutes(api, { autoForge });
  registerRepairRoutes(api, core);
  registerBotRoutes(api, { ...assistant, integration, packaging, rotation });
  registerRebuildRoutes(api, { rebuilds });
  registerFamilyRoutes(api, { family, familySockets: hub });
  registerAssistantRoutes(api, assistant);
  registerBrainRoutes(api, { brain, repo, layout });
  registerChatRoutes(api, { chat, brain, repo, layout });
  registerMemoryRoutes(api, { memory, family });
  registerCodegenRoutes(api, { codegen, shutdown: shutdown.signal });
  registerExtensionRoutes(api, { extensions, family, tmpDir: layout.tmpDir });
  registerIntegrationRoutes(api, { integration, family, repo, layout });
  registerPackagingRoutes(api, { packaging, family, logger });
  registerDynamicRoutes(api, { extensions, integration });
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
      await Promise.all(running.map((f) => f.close?.()));
      await builds.shutdown();
      await Promise.all([hub.close(), vite?.close(), previews.stopAll(), files.close()]);
    },
  };
}
