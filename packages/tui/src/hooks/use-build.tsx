import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { isFinished, type Build, type LogLevel, type Project, type ServerMessage } from '@forge/shared';
import { BUILD_SAFETY_POLL_MS, OUTPUT_BUFFER_LINES } from '../constants.ts';
import { sanitizeLine, splitOutput } from '../format.ts';
import { createRefresher } from '../lib/refresher.ts';
import { describeError, withTimeout } from '../lib/request.ts';
import { useBatchedList } from './use-batched-list.ts';
import { useForge, useMessages } from './use-forge.tsx';

/** One line of the followed build's output (command output and the bots' own messages). */
export interface OutputLine {
  /** Unique for React keys. */
  key: number;
  level: LogLevel;
  text: string;
  /** When the daemon sent or stored it (live lines of a frame share the frame's time). */
  timestamp?: string;
}

export interface BuildContextValue {
  /** The project the dashboard is about: the followed build's, else the most recently updated one. */
  project: string | null;
  /** The build being followed: the newest one started, or the newest project's last build. */
  buildId: string | null;
  /** Its record (stages, steps, preview, result); null until read. */
  build: Build | null;
  /** Why its record could not be read, if it could not. */
  error: string | null;
  /** Its last OUTPUT_BUFFER_LINES lines, oldest first. */
  output: readonly OutputLine[];
  /** Follow another build (no-op for the one followed). */
  follow(id: string, projectName?: string): void;
  /** Follow a build whose record is at hand (the answer of POST /api/builds). */
  show(build: Build): void;
  /** A fresher record of a build (the answer of a cancel): applied if it is still the one followed. */
  update(build: Build): void;
}

const BuildContext = createContext<BuildContextValue | null>(null);

/** The most recently updated project (what `forge build` acts on when none is named). */
export function newestProject(projects: readonly Project[]): Project | undefined {
  return [...projects].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0];
}

/** Messages after which the followed build's record may have changed (log lines come with steps). */
const RECORD_EVENTS = new Set<ServerMessage['type']>([
  'build-stage',
  'build-finished',
  'build_complete',
  'bot-assigned',
  'rapid-build-start',
  'log',
]);

/**
 * Messages that announce a build in progress. A build the dashboard has not seen that sends one
 * is newer than the followed one and becomes the followed build. Output frames are not among them:
 * a server app keeps printing after its build finished, and must not take over the pane.
 */
const ACTIVITY_EVENTS = new Set<ServerMessage['type']>([
  'build-stage',
  'rapid-build-start',
  'bot-assigned',
  'log',
]);

const buildIdOf = (message: ServerMessage): string | undefined =>
  'buildId' in message ? message.buildId : undefined;

/**
 * Which build the dashboard follows and what it knows of it. The record (GET /api/builds/:id) is
 * the source of truth; /ws stage and end messages are applied at once (the header's badge moves
 * without waiting for the daemon) and then trigger a read of the record, as does every reconnect
 * and, while the build runs, a timer. The output is the stored log's tail (read when a build is
 * first followed) followed by the live lines.
 */
