import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { newBuild, type Build, type BuildState, type ServerMessage } from '@forge/shared';
import { BuildRun, type PlanOutcome } from './build-run.ts';
import type { LogRow } from './build-repo.ts';

/** A BuildRun over an in-memory store, recording what it saves, stores and broadcasts. */
function runOf(build: Build) {
  const saved: Build[] = [];
  const rows: LogRow[] = [];
  const sent: ServerMessage[] = [];
  const run = new BuildRun(
    {
      repo: {
        lastLogSeq: () => 0,
        save: (b) => saved.push(structuredClone(b)),
        appendLogs: (_id, r) => rows.push(...r),
      },
      broadcast: (m) => sent.push(m),
      logger: pino({ level: 'silent' }),
    },
    build,
  );
  return { run, saved, rows, sent };
}

const queued = () => newBuild('b1-abc', 'app', '2026-11-24T10:00:00.000Z');
const running = (stage: BuildState['stage']): Build => ({ ...queued(), status: 'running', stage });

describe('BuildRun events: everything about a build, the upload’s answer included', () => {
  it('tells `planned` once: the first word counts, as an event and as a promise', async () => {
    const { run } = runOf(queued());
    const told: PlanOutcome[] = [];
    run.on('planned', (o) => told.push(o));
    run.plan({ kind: 'queued' });
    run.to({ status: 'running', stage: 'bot-assignment' });
    run.plan({ kind: 'planned', blueprint: { kind: 'static' } as never });
    run.end('cancelled', { cancelReason: 'user', error: { code: 'CANCELLED', message: 'stop' } });
    expect(told).toEqual([{ kind: 'queued' }]);
    await expect(run.planned).resolves.toEqual({ kind: 'queued' });
  });

  it('refuses an upload whose build ends before it was planned, with how it ended', async () => {
    const { run } = runOf(running('extraction'));
    run.end('failed', {
      error: { code: 'ARCHIVE_PATH_TRAVERSAL', message: 'The archive writes outside its folder.' },
      details: { entry: '../evil' },
    });
    await expect(run.planned).resolves.toEqual({
      kind: 'refused',
      failure: {
        status: 'failed',
        code: 'ARCHIVE_PATH_TRAVERSAL',
        message: 'The archive writes outside its folder.',
        details: { entry: '../evil' },
      },
    });
    // The details answer the upload; the record keeps only the error.
    expect(run.snapshot().error).toEqual({
      code: 'ARCHIVE_PATH_TRAVERSAL',
      message: 'The archive writes outside its folder.',
    });
  });

  it('a cancelled wait refuses as cancelled, an interrupted build as failed', async () => {
    const cancelled = runOf(queued()).run;
    cancelled.end('cancelled', { cancelReason: 'superseded' });
    await expect(cancelled.planned).resolves.toMatchObject({
      kind: 'refused',
      failure: { status: 'cancelled', code: 'CANCELLED' },
    });
    const interrupted = runOf(running('build-start')).run;
    interrupted.end('interrupted', { error: { code: 'BUILD_INTERRUPTED', message: 'gone' } });
    await expect(interrupted.planned).resolves.toMatchObject({
      kind: 'refused',
      failure: { status: 'failed', code: 'BUILD_INTERRUPTED', message: 'gone' },
    });
  });

  it('emits every message it broadcasts, build_complete after build-finished', () => {
    const { run, sent } = runOf(queued());
    const events: ServerMessage[] = [];
    let finished: Build | null = null;
    run.on('message', (m) => events.push(m));
    run.on('finished', (b) => (finished = b));
    run.announceRapidStart();
    run.to({ status: 'running', stage: 'bot-assignment' });
    run.assignBots(['ExtractBot', 'BuildBot']);
    run.to({ status: 'running', stage: 'no-build-needed' });
    run.succeed({ projectName: 'app', buildPath: '/out', files: ['index.html'] });
    expect(events).toEqual(sent);
    expect(sent.map((m) => m.type)).toEqual([
      'rapid-build-start',
      'build-stage',
      'bot-assigned',
      'bot-assigned',
      'build-stage',
      'build-stage',
      'build-finished',
      'build_complete',
    ]);
    expect(sent.at(-1)).toMatchObject({ stage: 'integration-available', buildId: 'b1-abc' });
    expect(finished).toMatchObject({ status: 'succeeded' });
  });
});

describe('BuildRun.mirror(): a worker’s build tells the coordinator’s clients the same story', () => {
  it('makes the same messages and the same record as the build on the worker', () => {
    const coordinator = runOf(queued());
    // The worker runs the same engine on the coordinator's copy of the record.
    const worker = runOf(coordinator.run.snapshot());
    let posted = { saves: 0, rows: 0, sent: 0 };
    /** One post of the worker's forwarder: the record as it is now, new lines, new messages. */
    const post = () => {
      coordinator.run.mirror({
        record: worker.saved.length > posted.saves ? worker.saved.at(-1)! : null,
        logs: worker.rows.slice(posted.rows),
        messages: worker.sent.slice(posted.sent),
      });
      posted = { saves: worker.saved.length, rows: worker.rows.length, sent: worker.sent.length };
    };
    const w = worker.run;
    w.record({ worker: 'ci-1' });
    post();
    w.to({ status: 'running', stage: 'bot-assignment' });
    post();
    w.assignBots(['BuildBot']);
    w.log('BuildBot', 'info', 'building');
    post();
    w.to({ status: 'running', stage: 'build-start' });
    w.beginStep('build', 'BuildBot').finish('failed', 'exit 1');
    post();
    w.record({ previewUrl: 'http://127.0.0.1:4100/' });
    post();
    w.log('BuildBot', 'error', 'Build failed.');
    w.end('failed', {
      error: { code: 'BUILD_FAILED', message: 'Build failed.' },
      diagnosis: { code: 'MISSING_DEPENDENCY', summary: 'react is missing' } as never,
    });
    post();

    expect(coordinator.sent).toEqual(worker.sent);
    const { logCount: _c, ...here } = coordinator.run.snapshot();
    const { logCount: _w, ...there } = w.snapshot();
    expect(here).toEqual(there);
    expect(coordinator.rows).toEqual(worker.rows);
    expect(coordinator.run.finished).toBe(true);
  });
});
