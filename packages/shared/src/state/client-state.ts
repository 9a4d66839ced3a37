import { LIVE_VIEWER_KEEP } from '../constants.ts';
import type { BotInfo, Build, BuildStatus } from '../domain/builds.ts';
import { isFinished } from '../domain/build-statuses.ts';
import { canReach, newBuild } from '../domain/build-machine.ts';
import type { BuildOutput, LiveMessage } from '../domain/entities.ts';
import type { LogEntry, LogLevel } from '../domain/log.ts';
import { DEFAULT_BOT_NAME } from '../domain/log-levels.ts';
import type { Stage } from '../domain/stage.ts';
import type { ServerMessage } from '../ws/events.ts';
import type { QueueKind, WorkerInfo } from '../domain/workers.ts';
import { consoleLinesOf, liveMessageOf } from './console-lines.ts';
import {
  addLines,
  EMPTY_LOG,
  linesOfMessage,
  storedLine,
  type LogBuffer,
  type StoredLogEntry,
} from './log-lines.ts';

/**
 * The one client model: a pure reducer that folds /ws messages and REST snapshots into what every
 * client shows — builds (record, status and stage, log, bots), the fleet, the Live Development
 * viewer's messages and the app-wide console. The web, the TUI and the CLI all render from it, so
 * a build reads the same everywhere (docs/client-model.md).
 *
 * Rules that make it safe whatever order things arrive in:
 * - A build's (status, stage) only moves along the build machine's edges; a stale message or an
 *   older snapshot never moves it back. A snapshot whose stage history is at least as long as what
 *   is known replaces the record; an older one only fills in the rest.
 * - Log lines are merged by their stored seq: read from the store and seen on /ws, a line is kept once.
 */

export interface ClientLimits {
  /** Lines kept per build (the newest). */
  linesPerBuild: number;
  /** Builds kept (finished ones beyond this are forgotten, oldest first). */
  builds: number;
  /** Lines of the app-wide console. */
  console: number;
  /** Live Development viewer messages (docs/product.md#live-state: 50). */
  viewer: number;
}

export const DEFAULT_CLIENT_LIMITS: ClientLimits = {
  linesPerBuild: 2_000,
  builds: 100,
  console: 2_000,
  viewer: LIVE_VIEWER_KEEP,
};

export interface BuildView {
  /** The record as well as it is known: read from the daemon, then kept current by /ws. */
  build: Build;
  /** Whether `build` has been read from the daemon (else it was pieced together from /ws alone). */
  fromRecord: boolean;
  /** Bots assigned to the build, in order, without duplicates. */
  builderBots: string[];
  /** What build_complete said the build produced. */
  buildOutput: BuildOutput | null;
  log: LogBuffer;
}

export interface ClientState {
  limits: ClientLimits;
  builds: Readonly<Record<string, BuildView>>;
  /** The build the newest build message was about (the one the Live Development viewer follows). */
  activeBuildId: string | null;
  /** Every bot by name (from GET /api/bots, then bot-status messages). */
  bots: Readonly<Record<string, BotInfo>>;
  /** Scale-out: the queue the daemon uses (null until known) and its workers by name. */
  queue: QueueKind | null;
  workers: Readonly<Record<string, WorkerInfo>>;
  /** docs/product.md#live-state: the last `limits.viewer` build messages, oldest first. */
  viewer: readonly LiveMessage[];
  /** The app-wide console (FixIt console, Console screen, TUI logs pane), oldest first. */
  console: readonly LogEntry[];
  /** Number of console lines ever added (their ids). */
  consoleCount: number;
}

