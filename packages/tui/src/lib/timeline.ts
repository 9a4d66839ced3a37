import {
  buildStatusLevel,
  formatDuration,
  isFinished,
  STAGE_LABELS,
  stageLevel,
  type Build,
  type BuildStep,
  type LogLevel,
} from '@forge/shared';

export type RowState = 'done' | 'current' | 'failed' | 'cancelled' | 'skipped' | 'cached';

export interface TimelineRow {
  kind: 'stage' | 'step';
  /** Stage label ("Building") or step name with its bot ("build BuildBot"). */
  label: string;
  state: RowState;
  /** Milliseconds spent, null when not known (a finished build's last stage, a skipped step). */
  durationMs: number | null;
}

const STEP_STATE: Record<BuildStep['status'], RowState> = {
  running: 'current',
  succeeded: 'done',
  failed: 'failed',
  'timed-out': 'failed',
  cancelled: 'cancelled',
  skipped: 'skipped',
  cached: 'cached',
};

const ms = (iso: string): number => Date.parse(iso);

/** How a finished build's last stage reads: by the level of how the build ended. */
const ENDED: Record<LogLevel, RowState> = {
  success: 'done',
  warn: 'cancelled',
  error: 'failed',
  info: 'done',
};

const lastStageState = (build: Build): RowState =>
  isFinished(build.status) ? ENDED[buildStatusLevel(build.status)] : 'current';

/**
 * The build pane's timeline: each stage the build entered with how long it lasted (until the next
 * one; the running stage counts up to `now`), and under each stage the steps (bot jobs) that
 * started during it with their own durations.
 */
export function buildTimeline(build: Build, now: number): TimelineRow[] {
  const rows: TimelineRow[] = [];
  const stages = build.stages;
  const stepsByStage = new Map<number, BuildStep[]>();
  for (const step of build.steps) {
    let owner = 0;
    for (let i = 0; i < stages.length; i++) if (ms(stages[i]!.at) <= ms(step.startedAt)) owner = i;
    const list = stepsByStage.get(owner) ?? [];
    list.push(step);
    stepsByStage.set(owner, list);
  }
  stages.forEach((event, i) => {
    const next = stages[i + 1];
    const last = next === undefined;
    const state: RowState = last
      ? lastStageState(build)
      : stageLevel(event.stage) === 'error'
        ? 'failed'
        : 'done';
    const durationMs = next
      ? ms(next.at) - ms(event.at)
      : isFinished(build.status)
        ? null
        : Math.max(0, now - ms(event.at));
    // A cancelled build ends at Idle: its last row says what happened instead.
    const label = last && state === 'cancelled' ? 'Cancelled' : STAGE_LABELS[event.stage];
    rows.push({ kind: 'stage', label, state, durationMs });
    for (const step of stepsByStage.get(i) ?? []) {
      rows.push({
        kind: 'step',
        label: `${step.name} ${step.botName}`,
        state: STEP_STATE[step.status],
        durationMs:
          step.durationMs ??
          (step.status === 'running' && !isFinished(build.status)
            ? Math.max(0, now - ms(step.startedAt))
            : null),
      });
    }
  });
  return rows;
}

/** "1.2s", or the state where a time says nothing ("cached", "skipped"), or "" when unknown. */
export function rowDuration(row: TimelineRow): string {
  if (row.state === 'cached') return 'cached';
  if (row.state === 'skipped') return 'skipped';
  return row.durationMs === null || !Number.isFinite(row.durationMs) ? '' : formatDuration(row.durationMs);
}

/** Whole build time: stored when finished, else counted from its creation. */
export function buildElapsed(build: Build, now: number): number {
  if (build.durationMs !== null) return build.durationMs;
  if (build.endedAt) return ms(build.endedAt) - ms(build.createdAt);
  return Math.max(0, now - ms(build.createdAt));
}
