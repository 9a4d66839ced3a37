import { describe, expect, it } from 'vitest';
import { newBuild } from '../domain/build-machine.ts';
import type { Build } from '../domain/builds.ts';
import type { ServerMessage } from '../ws/events.ts';
import type { WorkerInfo } from '../domain/workers.ts';
import {
  workerLabel,
  workerList,
  createClientState,
  latestBuild,
  reduceClient,
  type ClientEvent,
  type ClientState,
} from './client-state.ts';
import { contiguousAfter } from './log-lines.ts';

const AT = '2026-11-24T10:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(AT) + ms).toISOString();
const msg = (message: ServerMessage, ms = 0): ClientEvent => ({ type: 'message', message, at: at(ms) });
const fold = (events: ClientEvent[], state: ClientState = createClientState()) =>
  events.reduce(reduceClient, state);
const stage = (buildId: string, status: Build['status'], s: Build['stage'], ms = 0): ClientEvent =>
  msg({ type: 'build-stage', buildId, projectName: 'app', status, stage: s, timestamp: at(ms) }, ms);

const record = (over: Partial<Build> = {}): Build => ({ ...newBuild('b1-aaaaaa', 'app', AT), ...over });

describe('reduceClient: builds', () => {
  it('pieces a build together from /ws, status and stage moving together', () => {
    const state = fold([
      msg({ type: 'rapid-build-start', buildId: 'b1', projectName: 'app', stage: 'starting' }),
      stage('b1', 'running', 'bot-assignment', 1),
      msg({ type: 'bot-assigned', buildId: 'b1', projectName: 'app', botName: 'BuildBot' }, 2),
      stage('b1', 'running', 'build-start', 3),
      stage('b1', 'running', 'build-success', 4),
      stage('b1', 'succeeded', 'integration-available', 5),
    ]);
    const view = state.builds.b1!;
    expect(view.fromRecord).toBe(false);
    expect(view.build).toMatchObject({
      status: 'succeeded',
      stage: 'integration-available',
      projectName: 'app',
    });
    expect(view.build.stages.map((s) => s.stage)).toEqual([
      'starting',
      'bot-assignment',
      'build-start',
      'build-success',
      'integration-available',
    ]);
    expect(view.builderBots).toEqual(['BuildBot']);
    expect(state.activeBuildId).toBe('b1');
  });

  it('never shows a finished stage with a running status (the header and the pane agree)', () => {
    // The daemon's final transition carries both; whatever is rendered between two messages agrees.
    let state = fold([
      stage('b1', 'running', 'bot-assignment'),
      stage('b1', 'running', 'no-build-needed', 1),
    ]);
    state = reduceClient(state, stage('b1', 'succeeded', 'integration-available', 2));
    expect(state.builds.b1!.build).toMatchObject({ status: 'succeeded', stage: 'integration-available' });
    state = reduceClient(
      state,
      msg(
        {
          type: 'build-finished',
          buildId: 'b1',
          projectName: 'app',
          status: 'succeeded',
          stage: 'integration-available',
          previewUrl: 'http://127.0.0.1:5000/',
        },
        3,
      ),
    );
    expect(state.builds.b1!.build.previewUrl).toBe('http://127.0.0.1:5000/');
  });

  it("keeps ScanBot's diagnosis and RepairBot's repairs from build-finished, and a record behind it does not drop them", () => {
    const diagnosis = {
      code: 'IMPORT_CASE_MISMATCH' as const,
      summary: 'Lib.mjs is lib.mjs',
      file: 'build.mjs',
      line: 1,
    };
    const repairs = [
      {
        id: 'r_1',
        code: 'FIX_IMPORT_CASE' as const,
        summary: 'RepairBot changed ./Lib.mjs to ./lib.mjs in build.mjs',
        files: ['build.mjs'],
        status: 'proposed' as const,
        diff: '',
        at: at(2),
        buildId: 'b1',
      },
    ];
    let state = fold([stage('b1', 'running', 'build-start')]);
    state = reduceClient(
      state,
      msg(
        {
          type: 'build-finished',
          buildId: 'b1',
          projectName: 'app',
          status: 'failed',
          stage: 'build-failed',
          diagnosis,
          repairs,
        },
        2,
      ),
    );
    expect(state.builds.b1!.build).toMatchObject({ status: 'failed', diagnosis, repairs });
    state = reduceClient(state, {
      type: 'build-record',
      build: record({ id: 'b1', status: 'running', stage: 'build-start' }),
    });
    expect(state.builds.b1!.build).toMatchObject({ status: 'failed', diagnosis, repairs });
  });

  it('shows the preview as soon as it is up, while the build (its tests) still runs', () => {
    let state = fold([stage('b1', 'running', 'build-start'), stage('b1', 'running', 'build-success', 1)]);
    expect(state.builds.b1!.build.previewUrl).toBeNull();
    const ready = msg(
      { type: 'preview-ready', buildId: 'b1', projectName: 'app', previewUrl: 'http://127.0.0.1:5001/' },
      2,
    );
    state = reduceClient(state, ready);
    expect(state.builds.b1!.build).toMatchObject({
      status: 'running',
      stage: 'build-success',
      previewUrl: 'http://127.0.0.1:5001/',
    });
    // The same message again changes nothing.
    expect(reduceClient(state, ready)).toBe(state);
  });

  it('ignores a stale message that would move a build back, and anything after it finished', () => {
    let state = fold([stage('b1', 'running', 'bot-assignment'), stage('b1', 'running', 'build-success', 2)]);
    const before = state.builds.b1;
    state = reduceClient(state, stage('b1', 'running', 'build-start', 1));
    expect(state.builds.b1).toBe(before);
    state = reduceClient(state, stage('b1', 'cancelled', 'idle', 3));
    expect(state.builds.b1!.build).toMatchObject({ status: 'cancelled', stage: 'idle' });
    state = reduceClient(state, stage('b1', 'succeeded', 'integration-available', 4));
    expect(state.builds.b1!.build).toMatchObject({ status: 'cancelled', stage: 'idle' });
  });

  it('jumps ahead along the machine when messages were missed, but only to real states', () => {
    let state = fold([stage('b1', 'running', 'build-start')]);
    expect(state.builds.b1!.build.status).toBe('running');
    state = reduceClient(state, stage('b1', 'running', 'idle' as never));
    expect(state.builds.b1!.build.stage).toBe('build-start');
    state = reduceClient(state, stage('b1', 'failed', 'build-failed', 1));
    expect(state.builds.b1!.build).toMatchObject({ status: 'failed', stage: 'build-failed' });
  });

  it('a record replaces what /ws pieced together, unless it is older', () => {
    const running = record({
      id: 'b1',
      status: 'running',
      stage: 'build-start',
      stages: [
        { stage: 'starting', at: AT },
        { stage: 'bot-assignment', at: at(1) },
        { stage: 'build-start', at: at(2) },
      ],
      steps: [
        {
          name: 'install',
          botName: 'DependencyBot',
          status: 'running',
          startedAt: at(2),
          durationMs: null,
          detail: null,
          attempt: 1,
          debug: null,
        },
      ],
    });
    let state = fold([stage('b1', 'running', 'bot-assignment', 1)]);
    state = reduceClient(state, { type: 'build-record', build: running });
    expect(state.builds.b1!.fromRecord).toBe(true);
    expect(state.builds.b1!.build.steps).toHaveLength(1);
    // /ws moves on, then an older read of the record arrives: the steps are taken, the state is not.
    state = reduceClient(state, stage('b1', 'failed', 'build-failed', 3));
    state = reduceClient(state, { type: 'build-record', build: running });
    expect(state.builds.b1!.build).toMatchObject({ status: 'failed', stage: 'build-failed' });
    expect(state.builds.b1!.build.steps).toHaveLength(1);
  });

  it('build_complete keeps the output and says integration-available', () => {
    const state = fold([
      stage('b1', 'running', 'build-success'),
      msg(
        {
          type: 'build_complete',
          buildId: 'b1',
          projectName: 'app',
          buildOutput: { projectName: 'app', buildPath: '/x', files: ['index.html'] },
        },
        1,
      ),
    ]);
    expect(state.builds.b1!.buildOutput?.files).toEqual(['index.html']);
    expect(state.builds.b1!.build).toMatchObject({ status: 'succeeded', stage: 'integration-available' });
  });

  it('finds the newest build, of a project or of all', () => {
    const state = fold([
      { type: 'build-record', build: record({ id: 'b1', projectName: 'a', createdAt: at(0) }) },
      { type: 'build-record', build: record({ id: 'b2', projectName: 'b', createdAt: at(5) }) },
      { type: 'build-record', build: record({ id: 'b3', projectName: 'a', createdAt: at(9) }) },
    ]);
    expect(latestBuild(state)?.build.id).toBe('b3');
    expect(latestBuild(state, 'b')?.build.id).toBe('b2');
    expect(latestBuild(state, 'nope')).toBeNull();
  });

  it('forgets the oldest finished builds past its limit', () => {
    let state = createClientState({ builds: 2 });
    for (let i = 1; i <= 4; i++) {
      state = reduceClient(state, {
        type: 'build-record',
        build: record({ id: `b${i}`, createdAt: at(i), status: 'succeeded', stage: 'integration-available' }),
      });
    }
    expect(Object.keys(state.builds).sort()).toEqual(['b3', 'b4']);
  });
});

