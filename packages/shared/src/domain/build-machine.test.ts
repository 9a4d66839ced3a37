import { describe, expect, it } from 'vitest';
import { BUILD_STATUSES, FINISHED_BUILD_STATUSES, isFinished } from './builds.ts';
import {
  BUILD_STATES,
  BUILD_TRANSITIONS,
  canReach,
  canTransition,
  endState,
  FINAL_STAGE,
  INITIAL_BUILD_STATE,
  isBuildState,
  type BuildState,
} from './build-machine.ts';
import { buildStateLabel, STAGES } from './stage.ts';

const s = (status: BuildState['status'], stage: BuildState['stage']): BuildState => ({ status, stage });

describe('the build state machine', () => {
  it('starts queued at starting, and every state is reachable from there', () => {
    expect(isBuildState(INITIAL_BUILD_STATE)).toBe(true);
    for (const state of BUILD_STATES) {
      if (state === INITIAL_BUILD_STATE || (state.status === 'queued' && state.stage === 'starting'))
        continue;
      expect(canReach(INITIAL_BUILD_STATE, state), `${state.status}/${state.stage}`).toBe(true);
    }
  });

  it('walks the whole table: a finished status always sits at its final stage, and moves nowhere', () => {
    for (const [from, next] of BUILD_TRANSITIONS) {
      const [status] = from.split('/') as [BuildState['status']];
      if (isFinished(status)) expect(next).toEqual([]);
      for (const to of next) {
        expect(isBuildState(to), `${from} → ${to.status}/${to.stage}`).toBe(true);
        if (isFinished(to.status)) expect(to.stage).toBe(FINAL_STAGE[to.status as keyof typeof FINAL_STAGE]);
        else expect(to.status).toBe('running');
      }
    }
  });

  it('refuses every pair whose status and stage disagree', () => {
    for (const status of BUILD_STATUSES) {
      for (const stage of STAGES) {
        const agrees = BUILD_STATES.some((x) => x.status === status && x.stage === stage);
        expect(isBuildState(s(status, stage))).toBe(agrees);
      }
    }
    // The bug this table ends: a cancelled build left at "Building".
    expect(isBuildState(s('cancelled', 'build-start'))).toBe(false);
    expect(isBuildState(s('succeeded', 'build-failed'))).toBe(false);
    expect(isBuildState(s('running', 'integration-available'))).toBe(false);
  });

  it('lets every unfinished state end in cancel, interrupt and failure; only running ones time out', () => {
    for (const state of BUILD_STATES.filter((x) => !isFinished(x.status))) {
      for (const status of ['cancelled', 'interrupted', 'failed'] as const) {
        expect(canTransition(state, endState(status))).toBe(true);
      }
      expect(canTransition(state, endState('timed-out'))).toBe(state.status === 'running');
    }
  });

  it('succeeds only from build-success or no-build-needed', () => {
    const from = BUILD_STATES.filter((x) => canTransition(x, endState('succeeded'))).map((x) => x.stage);
    expect(from.sort()).toEqual(['build-success', 'no-build-needed']);
  });

  it('never goes back: a later stage cannot reach an earlier one', () => {
    expect(canTransition(s('running', 'build-start'), s('running', 'extraction'))).toBe(false);
    expect(canReach(s('running', 'build-success'), s('running', 'build-start'))).toBe(false);
    expect(canReach(s('running', 'extraction'), s('running', 'build-success'))).toBe(true);
    for (const status of FINISHED_BUILD_STATUSES) {
      for (const other of BUILD_STATES) expect(canReach(endState(status as never), other)).toBe(false);
    }
  });
});

describe('buildStateLabel', () => {
  it('says the stage, and the status where the stage alone does not', () => {
    expect(buildStateLabel('running', 'build-start')).toBe('Building');
    expect(buildStateLabel('queued', 'starting')).toBe('Starting · queued');
    expect(buildStateLabel('cancelled', 'idle')).toBe('Idle · cancelled');
    expect(buildStateLabel('interrupted', 'build-failed')).toBe('Build Failed · interrupted');
    expect(buildStateLabel('failed', 'build-failed')).toBe('Build Failed');
    expect(buildStateLabel(null, 'idle')).toBe('Idle');
  });
});