export type ClientEvent =
  /** A message from /ws, with the time the client received it. */
  | { type: 'message'; message: ServerMessage; at: string }
  /** A build record read from the daemon (GET /api/builds/:id, POST /api/builds, a cancel's answer). */
  | { type: 'build-record'; build: Build }
  /** A list of records (GET /api/builds, a project's last build). */
  | { type: 'build-records'; builds: readonly Build[] }
  /** A page of a build's stored log (GET /api/builds/:id/logs). */
  | { type: 'log-page'; buildId: string; entries: readonly StoredLogEntry[] }
  /** The fleet (GET /api/bots). */
  | { type: 'bots'; bots: readonly BotInfo[] }
  /** The queue and its workers (GET /api/workers). */
  | { type: 'workers'; queue: QueueKind; workers: readonly WorkerInfo[] }
  /**
   * A line the client itself adds to the console (e.g. a failed integrate, which docs/product.md#error-texts
   * only logs).
   */
  | { type: 'console-append'; level: LogLevel; message: string; botName?: string; at: string }
  /** The console's Clear. */
  | { type: 'console-clear' };

export function createClientState(limits: Partial<ClientLimits> = {}): ClientState {
  return {
    limits: { ...DEFAULT_CLIENT_LIMITS, ...limits },
    builds: {},
    activeBuildId: null,
    bots: {},
    queue: null,
    workers: {},
    viewer: [],
    console: [],
    consoleCount: 0,
  };
}

/** How far a record has got: finished beats running, then the longer stage history. */
const progress = (b: Build): number => (isFinished(b.status) ? 1_000_000 : 0) + b.stages.length;

/** A record read from the daemon, merged with what is known: never moves a build back. */
function mergeRecord(known: Build, record: Build): Build {
  if (progress(record) >= progress(known)) return record;
  const { status, stage, stages, endedAt, durationMs, previewUrl, cacheHit, error, cancelReason } = known;
  const { diagnosis, repairs } = known;
  return {
    ...record,
    worker: record.worker ?? known.worker,
    status,
    stage,
    stages,
    endedAt,
    durationMs,
    previewUrl,
    cacheHit,
    error,
    cancelReason,
    diagnosis,
    repairs,
  };
}

/** Move a build to (status, stage) if the machine allows it from where it is. */
function moveTo(build: Build, status: BuildStatus, stage: Stage, at: string): Build {
  if (build.status === status && build.stage === stage) return build;
  // Forward along the machine only, in one move or several (a client may have missed messages);
  // a stale message never moves a build back.
  if (!canReach({ status: build.status, stage: build.stage }, { status, stage })) return build;
  return { ...build, status, stage, stages: [...build.stages, { stage, at }] };
}

const buildIdOf = (m: ServerMessage): string | undefined => ('buildId' in m ? m.buildId : undefined);
const projectOf = (m: ServerMessage): string | undefined => ('projectName' in m ? m.projectName : undefined);

function putBuild(state: ClientState, view: BuildView): ClientState {
  const builds = { ...state.builds, [view.build.id]: view };
  const ids = Object.keys(builds);
  if (ids.length <= state.limits.builds) return { ...state, builds };
  // Forget the oldest finished builds beyond the limit (running ones and the active one stay).
  const removable = ids
    .filter(
      (id) => id !== state.activeBuildId && id !== view.build.id && isFinished(builds[id]!.build.status),
    )
    .sort((a, b) => compareBuilds(builds[a]!.build, builds[b]!.build));
  for (const id of removable.slice(0, ids.length - state.limits.builds)) delete builds[id];
  return { ...state, builds };
}

const newView = (build: Build, fromRecord: boolean): BuildView => ({
  build,
  fromRecord,
  builderBots: [],
  buildOutput: null,
  log: EMPTY_LOG,
});

function applyRecord(state: ClientState, record: Build): ClientState {
  const known = state.builds[record.id];
  if (!known) return putBuild(state, newView(record, true));
  const build = mergeRecord(known.build, record);
  if (build === known.build && known.fromRecord) return state;
  return putBuild(state, { ...known, build, fromRecord: true });
}

/** The build a message is about, created from the message when it is new. */
function viewFor(state: ClientState, id: string, message: ServerMessage, at: string): BuildView {
  const known = state.builds[id];
  if (known) return known;
  const projectName =
    projectOf(message) ?? (message.type === 'build_complete' ? message.buildOutput.projectName : '');
  const timestamp = ('timestamp' in message && message.timestamp) || at;
  return newView(newBuild(id, projectName, timestamp), false);
}