describe('reduceClient: logs', () => {
  const out = (seq: number | undefined, output: string, ms = 0): ClientEvent =>
    msg(
      {
        type: 'build-output',
        buildId: 'b1',
        projectName: 'app',
        botName: 'BuildBot',
        output,
        ...(seq ? { seq } : {}),
        timestamp: at(ms),
      },
      ms,
    );
  const entry = (seq: number, message: string) => ({
    id: `b1:${seq}`,
    seq,
    timestamp: at(seq),
    level: 'info' as const,
    botName: 'BuildBot',
    message,
  });

  it('keeps each stored line once, in seq order, whichever of /ws and the store came first', () => {
    let state = fold([stage('b1', 'running', 'build-start'), out(3, 'three\nfour')]);
    state = reduceClient(state, {
      type: 'log-page',
      buildId: 'b1',
      entries: [entry(1, 'one'), entry(2, 'two'), entry(3, 'three'), entry(4, 'four')],
    });
    state = reduceClient(state, out(5, 'five'));
    const lines = state.builds.b1!.log.lines;
    expect(lines.map((l) => [l.seq, l.text])).toEqual([
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
      [4, 'four'],
      [5, 'five'],
    ]);
    expect(new Set(lines.map((l) => l.key)).size).toBe(5);
    expect(contiguousAfter(state.builds.b1!.log, 2).map((l) => l.seq)).toEqual([3, 4, 5]);
  });

  it('puts lines that were never stored after the stored ones, in arrival order', () => {
    const state = fold([
      stage('b1', 'running', 'build-start'),
      out(undefined, 'live a'),
      out(7, 'seven'),
      out(undefined, 'live b'),
    ]);
    expect(state.builds.b1!.log.lines.map((l) => l.text)).toEqual(['seven', 'live a', 'live b']);
  });

  it('printing in order waits for a gap to fill', () => {
    const state = fold([stage('b1', 'running', 'build-start'), out(2, 'two')]);
    expect(contiguousAfter(state.builds.b1!.log, 0)).toEqual([]);
  });

  it('keeps only the newest lines of a build', () => {
    let state = fold([stage('b1', 'running', 'build-start')], createClientState({ linesPerBuild: 3 }));
    for (let seq = 1; seq <= 5; seq++) state = reduceClient(state, out(seq, `l${seq}`));
    state = reduceClient(state, { type: 'log-page', buildId: 'b1', entries: [entry(1, 'l1')] });
    expect(state.builds.b1!.log.lines.map((l) => l.text)).toEqual(['l3', 'l4', 'l5']);
  });

  it('stderr reads as warn, everywhere', () => {
    const state = fold([
      msg({ type: 'build-error', buildId: 'b1', projectName: 'app', output: 'deprecated', seq: 1 }),
    ]);
    expect(state.builds.b1!.log.lines[0]!.level).toBe('warn');
    expect(state.console.at(-1)).toMatchObject({ level: 'warn', message: 'deprecated' });
  });
});

