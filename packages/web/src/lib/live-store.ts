import { useEffect, useSyncExternalStore } from 'react';
import {
  DEFAULT_BOT_NAME,
  LIVE_VIEWER_KEEP,
  STAGE_LABELS,
  type BuildOutput,
  type BuildStatus,
  type LiveMessage,
  type LogEntry,
  type LogLevel,
  type ServerMessage,
  type Stage,
} from '@forge/shared';
import { useSocket, type MessageListener } from './socket.tsx';

/**
 * The app's live build state, built from /ws messages: every log line (FixIt console, Console
 * screen) and the build being watched (Live Development viewer).
 *
 * How it is fed — no mount point needed: every `useLogEntries()` / `useLiveBuild()` caller
 * ref-counts one listener on the app socket (`useSocket().subscribe`), so each message is applied
 * exactly once however many panels read the store. The store belongs to the SocketProvider (one per
 * app, so each test's app starts empty) and outlives the panels, so navigating away and back keeps
 * the log. While no panel reading the store is mounted, messages are not collected; a shell that
 * wants the log to keep growing on every screen calls `useLiveFeed()` once (one more reference).
 *
 * Levels: `build-output` (stdout) is info and `build-error` (stderr) is warn, not error — tools
 * print progress and deprecation notes on stderr, and the daemon stores stderr as warn too, so the
 * live console and `forge logs` agree. A failed build still shows as an error through its
 * `build-stage` (build-failed / build-timeout) and `build-finished` lines.
 */

/** Log lines kept in memory (the console shows them all, newest last). */
export const LOG_KEEP = 2_000;
/** Lines of build output the Live Development viewer keeps for its output pane. */
export const LIVE_OUTPUT_KEEP = 200;
/** Window event raised when a build output is ready (spec §4); detail is the BuildOutput. */
export const BUILD_COMPLETE_EVENT = 'build_complete';

export interface LiveBuildState {
  /** Project of the build being watched; null before the first build message. */
  projectName: string | null;
  stage: Stage;
  /** Bots assigned to the current build, in assignment order, no duplicates. */
  builderBots: string[];
  /** Last LIVE_VIEWER_KEEP build messages, oldest first (the viewer shows the last 10). */
  messages: LiveMessage[];
  /** Last LIVE_OUTPUT_KEEP lines of build output (stdout and stderr), oldest first. */
  output: string[];
}

export interface LiveState {
  entries: LogEntry[];
  build: LiveBuildState;
  /** Next local log id: ids must be unique for React keys even when the daemon repeats one. */
  seq: number;
}

export const initialLiveBuild: LiveBuildState = {
  projectName: null,
  stage: 'idle',
  builderBots: [],
  messages: [],
  output: [],
};

export const initialLiveState: LiveState = { entries: [], build: initialLiveBuild, seq: 0 };

/** Stage → console level (spec §4 stages; success and failure stand out, the rest is info). */
export function stageLevel(stage: Stage): LogLevel {
  switch (stage) {
    case 'build-success':
    case 'integration-available':
      return 'success';
    case 'build-failed':
    case 'build-timeout':
      return 'error';
    default:
      return 'info';
  }
}

/** Final build status → console level. */
export function buildStatusLevel(status: BuildStatus): LogLevel {
  switch (status) {
    case 'succeeded':
      return 'success';
    case 'failed':
    case 'timed-out':
    case 'interrupted':
      return 'error';
    case 'cancelled':
      return 'warn';
    default:
      return 'info';
  }
}

const keepLast = <T>(list: readonly T[], max: number): T[] =>
  list.length > max ? list.slice(list.length - max) : [...list];

/** Output frames carry one or more lines; a trailing newline is not an extra empty line. */
const splitLines = (output: string): string[] => {
  const lines = output.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
};

interface PendingLog {
  level: LogLevel;
  botName: string;
  message: string;
}