export function BuildProvider({ children }: { children: ReactNode }) {
  const { client, status, connection, timeoutMs } = useForge();
  const [newest, setNewest] = useState<string | null>(null);
  const [projectHint, setProjectHint] = useState<string | null>(null);
  const [buildId, setBuildId] = useState<string | null>(null);
  const [build, setBuild] = useState<Build | null>(null);
  const [error, setError] = useState<string | null>(null);
  const output = useBatchedList<OutputLine>(OUTPUT_BUFFER_LINES);
  const { push: pushOutput, replace: replaceOutput, current: currentOutput } = output;
  const followed = useRef<string | null>(null);
  const known = useRef(new Set<string>());
  const nextKey = useRef(0);

  const toLines = useCallback(
    (level: LogLevel, texts: readonly string[], timestamp?: string): OutputLine[] =>
      texts.map((text) => ({ key: nextKey.current++, level, text, timestamp })),
    [],
  );

  const readRecord = useCallback(
    async (id: string): Promise<Build | null> => {
      try {
        const record = await withTimeout(client.request('build', { params: { id } }), timeoutMs);
        if (followed.current !== id) return null;
        setBuild(record);
        setError(null);
        return record;
      } catch (err) {
        if (followed.current === id) setError(describeError(err));
        return null;
      }
    },
    [client, timeoutMs],
  );

  const refresher = useMemo(
    () =>
      createRefresher(async () => {
        if (followed.current) await readRecord(followed.current);
      }),
    [readRecord],
  );
  useEffect(() => () => refresher.dispose(), [refresher]);

  const follow = useCallback(
    (id: string, projectName?: string) => {
      known.current.add(id);
      if (followed.current === id) return;
      followed.current = id;
      replaceOutput([]);
      setBuildId(id);
      setBuild(null);
      setError(null);
      setProjectHint(projectName ?? null);
    },
    [replaceOutput],
  );

  const show = useCallback(
    (record: Build) => {
      follow(record.id, record.projectName);
      setBuild(record);
    },
    [follow],
  );

  const update = useCallback((record: Build) => {
    if (followed.current === record.id) setBuild(record);
  }, []);

  // A newly followed build: its record, then the tail of its stored log, merged with live lines
  // that arrived meanwhile (those sent before the last stored line are in the store already).
  useEffect(() => {
    if (!buildId) return;
    let live = true;
    void (async () => {
      const record = await readRecord(buildId);
      if (!record || !live || record.logCount === 0) return;
      try {
        const page = await withTimeout(
          client.request('buildLogs', {
            params: { id: buildId },
            query: { after: Math.max(0, record.logCount - OUTPUT_BUFFER_LINES), limit: OUTPUT_BUFFER_LINES },
          }),
          timeoutMs,
        );
        if (!live || followed.current !== buildId) return;
        const lastStored = page.entries.at(-1)?.timestamp;
        const history = page.entries.flatMap((e) => toLines(e.level, [sanitizeLine(e.message)], e.timestamp));
        const newer = currentOutput().filter(
          (line) => lastStored === undefined || line.timestamp === undefined || line.timestamp > lastStored,
        );
        replaceOutput([...history, ...newer]);
      } catch {
        // The pane keeps the live lines; the history is a convenience.
      }
    })();
    return () => {
      live = false;
    };
  }, [buildId, client, timeoutMs, readRecord, toLines, currentOutput, replaceOutput]);

  // Every (re)connect: the newest project (for the header and `b`), and a fresh look at the build
  // (events sent while the socket was down are lost).
  useEffect(() => {
    if (status !== 'connected') return;
    let live = true;
    refresher.trigger();
    withTimeout(client.request('projects'), timeoutMs).then(
      (projects) => {
        if (!live) return;
        const project = newestProject(projects);
        setNewest(project?.name ?? null);
        if (followed.current === null && project?.lastBuild) follow(project.lastBuild.id, project.name);
      },
      () => {
        // The header keeps what it had; the next reconnect asks again.
      },
    );
    return () => {
      live = false;
    };
  }, [status, connection, client, timeoutMs, refresher, follow]);

  // While the followed build runs, look at its record now and then: a lost event must not freeze it.
  const running = build !== null && !isFinished(build.status);
  useEffect(() => {
    if (status !== 'connected' || !running) return;
    const timer = setInterval(refresher.trigger, BUILD_SAFETY_POLL_MS);
    return () => clearInterval(timer);
  }, [status, running, refresher]);

  useMessages((message) => {
    const id = buildIdOf(message);
    if (id === undefined) return;
    if (id !== followed.current) {
      if (known.current.has(id) || !ACTIVITY_EVENTS.has(message.type)) return;
      follow(id, 'projectName' in message ? message.projectName : undefined);
    }
    switch (message.type) {
      case 'build-output':
        pushOutput(toLines('info', splitOutput(message.output), message.timestamp));
        break;
      case 'build-error':
        // stderr is stored as warn by the daemon: tools print progress and notices there.
        pushOutput(toLines('warn', splitOutput(message.output), message.timestamp));
        break;
      case 'log':
        pushOutput(toLines(message.level, splitOutput(message.message), message.timestamp));
        break;
      case 'build-stage': {
        const at = message.timestamp ?? new Date().toISOString();
        setBuild((prev) =>
          prev && prev.id === id && prev.stages.at(-1)?.stage !== message.stage
            ? { ...prev, stage: message.stage, stages: [...prev.stages, { stage: message.stage, at }] }
            : prev,
        );
        break;
      }
      case 'build-finished':
        setBuild((prev) =>
          prev && prev.id === id
            ? {
                ...prev,
                status: message.status,
                stage: message.stage,
                previewUrl: message.previewUrl ?? prev.previewUrl,
                cacheHit: message.cacheHit ?? prev.cacheHit,
                endedAt: prev.endedAt ?? new Date().toISOString(),
              }
            : prev,
        );
        break;
      default:
        break;
    }
    if (RECORD_EVENTS.has(message.type)) refresher.trigger();
  });

  const value = useMemo<BuildContextValue>(
    () => ({
      project: build?.projectName ?? projectHint ?? newest,
      buildId,
      build,
      error,
      output: output.items,
      follow,
      show,
      update,
    }),
    [build, projectHint, newest, buildId, error, output.items, follow, show, update],
  );
  return <BuildContext.Provider value={value}>{children}</BuildContext.Provider>;
}

export function useBuild(): BuildContextValue {
  const value = useContext(BuildContext);
  if (!value) throw new Error('useBuild must be used inside <BuildProvider>');
  return value;
}