describe('reduceClient: viewer, console and fleet', () => {
  it('keeps the last 50 viewer messages and the console lines with unique ids', () => {
    let state = createClientState();
    for (let i = 0; i < 60; i++)
      state = reduceClient(
        state,
        msg({
          type: 'log',
          buildId: 'b1',
          projectName: 'app',
          botName: 'BuildBot',
          level: 'info',
          message: `m${i}`,
        }),
      );
    expect(state.viewer).toHaveLength(50);
    expect(state.viewer.at(-1)).toMatchObject({ message: 'm59' });
    expect(new Set(state.console.map((e) => e.id)).size).toBe(60);
    state = reduceClient(state, { type: 'console-clear' });
    expect(state.console).toEqual([]);
    state = reduceClient(state, {
      type: 'console-append',
      level: 'error',
      message: 'Integration failed',
      at: AT,
    });
    expect(state.console).toEqual([
      { id: 'log-61', level: 'error', botName: 'SYSTEM', message: 'Integration failed', timestamp: AT },
    ]);
  });

  it('keeps bot statuses current from bot-status messages', () => {
    let state = reduceClient(createClientState(), {
      type: 'bots',
      bots: [
        {
          name: 'BuildBot',
          category: 'development',
          status: 'active',
          description: '',
          currentJob: null,
          jobsRun: 0,
          failures: 0,
          lastJob: null,
        },
      ],
    });
    state = reduceClient(
      state,
      msg({ type: 'bot-status', botName: 'BuildBot', status: 'building', job: 'build app' }),
    );
    expect(state.bots.BuildBot).toMatchObject({ status: 'building', currentJob: 'build app' });
    const same = reduceClient(state, msg({ type: 'bot-status', botName: 'Nobody', status: 'x' }));
    expect(same.bots).toBe(state.bots);
  });

  it('is pure: the same events give the same state', () => {
    const events = [stage('b1', 'running', 'bot-assignment'), stage('b1', 'failed', 'build-failed', 1)];
    expect(fold(events)).toEqual(fold(events));
  });
});