/** The console lines a message produces (none for messages that are not log-worthy). */
export function logLinesOf(message: ServerMessage): PendingLog[] {
  const project = 'projectName' in message && message.projectName ? `${message.projectName}: ` : '';
  switch (message.type) {
    case 'log':
      return [
        { level: message.level, botName: message.botName || DEFAULT_BOT_NAME, message: message.message },
      ];
    case 'build-output':
      return splitLines(message.output).map((line) => ({
        level: 'info',
        botName: DEFAULT_BOT_NAME,
        message: line,
      }));
    case 'build-error':
      return splitLines(message.output).map((line) => ({
        level: 'warn',
        botName: DEFAULT_BOT_NAME,
        message: line,
      }));
    case 'build-stage':
      return [
        {
          level: stageLevel(message.stage),
          botName: DEFAULT_BOT_NAME,
          message: `${project}${STAGE_LABELS[message.stage]}`,
        },
      ];
    case 'bot-assigned':
      return [{ level: 'info', botName: message.botName, message: `${project}assigned to the build` }];
    case 'build-finished': {
      const extras = [
        message.cacheHit ? 'cache hit' : null,
        message.previewUrl ? `preview at ${message.previewUrl}` : null,
      ].filter(Boolean);
      return [
        {
          level: buildStatusLevel(message.status),
          botName: DEFAULT_BOT_NAME,
          message: `${project}build ${message.status}${extras.length ? ` (${extras.join(', ')})` : ''}`,
        },
      ];
    }
    default:
      return [];
  }
}

/** The viewer's record of a build message (spec §3 Live message); null for other messages. */
export function liveMessageOf(message: ServerMessage, now: string): LiveMessage | null {
  const timestamp = ('timestamp' in message && message.timestamp) || now;
  switch (message.type) {
    case 'rapid-build-start':
    case 'build-stage':
      return { type: message.type, projectName: message.projectName, stage: message.stage, timestamp };
    case 'bot-assigned':
      return {
        type: message.type,
        projectName: message.projectName,
        stage: message.stage,
        botName: message.botName,
        timestamp,
      };
    case 'build-output':
    case 'build-error':
      return {
        type: message.type,
        projectName: message.projectName,
        stage: message.stage,
        output: message.output,
        timestamp,
      };
    case 'build_complete':
      return {
        type: message.type,
        projectName: message.projectName ?? message.buildOutput.projectName,
        stage: 'integration-available',
        buildOutput: message.buildOutput,
        timestamp,
      };
    case 'log':
      // Only build logs belong in the viewer; a bare SYSTEM line (e.g. non-JSON text) does not.
      if (!message.buildId && !message.projectName) return null;
      return {
        type: message.type,
        projectName: message.projectName,
        stage: message.stage,
        botName: message.botName,
        message: message.message,
        timestamp,
      };
    case 'build-finished':
      return {
        type: message.type,
        projectName: message.projectName,
        stage: message.stage,
        message: `Build ${message.status}`,
        timestamp,
      };
    default:
      return null;
  }
}

/** The viewer's state after a message (spec §4). Pure. */
export function reduceLiveBuild(state: LiveBuildState, message: ServerMessage, now: string): LiveBuildState {
  const live = liveMessageOf(message, now);
  if (!live) return state;
  let next: LiveBuildState = { ...state, messages: keepLast([...state.messages, live], LIVE_VIEWER_KEEP) };
  const projectName = 'projectName' in message ? message.projectName : undefined;
  switch (message.type) {
    case 'rapid-build-start':
      next = {
        ...next,
        projectName: projectName ?? next.projectName,
        stage: 'starting',
        builderBots: [],
        output: [],
      };
      break;
    case 'bot-assigned':
      if (!next.builderBots.includes(message.botName)) {
        next = { ...next, builderBots: [...next.builderBots, message.botName] };
      }
      if (projectName) next = { ...next, projectName };
      break;
    case 'build-stage':
      next = { ...next, stage: message.stage, projectName: projectName ?? next.projectName };
      break;
    case 'build-output':
    case 'build-error':
      next = {
        ...next,
        output: keepLast([...next.output, ...splitLines(message.output)], LIVE_OUTPUT_KEEP),
        projectName: projectName ?? next.projectName,
      };
      break;
    case 'build_complete':
      next = {
        ...next,
        stage: 'integration-available',
        projectName: message.projectName ?? message.buildOutput.projectName,
      };
      break;
    default:
      break;
  }
  return next;
}

