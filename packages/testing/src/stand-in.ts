import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  BOT_ROSTER,
  FINAL_STAGE,
  type FinishedStatus,
  errorBody,
  FORGE_VERSION,
  type Blueprint,
  type Build,
  type BuildError,
  type BuildLogsResponse,
  type ErrorCode,
  type ServerMessage,
  type Stage,
} from '@forge/shared';
import { WebSocketServer, type WebSocket } from 'ws';
import { at, makeBuild, makeStep } from './builds.ts';

type LogEntry = BuildLogsResponse['entries'][number];

export interface ReceivedUpload {
  /** The multipart body as received. */
  body: Buffer;
  query: URLSearchParams;
  contentLength: string | undefined;
}

export const STAND_IN_PLAN: Blueprint = {
  kind: 'static',
  framework: 'static',
  hasPackageJson: false,
  packageManager: null,
  install: null,
  build: null,
  test: null,
  start: null,
  outputDir: '.',
  env: {},
  timeoutMs: 600_000,
  toolchain: null,
  node: null,
  appDir: '.',
  installDir: '.',
  apps: [],
  site: { spa: true, cleanUrls: false, trailingSlash: null, rules: [] },
  decisions: [
    { field: 'kind', value: 'static', file: 'index.html', rule: 'index.html at the root, no package.json' },
  ],
};

/** The error each unsuccessful ending records, as the daemon words it. */
const FINISH_ERRORS: Record<Exclude<FinishedStatus, 'succeeded'>, BuildError> = {
  failed: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
  'timed-out': { code: 'STAGE_TIMEOUT', message: 'build timed out: npm run build' },
  cancelled: { code: 'CANCELLED', message: 'The build was cancelled.' },
  interrupted: {
    code: 'BUILD_INTERRUPTED',
    message: 'The Forge daemon stopped while this build was running.',
  },
};

/**
 * A route a test adds to the stand-in: it answers and resolves true, or resolves false to let the
 * next route (and finally the built-in ones) answer.
 */
export type StandInRoute = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => boolean | Promise<boolean>;

/**
 * A stand-in for the daemon speaking the shared protocol over real HTTP and a real /ws, with builds
 * the test moves on step by step: the spawned `forge` is tested against exact, repeatable timelines
 * (an event lost, a socket dropped) that the real daemon cannot be made to produce on demand.
 */