function applyBuildMessage(state: ClientState, id: string, message: ServerMessage, at: string): ClientState {
  const view = viewFor(state, id, message, at);
  const b = view.build;
  let next: BuildView = view;
  const withBuild = (build: Build): BuildView => (build === b ? view : { ...view, build });
  switch (message.type) {
    case 'build-stage': {
      const moved = moveTo(b, message.status, message.stage, message.timestamp ?? at);
      const worker = message.worker ?? moved.worker;
      next = withBuild(worker === moved.worker ? moved : { ...moved, worker });
      break;
    }
    case 'build-finished': {
      const moved = moveTo(b, message.status, message.stage, message.endedAt ?? at);
      if (moved === b && !(b.status === message.status && b.stage === message.stage)) break;
      next = {
        ...view,
        build: {
          ...moved,
          previewUrl: message.previewUrl ?? moved.previewUrl,
          cacheHit: message.cacheHit ?? moved.cacheHit,
          error: message.error !== undefined ? message.error : moved.error,
          diagnosis: message.diagnosis !== undefined ? message.diagnosis : moved.diagnosis,
          repairs: message.repairs ?? moved.repairs,
          cancelReason: message.cancelReason !== undefined ? message.cancelReason : moved.cancelReason,
          endedAt: message.endedAt ?? moved.endedAt ?? at,
          durationMs: message.durationMs !== undefined ? message.durationMs : moved.durationMs,
          worker: message.worker ?? moved.worker,
          verdict: message.verdict !== undefined ? message.verdict : moved.verdict,
        },
      };
      break;
    }
    case 'preview-ready':
      // The preview is up before the build ends (its tests still run): show it now.
      if (b.previewUrl !== message.previewUrl) next = withBuild({ ...b, previewUrl: message.previewUrl });
      break;
    case 'build_complete':
      next = {
        ...withBuild(moveTo(b, 'succeeded', 'integration-available', message.timestamp ?? at)),
        buildOutput: message.buildOutput,
      };
      break;
    case 'bot-assigned':
      if (!view.builderBots.includes(message.botName))
        next = { ...view, builderBots: [...view.builderBots, message.botName] };
      break;
    case 'log':
    case 'build-output':
    case 'build-error': {
      const log = addLines(view.log, linesOfMessage(message, at), state.limits.linesPerBuild);
      if (log !== view.log) next = { ...view, log };
      break;
    }
    default:
      break;
  }
  if (!next.build.projectName && projectOf(message)) {
    next = { ...next, build: { ...next.build, projectName: projectOf(message)! } };
  }
  return next === state.builds[id] ? state : putBuild(state, next);
}

/**
 * A rollback serves an earlier build's output on a new preview: that build shows it, and the
 * project's other builds lose the address they had (a project has one preview at a time).
 */
function withRolledBackPreview(
  state: ClientState,
  message: Extract<ServerMessage, { type: 'build-rollback' }>,
): ClientState {
  let next = state;
  for (const view of Object.values(state.builds)) {
    const b = view.build;
    if (b.projectName !== message.projectName) continue;
    const previewUrl = b.id === message.currentBuildId ? message.previewUrl : null;
    if (b.previewUrl !== previewUrl) next = putBuild(next, { ...view, build: { ...b, previewUrl } });
  }
  return next;
}

/** Messages that say a build is under way: the viewer follows the build the newest one is about. */
const ACTIVITY = new Set<ServerMessage['type']>(['rapid-build-start', 'bot-assigned', 'build-stage', 'log']);

