import {
  createContext,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  compareBuilds,
  isFinished,
  type Build,
  type ClientState,
  type Project,
  type ServerMessage,
} from '@forge/shared';
import { BUILD_SAFETY_POLL_MS, OUTPUT_BUFFER_LINES } from '../constants.ts';
import { outputRows, type DisplayRow } from '../lib/display-rows.ts';
import { createRefresher } from '../lib/refresher.ts';
import { describeError, withTimeout } from '../lib/request.ts';
import { useClientState, useForge, useMessages } from './use-forge.tsx';
import { useRequiredContext } from './required-context.ts';

export interface BuildContextValue {
  /** The project the dashboard is about: the followed build's, else the most recently updated one. */
  project: string | null;
  /** The build being followed: the newest one started (see followedBuildId). */
  buildId: string | null;
  /**
   * Its record as the client model knows it (read from the daemon, kept current by /ws); null
   * until either said anything. Header and build pane both show this one object.
   */
  build: Build | null;
  /** Why its record could not be read, if it could not. */
  error: string | null;
  /** Its log as terminal rows, oldest first: the stored tail, then live lines, each once (by seq). */
  output: readonly DisplayRow[];
  /** Follow a build the user just started (an upload's answer). */
  follow(id: string, projectName?: string): void;
  /** Follow a build whose record is at hand (the answer of POST /api/builds). */
  show(build: Build): void;
  /** A fresher record of a build (the answer of a cancel). */
  update(build: Build): void;
}

const BuildContext = createContext<BuildContextValue | null>(null);
const NO_ROWS: readonly DisplayRow[] = [];

/** The most recently updated project (what `forge build` acts on when none is named). */
export function newestProject(projects: readonly Project[]): Project | undefined {
  return [...projects].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0];
}

/**
 * The build the dashboard follows: of the build the user chose (or, at start, the newest project's
 * last build) and the one the newest build message was about (the store's activeBuildId), the
 * newer. A chosen build not known to the store yet wins: the user just asked for it.
 */
export function followedBuildId(state: ClientState, chosen: string | null): string | null {
  const active = state.activeBuildId;
  if (chosen === null || active === null || active === chosen) return chosen ?? active;
  const chosenBuild = state.builds[chosen]?.build;
  const activeBuild = state.builds[active]?.build;
  if (!chosenBuild || !activeBuild) return chosen;
  return compareBuilds(activeBuild, chosenBuild) > 0 ? active : chosen;
}

/** Messages after which the followed build's record may hold more (steps come only with it). */
const RECORD_EVENTS = new Set<ServerMessage['type']>([
  'build-stage',
  'build-finished',
  'build_complete',
  'bot-assigned',
  'rapid-build-start',
  'log',
]);

const buildIdOf = (message: ServerMessage): string | undefined =>
  'buildId' in message ? message.buildId : undefined;

/**
 * Which build the dashboard follows, and the reads that keep the client model's view of it whole.
 * /ws messages move it at once (through the store); its record is read when it is first followed,
 * after each message that may have changed its steps, on every reconnect (events of the gap are
 * lost) and, while it runs, every BUILD_SAFETY_POLL_MS. Its stored log's tail is read when it is
 * first followed and on every reconnect; the store merges those lines with the live ones by seq.
 */
export function BuildProvider({ children }: { children: ReactNode }) {
  const { client, store, status, connection, timeoutMs } = useForge();
  const state = useClientState();
  const [chosen, setChosen] = useState<{ id: string; projectName: string | null } | null>(null);
  const [newest, setNewest] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ id: string; message: string } | null>(null);

  const buildId = followedBuildId(state, chosen?.id ?? null);
  const view = buildId ? state.builds[buildId] : undefined;
  const build = view?.build ?? null;

  const followed = useRef<string | null>(null);
  /** Builds whose stored log's tail is still to be read (newly followed, or after a reconnect). */
  const tailWanted = useRef(new Set<string>());
  useLayoutEffect(() => {
    followed.current = buildId;
  });

  const read = useMemo(
    () =>
      createRefresher(async () => {
        const id = followed.current;
        if (!id) return;
        let record: Build;
        try {
          record = await withTimeout(client.request('build', { params: { id } }), timeoutMs);
        } catch (err) {
          setFailure({ id, message: describeError(err) });
          return;
        }
        store.dispatch({ type: 'build-record', build: record });
        setFailure((prev) => (prev?.id === id ? null : prev));
        if (!tailWanted.current.has(id)) return;
        tailWanted.current.delete(id);
        if (record.logCount === 0) return;
        try {
          const page = await withTimeout(
            client.request('buildLogs', {
              params: { id },
              query: {
                after: Math.max(0, record.logCount - OUTPUT_BUFFER_LINES),
                limit: OUTPUT_BUFFER_LINES,
              },
            }),
            timeoutMs,
          );
          store.dispatch({ type: 'log-page', buildId: id, entries: page.entries });
        } catch {
          // The pane keeps the live lines; the history is a convenience, asked for again on a reconnect.
          tailWanted.current.add(id);
        }
      }),
    [client, store, timeoutMs],
  );
  useEffect(() => () => read.dispose(), [read]);

  // A newly followed build: its record and the tail of its log.
  useEffect(() => {
    if (!buildId) return;
    tailWanted.current.add(buildId);
    read.trigger();
  }, [buildId, read]);

  // Every (re)connect: the newest project (for the header, `b`, and the build to follow at start),
  // and a fresh look at the followed build with its log's tail (what was sent meanwhile is lost).
  useEffect(() => {
    if (status !== 'connected') return;
    let live = true;
    if (followed.current) tailWanted.current.add(followed.current);
    read.trigger();
    withTimeout(client.request('projects'), timeoutMs).then(
      (projects) => {
        if (!live) return;
        const project = newestProject(projects);
        setNewest(project?.name ?? null);
        const last = project?.lastBuild;
        if (last) setChosen((prev) => prev ?? { id: last.id, projectName: project.name });
      },
      () => {
        // The header keeps what it had; the next reconnect asks again.
      },
    );
    return () => {
      live = false;
    };
  }, [status, connection, client, timeoutMs, read]);

  // While the followed build runs, look at its record now and then: a lost event must not freeze it.
  const running = build !== null && !isFinished(build.status);
  useEffect(() => {
    if (status !== 'connected' || !running) return;
    const timer = setInterval(read.trigger, BUILD_SAFETY_POLL_MS);
    return () => clearInterval(timer);
  }, [status, running, read]);

  useMessages((message) => {
    if (RECORD_EVENTS.has(message.type) && buildIdOf(message) === followed.current) read.trigger();
  });

  const follow = useCallback((id: string, projectName?: string) => {
    setChosen({ id, projectName: projectName ?? null });
  }, []);
  const update = useCallback(
    (record: Build) => store.dispatch({ type: 'build-record', build: record }),
    [store],
  );
  const show = useCallback(
    (record: Build) => {
      update(record);
      follow(record.id, record.projectName);
    },
    [follow, update],
  );

  const output = view ? outputRows(view.log.lines) : NO_ROWS;
  const value = useMemo<BuildContextValue>(
    () => ({
      project: build?.projectName || (chosen?.id === buildId ? chosen?.projectName : null) || newest,
      buildId,
      build,
      error: failure && failure.id === buildId ? failure.message : null,
      output,
      follow,
      show,
      update,
    }),
    [build, chosen, newest, buildId, failure, output, follow, show, update],
  );
  return <BuildContext.Provider value={value}>{children}</BuildContext.Provider>;
}

export function useBuild(): BuildContextValue {
  return useRequiredContext(BuildContext, 'useBuild', 'BuildProvider');
}