export class StandIn {
  readonly builds = new Map<string, Build>();
  readonly logs = new Map<string, LogEntry[]>();
  /** GET /api/builds/:id answered so far. */
  buildReads = 0;
  /** Answer for the next uploads: a refusal instead of a build. */
  refuseUploads: ErrorCode | undefined;
  /** Routes a test adds (the assistants' …), tried in order before the built-in ones. */
  readonly routes: StandInRoute[] = [];
  private readonly sockets = new Set<WebSocket>();
  private uploadWaiters: ((upload: ReceivedUpload) => void)[] = [];
  private uploads: ReceivedUpload[] = [];
  private counter = 0;

  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly server: Server = createServer((req, res) => {
    this.handle(req, res).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(JSON.stringify(errorBody('INTERNAL', String(err))));
    });
  });
  url = '';

  static async start(): Promise<StandIn> {
    const standIn = new StandIn();
    standIn.server.on('upgrade', (req, socket, head) => {
      standIn.wss.handleUpgrade(req, socket, head, (ws) => {
        standIn.sockets.add(ws);
        ws.on('close', () => standIn.sockets.delete(ws));
        ws.send(JSON.stringify({ type: 'hello', version: FORGE_VERSION, clientId: 'c' }));
      });
    });
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    standIn.url = `http://127.0.0.1:${(standIn.server.address() as { port: number }).port}`;
    return standIn;
  }

  /** Resolves with the next upload the stand-in answers (or one already answered and not taken). */
  nextUpload(): Promise<ReceivedUpload> {
    const ready = this.uploads.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.uploadWaiters.push(resolve));
  }

  /** A build of `projectName`, running, at stage `starting`. */
  addBuild(projectName = 'site', overrides: Partial<Build> = {}): Build {
    const id = `b${++this.counter}`;
    const build = { ...makeBuild({ id, projectName }), createdAt: new Date().toISOString(), ...overrides };
    build.stages = [{ stage: 'starting', at: build.createdAt }];
    this.builds.set(id, build);
    this.logs.set(id, []);
    return build;
  }

  broadcast(message: ServerMessage): void {
    for (const ws of this.sockets) ws.send(JSON.stringify(message));
  }

  /** Cut every /ws connection (the client reconnects after 3 s). */
  dropSockets(): void {
    for (const ws of this.sockets) ws.terminate();
  }

  get socketCount(): number {
    return this.sockets.size;
  }

  /** Move a running build on to `stage` (queued builds start running). */
  stage(id: string, stage: Stage): void {
    const build = this.builds.get(id)!;
    const timestamp = new Date().toISOString();
    build.status = 'running';
    build.stage = stage;
    build.stages.push({ stage, at: timestamp });
    this.broadcast({
      type: 'build-stage',
      stage,
      status: 'running',
      buildId: id,
      projectName: build.projectName,
      timestamp,
    });
  }

  /** A stored line of output, streamed as the daemon does (with its seq and bot). */
  log(id: string, message: string, level: LogEntry['level'] = 'info', botName = 'BuildBot'): void {
    const entries = this.logs.get(id)!;
    const seq = entries.length + 1;
    const timestamp = new Date().toISOString();
    entries.push({ seq, id: `${id}-${seq}`, timestamp, level, botName, message });
    const build = this.builds.get(id)!;
    build.logCount = seq;
    this.broadcast({
      type: 'build-output',
      output: message,
      botName,
      seq,
      buildId: id,
      projectName: build.projectName,
      timestamp,
    });
  }

  /**
   * End a build at its status's final stage (the build machine's); `announce: false` loses its
   * build-stage and build-finished events.
   */
  finish(
    id: string,
    status: FinishedStatus,
    { announce = true, previewUrl = null }: { announce?: boolean; previewUrl?: string | null } = {},
  ): void {
    const build = this.builds.get(id)!;
    const stage = FINAL_STAGE[status];
    build.status = status;
    build.stage = stage;
    build.stages.push({ stage, at: new Date().toISOString() });
    build.endedAt = new Date().toISOString();
    build.durationMs = Date.parse(build.endedAt) - Date.parse(build.createdAt);
    build.previewUrl = previewUrl;
    build.steps = [
      makeStep({ name: 'extract', botName: 'ExtractBot', startedAt: at(0), durationMs: 12 }),
      makeStep({ name: 'detect', botName: 'BlueprintBot', startedAt: at(12), durationMs: 3 }),
    ];
    build.error = status === 'succeeded' ? null : FINISH_ERRORS[status];
    if (announce) {
      this.broadcast({
        type: 'build-stage',
        stage,
        status,
        buildId: id,
        projectName: build.projectName,
        timestamp: build.endedAt,
      });
      this.broadcast({
        type: 'build-finished',
        buildId: id,
        projectName: build.projectName,
        status,
        stage,
        previewUrl,
        error: build.error,
        endedAt: build.endedAt,
        durationMs: build.durationMs,
      });
    }
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const path = url.pathname;
    const json = (value: unknown, status = 200) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(value));
    };
    const fail = (code: ErrorCode, status: number) => json(errorBody(code), status);
    const body = async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    let m: RegExpExecArray | null;

    for (const route of this.routes) if (await route(req, res, url)) return;
    if (path === '/api/health') return json({ ok: true, version: FORGE_VERSION, uptimeMs: 1 });
    if (req.method === 'POST' && path === '/api/upload') {
      const upload = {
        body: await body(),
        query: url.searchParams,
        contentLength: req.headers['content-length'],
      };
      if (this.refuseUploads) return fail(this.refuseUploads, 422);
      const build = this.addBuild('site');
      this.stage(build.id, 'extraction');
      this.stage(build.id, 'extraction-complete');
      json({
        projectName: 'site',
        builderBots: ['BuildBot', 'UiBot', 'TestBot', 'OptimizationBot'],
        buildResult: { success: true, hasPackageJson: false },
        buildId: build.id,
      });
      const waiter = this.uploadWaiters.shift();
      if (waiter) waiter(upload);
      else this.uploads.push(upload);
      return;
    }
    if (req.method === 'POST' && path === '/api/plan') {
      await body();
      return json(STAND_IN_PLAN);
    }
    if (req.method === 'GET' && path === '/api/builds') {
      const project = url.searchParams.get('project');
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const list = [...this.builds.values()]
        .filter((b) => !project || b.projectName === project)
        .reverse()
        .slice(0, limit);
      return json(list);
    }
    if (req.method === 'POST' && path === '/api/builds') {
      const { projectName } = JSON.parse((await body()).toString()) as { projectName: string };
      return json(this.addBuild(projectName));
    }
    if ((m = /^\/api\/builds\/([^/]+)$/.exec(path))) {
      const build = this.builds.get(decodeURIComponent(m[1]!));
      this.buildReads++;
      return build ? json(build) : fail('BUILD_NOT_FOUND', 404);
    }
    if ((m = /^\/api\/builds\/([^/]+)\/logs$/.exec(path))) {
      const entries = this.logs.get(decodeURIComponent(m[1]!));
      if (!entries) return fail('BUILD_NOT_FOUND', 404);
      const after = Number(url.searchParams.get('after') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 1000);
      const page = entries.filter((e) => e.seq > after).slice(0, limit);
      return json({ entries: page, truncated: false, next: page.at(-1)?.seq ?? after });
    }
    if (req.method === 'POST' && (m = /^\/api\/builds\/([^/]+)\/cancel$/.exec(path))) {
      const build = this.builds.get(decodeURIComponent(m[1]!));
      if (!build) return fail('BUILD_NOT_FOUND', 404);
      if (build.status !== 'running' && build.status !== 'queued') return fail('BUILD_FINISHED', 409);
      build.cancelReason = 'user';
      this.finish(build.id, 'cancelled');
      return json(build);
    }
    if (path === '/api/projects') {
      return json([
        { name: 'old', createdAt: at(0), updatedAt: at(1_000), lastBuild: null, hasArtifact: false },
        { name: 'site', createdAt: at(0), updatedAt: at(5_000), lastBuild: null, hasArtifact: true },
      ]);
    }
    if ((m = /^\/api\/projects\/([^/]+)\/(download|artifact)$/.exec(path))) {
      if (m[1] !== 'site') return fail('PROJECT_NOT_FOUND', 404);
      res.setHeader('content-type', 'application/zip');
      return void res.end(Buffer.from(`PK zip of ${m[2]}`));
    }
    if ((m = /^\/api\/projects\/([^/]+)\/blueprint$/.exec(path))) {
      return m[1] === 'site' ? json(STAND_IN_PLAN) : fail('PROJECT_NOT_FOUND', 404);
    }
    if (path === '/api/bots') {
      return json(
        BOT_ROSTER.map((b) => ({ ...b, status: 'active', currentJob: null, jobsRun: 0, failures: 0 })),
      );
    }
    if (path === '/api/preview/url') {
      const project = url.searchParams.get('project');
      return json({ url: project === 'site' ? 'http://127.0.0.1:1/' : null });
    }
    fail('NOT_FOUND', 404);
  }
}
