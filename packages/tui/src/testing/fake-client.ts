import {
  BOT_ROSTER,
  Project,
  ServerMessage,
  type BotInfo,
  type Build,
  type RouteInput,
  type RouteName,
  type RouteResponse,
  type SocketHandlers,
  type SocketStatus,
  type SocketSubscription,
  type WorkerInfo,
} from '@forge/shared';
import type { TuiClient } from '../client.ts';

/** How the fake answers a route: a value, or a function of the call's input (may throw or hang). */
export type FakeRoutes = {
  [N in RouteName]?: (input: RouteInput<N> | undefined) => RouteResponse<N> | Promise<RouteResponse<N>>;
};

export interface FakeClientOptions {
  baseUrl?: string;
  routes?: FakeRoutes;
  /** Throw from subscribe (models a broken client, to exercise the crash path). */
  subscribeError?: Error;
}

export interface FakeCall {
  name: RouteName;
  input: unknown;
}

/** The 25 bots, all active and idle, with per-bot changes. */
export function fakeBots(patch: Record<string, Partial<BotInfo>> = {}): BotInfo[] {
  return BOT_ROSTER.map((b) => ({
    name: b.name,
    category: b.category,
    description: b.description,
    status: 'active',
    currentJob: null,
    jobsRun: 0,
    failures: 0,
    lastJob: null,
    ...patch[b.name],
  }));
}

/** A `forge worker` as GET /api/workers lists it: online, idle, 2 at once, heard from at `lastSeen`. */
export function fakeWorker(name: string, patch: Partial<WorkerInfo> = {}): WorkerInfo {
  const now = new Date().toISOString();
  return {
    name,
    host: `${name}.lan`,
    version: '1.0.0',
    concurrency: 2,
    running: [],
    jobsDone: 0,
    status: 'online',
    lastSeen: now,
    since: now,
    ...patch,
  };
}

/** A project as GET /api/projects lists it, whose last build is `build` (a @forge/testing makeBuild). */
export function fakeProject(build: Build, patch: Partial<Project> = {}): Project {
  return Project.parse({
    name: build.projectName,
    createdAt: build.createdAt,
    updatedAt: build.createdAt,
    lastBuild: build,
    hasArtifact: false,
    ...patch,
  });
}

/**
 * A stand-in for the shared client: the test drives the socket status and messages by hand,
 * answers routes with `routes`, and sees every call the dashboard made. GET /api/bots answers the
 * idle roster, GET /api/workers an in-process queue without workers and GET /api/projects an empty
 * list unless a test says otherwise; any other route not given rejects, so an unexpected call shows
 * up as an error on screen.
 */
export function createFakeClient(options: FakeClientOptions = {}) {
  const subscriptions: { handlers: SocketHandlers; closed: boolean }[] = [];
  const calls: FakeCall[] = [];
  const routes: FakeRoutes = {
    bots: () => fakeBots(),
    workers: () => ({ queue: 'in-process', queueUrl: null, workers: [] }),
    projects: () => [],
    ...options.routes,
  };

  const client: TuiClient = {
    baseUrl: options.baseUrl ?? 'http://127.0.0.1:4317',
    request: (async (name: RouteName, input?: unknown) => {
      calls.push({ name, input });
      const handler = routes[name] as ((input: unknown) => unknown) | undefined;
      if (!handler) throw new Error(`fake client: ${name} is not faked`);
      return handler(input);
    }) as TuiClient['request'],
    subscribe(handlers): SocketSubscription {
      if (options.subscribeError) throw options.subscribeError;
      const entry = { handlers, closed: false };
      subscriptions.push(entry);
      return {
        get status(): SocketStatus {
          return 'connecting';
        },
        send: () => false,
        close() {
          entry.closed = true;
        },
      };
    },
  };

  const active = () => {
    const entry = subscriptions.at(-1);
    if (!entry || entry.closed) throw new Error('fake client: no open subscription');
    return entry;
  };

  return {
    client,
    calls,
    /** Names of the routes called, in order. */
    get requests(): RouteName[] {
      return calls.map((c) => c.name);
    },
    /** Calls of one route, with their input. */
    callsOf<N extends RouteName>(name: N): (RouteInput<N> | undefined)[] {
      return calls.filter((c) => c.name === name).map((c) => c.input as RouteInput<N> | undefined);
    },
    subscriptions,
    /** True once the dashboard subscribed (its effects have run). */
    get subscribed() {
      return subscriptions.length > 0;
    },
    /** Replace how a route answers from now on. */
    answer<N extends RouteName>(name: N, handler: NonNullable<FakeRoutes[N]>) {
      (routes as Record<string, unknown>)[name] = handler;
    },
    setStatus(status: SocketStatus) {
      active().handlers.onStatus?.(status);
    },
    /** Deliver a /ws message, as the daemon would send it (checked against the protocol's schema). */
    emit(message: ServerMessage) {
      active().handlers.onMessage?.(ServerMessage.parse(message));
    },
  };
}

export type FakeClient = ReturnType<typeof createFakeClient>;