describe('scale-out: workers and where builds ran', () => {
  const worker = (name: string, status: 'online' | 'lost'): WorkerInfo => ({
    name,
    host: 'ci-host',
    version: '1.0.0',
    concurrency: 2,
    running: [],
    jobsDone: 0,
    status,
    lastSeen: '2026-11-25T10:00:00.000Z',
    since: '2026-11-25T09:00:00.000Z',
  });

  it('takes the queue and workers from GET /api/workers, then from /ws workers messages', () => {
    let s = reduceClient(createClientState(), {
      type: 'workers',
      queue: 'bullmq',
      workers: [worker('b', 'lost'), worker('a', 'online')],
    });
    expect(s.queue).toBe('bullmq');
    expect(workerList(s).map((w) => w.name)).toEqual(['a', 'b']);
    s = reduceClient(s, {
      type: 'message',
      at: '2026-11-25T10:00:01.000Z',
      message: { type: 'workers', queue: 'bullmq', workers: [worker('c', 'online')] },
    });
    expect(Object.keys(s.workers)).toEqual(['c']);
  });

  it('learns where a build runs from build-stage and keeps it through a stale record', () => {
    let s = reduceClient(createClientState(), {
      type: 'build-record',
      build: newBuild('b1', 'app', '2026-11-25T10:00:00.000Z'),
    });
    expect(workerLabel(s.builds.b1!.build)).toBe('—');
    s = reduceClient(s, {
      type: 'message',
      at: '2026-11-25T10:00:01.000Z',
      message: {
        type: 'build-stage',
        buildId: 'b1',
        projectName: 'app',
        status: 'running',
        stage: 'bot-assignment',
        worker: 'ci-1',
      },
    });
    expect(s.builds.b1!.build.worker).toBe('ci-1');
    s = reduceClient(s, { type: 'build-record', build: newBuild('b1', 'app', '2026-11-25T10:00:00.000Z') });
    expect(s.builds.b1!.build.worker).toBe('ci-1');
  });
});
