import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  BUILD_STATES,
  BUILD_STATUSES,
  newBuild,
  canTransition,
  isFinished,
  STAGES,
  type Build,
  type BuildState,
  type ServerMessage,
} from '@forge/shared';
import { BuildRun, IllegalTransitionError, MAX_STORED_LOG_LINES } from './build-run.ts';
import type { LogRow } from './build-repo.ts';

/** A BuildRun over an in-memory store, in `state`, recording what it saves and broadcasts. */
function runIn(state: BuildState) {
  const saved: Build[] = [];
  const logs: LogRow[] = [];
  const sent: ServerMessage[] = [];
  const build = { ...newBuild('b1-abc', 'app', '2026-11-24T10:00:00.000Z'), ...state };
  const run = new BuildRun(
    {
      repo: {
        lastLogSeq: () => 0,
        save: (b) => saved.push(structuredClone(b)),
        appendLogs: (_id, rows) => logs.push(...rows),
      },
      broadcast: (m) => sent.push(m),
      logger: pino({ level: 'silent' }),
    },
    build,
  );
  return { run, saved, logs, sent };
}

const ALL_PAIRS: BuildState[] = BUILD_STATUSES.flatMap((status) =>
  STAGES.map((stage) => ({ status, stage })),
);

describe('BuildRun.to(): the only writer of status and stage', () => {
  it('walks the whole table: every allowed move is made, every other one refused', () => {
    let moves = 0;
    for (const from of BUILD_STATES) {
      for (const to of ALL_PAIRS) {
        const { run, saved, sent } = runIn(from);
        if (canTransition(from, to)) {
          run.to(to);
          moves++;
          expect(run.state).toEqual(to);
          expect(saved.at(-1)).toMatchObject({ status: to.status, stage: to.stage });
          expect(sent[0]).toMatchObject({
            type: 'build-stage',
            status: to.status,
            stage: to.stage,
            buildId: 'b1-abc',
          });
          expect(sent.filter((m) => m.type === 'build-finished')).toHaveLength(isFinished(to.status) ? 1 : 0);
        } else {
          expect(() => run.to(to), `${from.status}/${from.stage} → ${to.status}/${to.stage}`).toThrow(
            IllegalTransitionError,
          );
          expect(saved).toEqual([]);
          expect(sent).toEqual([]);
        }
      }
    }
    expect(moves).toBeGreaterThan(30);
  });

  it('ends a build once: end time, unfinished steps closed, build-finished agreeing with the record', async () => {
    const { run, sent } = runIn({ status: 'running', stage: 'build-start' });
    run.beginStep('build', 'BuildBot');
    const final = run.end('cancelled', {
      cancelReason: 'user',
      error: { code: 'CANCELLED', message: 'The build was cancelled (user).' },
    });
    expect(final).toMatchObject({ status: 'cancelled', stage: 'idle', cancelReason: 'user' });
    expect(final.endedAt).not.toBeNull();
    expect(final.steps[0]).toMatchObject({ name: 'build', status: 'cancelled' });
    const finished = sent.find((m) => m.type === 'build-finished');
    expect(finished).toMatchObject({ status: 'cancelled', stage: 'idle', error: { code: 'CANCELLED' } });
    await expect(run.done).resolves.toMatchObject({ status: 'cancelled', stage: 'idle' });
    expect(() => run.end('failed')).toThrow(IllegalTransitionError);
  });

  it('numbers a step run again (after a repair) as its next attempt', () => {
    const { run } = runIn({ status: 'running', stage: 'build-start' });
    run.beginStep('build', 'BuildBot').finish('failed', 'exit 1');
    const again = run.beginStep('build', 'BuildBot');
    expect(again.attempt).toBe(2);
    const step = again.finish('succeeded', 'ok');
    expect(step).toMatchObject({ name: 'build', attempt: 2, status: 'succeeded' });
    expect(run.snapshot().steps.map((s) => [s.attempt, s.status])).toEqual([
      [1, 'failed'],
      [2, 'succeeded'],
    ]);
  });

  it('sends output in frames that name their bot and the seq of their first stored line', async () => {
    const { run, sent, logs } = runIn({ status: 'running', stage: 'build-start' });
    run.output('BuildBot', 'stdout', 'one');
    run.output('BuildBot', 'stdout', 'two');
    run.output('BuildBot', 'stderr', 'careful');
    run.output('TestBot', 'stdout', 'three');
    run.log('BuildBot', 'success', 'done');
    const frames = sent.filter(
      (m) => m.type === 'build-output' || m.type === 'build-error' || m.type === 'log',
    );
    expect(frames.map((m) => [m.type, 'seq' in m ? m.seq : null, 'botName' in m ? m.botName : null])).toEqual(
      [
        ['build-output', 1, 'BuildBot'],
        ['build-error', 3, 'BuildBot'],
        ['build-output', 4, 'TestBot'],
        ['log', 5, 'BuildBot'],
      ],
    );
    expect(logs.map((r) => [r.seq, r.message])).toEqual([
      [1, 'one'],
      [2, 'two'],
      [3, 'careful'],
      [4, 'three'],
      [5, 'done'],
    ]);
  });

  it('past the stored-line cap streams lines without a seq and stores one marker', () => {
    const { run, sent, logs } = runIn({ status: 'running', stage: 'build-start' });
    for (let i = 1; i <= MAX_STORED_LOG_LINES + 2; i++) run.output('BuildBot', 'stdout', `line ${i}`);
    run.log('BuildBot', 'info', 'flush');
    expect(logs).toHaveLength(MAX_STORED_LOG_LINES);
    expect(logs.at(-1)).toMatchObject({ botName: 'LogBot', seq: MAX_STORED_LOG_LINES });
    const unstored = sent.filter((m) => m.type === 'build-output' && m.seq === undefined);
    expect(unstored.length).toBeGreaterThan(0);
    expect(run.snapshot()).toMatchObject({ logTruncated: true, logCount: MAX_STORED_LOG_LINES });
  });
});

