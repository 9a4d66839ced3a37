import { describe, expect, it } from 'vitest';
import { at, makeBuild, makeStep } from '@forge/testing';
import { buildElapsed, buildTimeline, rowDuration } from './timeline.ts';

const rowsOf = (rows: ReturnType<typeof buildTimeline>) =>
  rows.map((r) => [r.kind, r.label, r.state, rowDuration(r)]);

describe('buildTimeline', () => {
  it('gives each stage the time until the next and puts steps under the stage they started in', () => {
    const build = makeBuild({
      stages: [
        ['starting', 0],
        ['bot-assignment', 100],
        ['extraction', 150],
        ['extraction-complete', 400],
        ['build-start', 450],
      ],
      steps: [
        makeStep({ name: 'extract', botName: 'ExtractBot', startedAt: at(160), durationMs: 230 }),
        makeStep({
          name: 'install',
          botName: 'DependencyBot',
          status: 'cached',
          startedAt: at(460),
          durationMs: 5,
        }),
        makeStep({
          name: 'build',
          botName: 'BuildBot',
          status: 'running',
          startedAt: at(500),
          durationMs: null,
        }),
      ],
    });
    expect(rowsOf(buildTimeline(build, Date.parse(at(2_500))))).toEqual([
      ['stage', 'Starting', 'done', '100ms'],
      ['stage', 'Assigning Bots', 'done', '50ms'],
      ['stage', 'Extracting', 'done', '250ms'],
      ['step', 'extract ExtractBot', 'done', '230ms'],
      ['stage', 'Extracted', 'done', '50ms'],
      ['stage', 'Building', 'current', '2.0s'],
      ['step', 'install DependencyBot', 'cached', 'cached'],
      ['step', 'build BuildBot', 'current', '2.0s'],
    ]);
  });

  it('marks the last stage of a failed build failed and stops counting when it ended', () => {
    const build = makeBuild({
      stages: [
        ['build-start', 0],
        ['build-failed', 900],
      ],
      steps: [
        makeStep({
          name: 'build',
          botName: 'BuildBot',
          status: 'failed',
          startedAt: at(10),
          durationMs: 880,
        }),
      ],
    });
    expect(build.status).toBe('failed');
    const rows = buildTimeline(build, Date.parse(at(60_000)));
    expect(rowsOf(rows)).toEqual([
      ['stage', 'Building', 'done', '900ms'],
      ['step', 'build BuildBot', 'failed', '880ms'],
      ['stage', 'Build Failed', 'failed', ''],
    ]);
    expect(buildElapsed(build, Date.parse(at(60_000)))).toBe(900);
  });

  it('ends a cancelled build on a Cancelled row, and an interrupted one failed', () => {
    const cancelled = makeBuild({
      stages: [
        ['build-start', 0],
        ['idle', 300],
      ],
    });
    expect(cancelled.status).toBe('cancelled');
    expect(rowsOf(buildTimeline(cancelled, 0))).toEqual([
      ['stage', 'Building', 'done', '300ms'],
      ['stage', 'Cancelled', 'cancelled', ''],
    ]);
    const interrupted = makeBuild({
      status: 'interrupted',
      stages: [
        ['build-start', 0],
        ['build-failed', 300],
      ],
    });
    expect(buildTimeline(interrupted, 0).at(-1)).toMatchObject({ label: 'Build Failed', state: 'failed' });
  });

  it('counts a running build from its creation', () => {
    const running = makeBuild({ stages: [['build-start', 0]] });
    expect(buildElapsed(running, Date.parse(at(1_500)))).toBe(1_500);
  });
});
