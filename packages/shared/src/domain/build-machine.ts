import type { Build, BuildStatus } from './builds.ts';
import type { Stage } from './stage.ts';

/**
 * The build state machine: every state a build can be in is a (status, stage) pair of this table,
 * and it moves only along the edges below. The daemon's `BuildRun.to()` is the only writer and
 * refuses any other move; clients use the same table to tell a real state from a stale one.
 *
 *   (queued, starting) ─▶ (running, bot-assignment) ─▶ (running, extraction) ─▶ (running, extraction-complete)
 *                                   │                                                     │
 *                                   ├──────────────┬──────────────────────────────────────┤
 *                                   ▼              ▼                                      ▼
 *                      (running, build-start) ─▶ (running, build-success)   (running, no-build-needed)
 *                                                          │                              │
 *                                                          └─────▶ (succeeded, integration-available) ◀┘
 *
 * From every non-final state a build may also end (failed, build-failed), (timed-out, build-timeout)
 * — only once something runs —, (cancelled, idle) or (interrupted, build-failed). A build whose
 * status says it is over always sits at a stage that says so too.
 */
export interface BuildState {
  status: BuildStatus;
  stage: Stage;
}

export type FinishedStatus = Exclude<BuildStatus, 'queued' | 'running'>;

/** The stage every finished status ends at. */
export const FINAL_STAGE: Readonly<Record<FinishedStatus, Stage>> = {
  succeeded: 'integration-available',
  failed: 'build-failed',
  'timed-out': 'build-timeout',
  cancelled: 'idle',
  interrupted: 'build-failed',
};

/** The state a new build is created in. */
export const INITIAL_BUILD_STATE: BuildState = { status: 'queued', stage: 'starting' };

/** A build as it is created: in the initial state, that stage recorded at `createdAt`, nothing else yet. */
export function newBuild(id: string, projectName: string, createdAt: string, noCache = false): Build {
  return {
    id,
    projectName,
    ...INITIAL_BUILD_STATE,
    createdAt,
    endedAt: null,
    durationMs: null,
    cacheHit: false,
    noCache,
    sourceHash: null,
    extraction: null,
    blueprint: null,
    stages: [{ stage: INITIAL_BUILD_STATE.stage, at: createdAt }],
    steps: [],
    test: null,
    uiCheck: null,
    bundle: null,
    previewUrl: null,
    cancelReason: null,
    error: null,
    diagnosis: null,
    repairs: [],
    lint: null,
    logCount: 0,
    logTruncated: false,
    worker: null,
    testsOption: null,
    verdict: null,
  };
}

const key = (s: BuildState): string => `${s.status}/${s.stage}`;

/** Stages a running build passes through, with the running stages each may move on to. */
const RUNNING_EDGES: Readonly<Partial<Record<Stage, readonly Stage[]>>> = {
  'bot-assignment': ['extraction', 'build-start', 'build-success', 'no-build-needed'],
  extraction: ['extraction-complete'],
  'extraction-complete': ['build-start', 'build-success', 'no-build-needed'],
  'build-start': ['build-success'],
  'build-success': [],
  'no-build-needed': [],
};

/** Endings open to a build that has not started running anything yet. */
const QUEUED_ENDINGS: readonly FinishedStatus[] = ['failed', 'cancelled', 'interrupted'];
/** Endings open to a running build. */
const RUNNING_ENDINGS: readonly FinishedStatus[] = ['failed', 'timed-out', 'cancelled', 'interrupted'];
/** Running stages from which a build may succeed. */
const SUCCEEDS_FROM: readonly Stage[] = ['build-success', 'no-build-needed'];

const finalState = (status: FinishedStatus): BuildState => ({ status, stage: FINAL_STAGE[status] });

function buildTable(): ReadonlyMap<string, readonly BuildState[]> {
  const table = new Map<string, BuildState[]>();
  table.set(key(INITIAL_BUILD_STATE), [
    { status: 'running', stage: 'bot-assignment' },
    ...QUEUED_ENDINGS.map(finalState),
  ]);
  for (const [stage, next] of Object.entries(RUNNING_EDGES) as Array<[Stage, readonly Stage[]]>) {
    table.set(key({ status: 'running', stage }), [
      ...next.map((s): BuildState => ({ status: 'running', stage: s })),
      ...(SUCCEEDS_FROM.includes(stage) ? [finalState('succeeded')] : []),
      ...RUNNING_ENDINGS.map(finalState),
    ]);
  }
  for (const status of Object.keys(FINAL_STAGE) as FinishedStatus[]) table.set(key(finalState(status)), []);
  return table;
}

/** Every state of the machine with the states it may move to (final states move nowhere). */
export const BUILD_TRANSITIONS: ReadonlyMap<string, readonly BuildState[]> = buildTable();

/** Every state of the machine. */
export const BUILD_STATES: readonly BuildState[] = [...BUILD_TRANSITIONS.keys()].map((k) => {
  const [status, stage] = k.split('/') as [BuildStatus, Stage];
  return { status, stage };
});

/** Is (status, stage) a state of the machine (do the two agree)? */
export const isBuildState = (s: BuildState): boolean => BUILD_TRANSITIONS.has(key(s));

/** May a build move from `from` to `to`? */
export const canTransition = (from: BuildState, to: BuildState): boolean =>
  BUILD_TRANSITIONS.get(key(from))?.some((s) => s.status === to.status && s.stage === to.stage) ?? false;

/** The final state a build ends in for a finished status. */
export const endState = (status: FinishedStatus): BuildState => finalState(status);

/**
 * Can the machine get from `from` to `to` along its edges, in one move or several? A client that
 * missed some messages may jump ahead this way; a stale message, which would move a build back,
 * never can.
 */
export const canReach = (from: BuildState, to: BuildState): boolean => pathBetween(from, to) !== null;

/**
 * The shortest way from `from` to `to` along the machine's edges: the states entered, `to` last
 * (empty when they are the same state), or null when `to` cannot be reached.
 */
export function pathBetween(from: BuildState, to: BuildState): BuildState[] | null {
  const target = key(to);
  if (key(from) === target) return [];
  const cameFrom = new Map<string, { state: BuildState; prev: string }>();
  const seen = new Set<string>([key(from)]);
  const queue: BuildState[] = [from];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const next of BUILD_TRANSITIONS.get(key(at)) ?? []) {
      const k = key(next);
      if (seen.has(k)) continue;
      seen.add(k);
      cameFrom.set(k, { state: next, prev: key(at) });
      if (k === target) {
        const path: BuildState[] = [];
        for (let step = cameFrom.get(k); step; step = cameFrom.get(step.prev)) path.unshift(step.state);
        return path;
      }
      queue.push(next);
    }
  }
  return null;
}
