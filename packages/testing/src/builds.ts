import {
  Blueprint,
  Build,
  BuildStep,
  FINAL_STAGE,
  isFinished,
  newBuild,
  type BlueprintInput,
  type BuildLogsResponse,
  type FinishedStatus,
  type Stage,
} from '@forge/shared';

/** Build records, steps and log entries for tests, valid by the shared schemas (parsed, not cast). */

const T0 = Date.parse('2026-01-02T03:04:05.000Z');
/** An ISO time `ms` after a fixed start, so fixtures and their durations are repeatable. */
export const at = (ms: number): string => new Date(T0 + ms).toISOString();

export type StoredLogEntry = BuildLogsResponse['entries'][number];

/**
 * A valid build record. `stages` are given as [stage, ms after creation] pairs; status follows the
 * last stage unless given (a final stage gives its finished status, anything else `running`).
 */
export function makeBuild(
  overrides: Partial<Omit<Build, 'stages'>> & { stages?: Array<[Stage, number]> } = {},
): Build {
  const { stages = [['starting', 0]], ...rest } = overrides;
  const stage = stages.at(-1)?.[0] ?? 'starting';
  const finished = (Object.entries(FINAL_STAGE) as Array<[FinishedStatus, Stage]>).find(
    ([status, s]) => s === stage && status !== 'interrupted',
  );
  const status = rest.status ?? (stage === 'starting' ? 'queued' : (finished?.[0] ?? 'running'));
  const last = stages.at(-1)?.[1] ?? 0;
  return Build.parse({
    ...newBuild('b1', 'site', at(0)),
    status,
    stage,
    endedAt: isFinished(status) ? at(last) : null,
    durationMs: isFinished(status) ? last : null,
    stages: stages.map(([s, ms]) => ({ stage: s, at: at(ms) })),
    ...rest,
  });
}

/** A finished step of a pipeline (`succeeded` unless given). */
export function makeStep(overrides: Partial<BuildStep> & Pick<BuildStep, 'name' | 'botName'>): BuildStep {
  return BuildStep.parse({
    status: 'succeeded',
    startedAt: at(0),
    durationMs: 10,
    detail: null,
    ...overrides,
  });
}

/** A stored log entry of build `b1` (seq n at n ms). */
export const logEntry = (seq: number, message = `line ${seq}`, buildId = 'b1'): StoredLogEntry => ({
  seq,
  id: `${buildId}:${seq}`,
  timestamp: at(seq),
  level: 'info',
  botName: 'BuildBot',
  message,
});

/** A build plan as BlueprintBot makes one for a Vite-style project (schema-checked). */
export const makeBlueprint = (overrides: Partial<BlueprintInput> = {}): Blueprint =>
  Blueprint.parse({
    kind: 'static-build',
    framework: 'vite',
    hasPackageJson: true,
    packageManager: 'npm',
    install: ['npm', 'ci'],
    build: ['npm', 'run', 'build'],
    test: null,
    start: null,
    outputDir: 'dist',
    env: {},
    timeoutMs: 600_000,
    decisions: [],
    ...overrides,
  });