/** The whole store after a message. Pure (the window event is raised by `ingest`). */
export function reduceLive(state: LiveState, message: ServerMessage, now: string): LiveState {
  const lines = logLinesOf(message);
  const build = reduceLiveBuild(state.build, message, now);
  if (lines.length === 0 && build === state.build) return state;
  let seq = state.seq;
  const timestamp = ('timestamp' in message && message.timestamp) || now;
  const added: LogEntry[] = lines.map((line) => ({ id: `log-${++seq}`, timestamp, ...line }));
  return {
    entries: added.length ? keepLast([...state.entries, ...added], LOG_KEEP) : state.entries,
    build,
    seq,
  };
}

// ---- the store, one per app socket ----------------------------------------------------------------

type Subscribe = (listener: MessageListener) => () => void;

/** The live state of one app socket, fed by a ref-counted listener on it. */
export interface LiveStore {
  getState(): LiveState;
  /** Listen to state changes (useSyncExternalStore's subscribe). */
  listen(listener: () => void): () => void;
  /** Apply one server message; a build_complete also raises the window event. */
  ingest(message: ServerMessage, now?: Date): void;
  /** Drop every log line (the console's Clear); the live build state is kept. */
  clearLog(): void;
  /** Add a line the app itself produced (e.g. a failed integrate, which spec §8 only logs). */
  appendLog(line: { level: LogLevel; message: string; botName?: string }): void;
  /** Take a reference on the socket feed; the returned function gives it back (idempotent). */
  retain(): () => void;
}

export function createLiveStore(subscribe: Subscribe): LiveStore {
  let state: LiveState = initialLiveState;
  const listeners = new Set<() => void>();
  let refs = 0;
  let unsubscribe: (() => void) | null = null;

  const set = (next: LiveState): void => {
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  };

  const store: LiveStore = {
    getState: () => state,
    listen(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    ingest(message, now = new Date()) {
      set(reduceLive(state, message, now.toISOString()));
      if (message.type === 'build_complete') {
        window.dispatchEvent(
          new CustomEvent<BuildOutput>(BUILD_COMPLETE_EVENT, { detail: message.buildOutput }),
        );
      }
    },
    clearLog() {
      set({ ...state, entries: [] });
    },
    appendLog({ level, message, botName = DEFAULT_BOT_NAME }) {
      const seq = state.seq + 1;
      const entry: LogEntry = {
        id: `log-${seq}`,
        timestamp: new Date().toISOString(),
        level,
        botName,
        message,
      };
      set({ ...state, seq, entries: keepLast([...state.entries, entry], LOG_KEEP) });
    },
    retain() {
      refs += 1;
      unsubscribe ??= subscribe((message) => store.ingest(message));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        refs -= 1;
        if (refs === 0) {
          unsubscribe?.();
          unsubscribe = null;
        }
      };
    },
  };
  return store;
}

// Keyed by the socket's subscribe function: one store per SocketProvider, kept as long as that
// provider lives (so a panel unmounting keeps the log), and a fresh one for every app a test renders.
const stores = new WeakMap<Subscribe, LiveStore>();

function useLiveStore(): LiveStore {
  const { subscribe } = useSocket();
  let store = stores.get(subscribe);
  if (!store) {
    store = createLiveStore(subscribe);
    stores.set(subscribe, store);
  }
  const current = store;
  useEffect(() => current.retain(), [current]);
  return current;
}

/** Keep the store fed from the app socket while the caller is mounted. Call inside SocketProvider. */
export function useLiveFeed(): void {
  useLiveStore();
}

/** Every log line of the app (at most LOG_KEEP, oldest first) and a way to clear them. */
export function useLogEntries(): { entries: LogEntry[]; clear(): void } {
  const store = useLiveStore();
  const entries = useSyncExternalStore(store.listen, () => store.getState().entries);
  return { entries, clear: store.clearLog };
}

/** The build the Live Development viewer follows (spec §4). */
export function useLiveBuild(): LiveBuildState {
  const store = useLiveStore();
  return useSyncExternalStore(store.listen, () => store.getState().build);
}

/** Write a line into the app's log (FixIt console, Console screen) from a panel's own action. */
export function useAppendLog(): LiveStore['appendLog'] {
  return useLiveStore().appendLog;
}