describe('BuildRun.mirror(): what a worker reports', () => {
  const row = (seq: number): LogRow => ({
    seq,
    ts: '2026-11-24T10:00:01.000Z',
    level: 'info',
    botName: 'BuildBot',
    message: `line ${seq}`,
  });

  it('takes several moves at once through the same checks, stores each line once, and ends once', () => {
    const { run, saved, logs, sent } = runIn({ status: 'queued', stage: 'starting' });
    const remote: Build = {
      ...run.snapshot(),
      worker: 'ci-1',
      status: 'running',
      stage: 'build-start',
      stages: [
        ...run.snapshot().stages,
        { stage: 'bot-assignment', at: '2026-11-24T10:00:01.000Z' },
        { stage: 'build-start', at: '2026-11-24T10:00:02.000Z' },
      ],
    };
    const workerStage: ServerMessage = {
      type: 'build-stage',
      status: 'running',
      stage: 'build-start',
      buildId: run.id,
      worker: 'ci-1',
    };
    const bot: ServerMessage = { type: 'bot-assigned', botName: 'BuildBot', buildId: run.id };
    run.mirror({ record: remote, logs: [row(1), row(2)], messages: [workerStage, bot] });
    expect(run.state).toEqual({ status: 'running', stage: 'build-start' });
    expect(saved.at(-1)).toMatchObject({ worker: 'ci-1', logCount: 2 });
    expect(logs.map((l) => l.seq)).toEqual([1, 2]);
    // Each move made here, at the worker's time; the worker's own build-stage is not relayed.
    expect(sent).toEqual([
      expect.objectContaining({
        type: 'build-stage',
        stage: 'bot-assignment',
        timestamp: '2026-11-24T10:00:01.000Z',
      }),
      expect.objectContaining({ type: 'build-stage', stage: 'build-start', worker: 'ci-1' }),
      bot,
    ]);
    expect(run.snapshot().stages.map((s) => s.stage)).toEqual(['starting', 'bot-assignment', 'build-start']);
    // The same post again (its answer was lost): nothing stored or moved twice.
    run.mirror({ record: remote, logs: [row(1), row(2), row(3)], messages: [] });
    expect(logs.map((l) => l.seq)).toEqual([1, 2, 3]);
    expect(sent.filter((m) => m.type === 'build-stage')).toHaveLength(2);
    const end: Build = {
      ...remote,
      status: 'succeeded',
      stage: 'integration-available',
      stages: [
        ...remote.stages,
        { stage: 'build-success', at: '2026-11-24T10:00:04.000Z' },
        { stage: 'integration-available', at: '2026-11-24T10:00:05.000Z' },
      ],
      previewUrl: 'http://127.0.0.1:4100/',
      endedAt: '2026-11-24T10:00:05.000Z',
    };
    run.mirror({ record: end, logs: [], messages: [] });
    expect(run.finished).toBe(true);
    expect(run.snapshot()).toMatchObject({ endedAt: '2026-11-24T10:00:05.000Z', durationMs: 5_000 });
    expect(sent.filter((m) => m.type === 'build-finished')).toEqual([
      expect.objectContaining({ status: 'succeeded', previewUrl: 'http://127.0.0.1:4100/', worker: 'ci-1' }),
    ]);
    // After the end only live messages pass (a worker's build_complete follows its end).
    run.mirror({
      record: { ...end, status: 'failed', stage: 'build-failed' },
      logs: [row(4)],
      messages: [workerStage],
    });
    expect(run.state.status).toBe('succeeded');
    expect(logs).toHaveLength(3);
    expect(sent.filter((m) => m.type === 'build-stage')).toHaveLength(4);
  });

  it("walks the machine's shortest way when a record does not carry the stages it passed", () => {
    const { run, sent } = runIn({ status: 'queued', stage: 'starting' });
    run.mirror({
      record: { ...run.snapshot(), status: 'running', stage: 'build-success' },
      logs: [],
      messages: [],
    });
    expect(sent.map((m) => (m.type === 'build-stage' ? m.stage : m.type))).toEqual([
      'bot-assignment',
      'build-success',
    ]);
  });

  it('refuses a record that would move the build back', () => {
    const { run } = runIn({ status: 'running', stage: 'build-success' });
    const back = { ...run.snapshot(), status: 'running' as const, stage: 'build-start' as const };
    expect(() => run.mirror({ record: back, logs: [], messages: [] })).toThrow(IllegalTransitionError);
  });
});