function applyMessage(state: ClientState, message: ServerMessage, at: string): ClientState {
  let next = state;
  const id = buildIdOf(message);
  if (id) {
    next = applyBuildMessage(next, id, message, at);
    if (ACTIVITY.has(message.type) && next.activeBuildId !== id) {
      // Output of a build that already ended (a server app printing) does not take the viewer over.
      const b = next.builds[id]?.build;
      if (!b || !isFinished(b.status) || message.type === 'build-stage')
        next = { ...next, activeBuildId: id };
    }
  }
  if (message.type === 'build-rollback') next = withRolledBackPreview(next, message);
  if (message.type === 'workers') next = withWorkers(next, message.queue, message.workers);
  if (message.type === 'bot-status') {
    const bot = next.bots[message.botName];
    if (bot) {
      next = {
        ...next,
        bots: {
          ...next.bots,
          [message.botName]: { ...bot, status: message.status, currentJob: message.job ?? null },
        },
      };
    }
  }
  const live = liveMessageOf(message, at);
  if (live) {
    const viewer = [...next.viewer, live];
    next = {
      ...next,
      viewer: viewer.length > next.limits.viewer ? viewer.slice(-next.limits.viewer) : viewer,
    };
  }
  const lines = consoleLinesOf(message);
  if (lines.length) {
    const timestamp = ('timestamp' in message && message.timestamp) || at;
    next = appendConsole(
      next,
      lines.map((l) => ({ ...l, timestamp })),
    );
  }
  return next;
}

function appendConsole(
  state: ClientState,
  lines: ReadonlyArray<{ level: LogLevel; botName: string; message: string; timestamp: string }>,
): ClientState {
  let count = state.consoleCount;
  const added: LogEntry[] = lines.map((l) => ({ id: `log-${++count}`, ...l }));
  const all = [...state.console, ...added];
  const keep = state.limits.console;
  return { ...state, console: all.length > keep ? all.slice(all.length - keep) : all, consoleCount: count };
}

/** The one reducer. Pure: the same events in give the same state out. */
export function reduceClient(state: ClientState, event: ClientEvent): ClientState {
  switch (event.type) {
    case 'message':
      return applyMessage(state, event.message, event.at);
    case 'build-record':
      return applyRecord(state, event.build);
    case 'build-records':
      return event.builds.reduce(applyRecord, state);
    case 'log-page': {
      const view = state.builds[event.buildId];
      if (!view) return state;
      const log = addLines(view.log, event.entries.map(storedLine), state.limits.linesPerBuild);
      return log === view.log ? state : putBuild(state, { ...view, log });
    }
    case 'bots': {
      const bots: Record<string, BotInfo> = {};
      for (const bot of event.bots) bots[bot.name] = bot;
      return { ...state, bots };
    }
    case 'workers':
      return withWorkers(state, event.queue, event.workers);
    case 'console-append':
      return appendConsole(state, [
        {
          level: event.level,
          botName: event.botName ?? DEFAULT_BOT_NAME,
          message: event.message,
          timestamp: event.at,
        },
      ]);
    case 'console-clear':
      return state.console.length === 0 ? state : { ...state, console: [] };
  }
}

/** Older first: by creation time, then by id. */
export function compareBuilds(a: Build, b: Build): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The newest build known (of `projectName`, when given). */
export function latestBuild(state: ClientState, projectName?: string): BuildView | null {
  let best: BuildView | null = null;
  for (const view of Object.values(state.builds)) {
    if (projectName !== undefined && view.build.projectName !== projectName) continue;
    if (!best || compareBuilds(best.build, view.build) < 0) best = view;
  }
  return best;
}

/** Builds newest first (of `projectName`, when given). */
export function buildsNewestFirst(state: ClientState, projectName?: string): BuildView[] {
  return Object.values(state.builds)
    .filter((v) => projectName === undefined || v.build.projectName === projectName)
    .sort((a, b) => compareBuilds(b.build, a.build));
}

function withWorkers(state: ClientState, queue: QueueKind, list: readonly WorkerInfo[]): ClientState {
  const workers: Record<string, WorkerInfo> = {};
  for (const w of list) workers[w.name] = w;
  return { ...state, queue, workers };
}

/** Workers by name (online first), as last known. */
export const workerList = (state: ClientState): WorkerInfo[] =>
  Object.values(state.workers).sort(
    (a, b) => (a.status === b.status ? 0 : a.status === 'online' ? -1 : 1) || a.name.localeCompare(b.name),
  );

/** Where a build ran, for display: "local", a worker's name, or "—" while it waits. */
export const workerLabel = (build: Pick<Build, 'worker'>): string => build.worker ?? '—';

/** Every bot in roster order as last known. */
export const botList = (state: ClientState): BotInfo[] => Object.values(state.bots);
