import { describe, expect, it } from 'vitest';
import { fakeBuild } from '../testing/fake-client.ts';
import { buildElapsed, buildTimeline, rowDuration } from './timeline.ts';

const at = (ms: number) => new Date(Date.UTC(2025, 0, 1, 10, 0, 0, ms)).toISOString();

describe('buildTimeline', () => {
  it('gives each stage the time until the next and puts steps under the stage they started in', () => {
    const build = fakeBuild({
      stages: [
        { stage: 'starting', at: at(0) },
        { stage: 'extraction', at: at(100) },
        { stage: 'build-start', at: at(400) },
      ],
      steps: [
        {
          name: 'extract',
          botName: 'ExtractBot',
          status: 'succeeded',
          startedAt: at(120),
          durationMs: 250,
          detail: null,
        },
        {
          name: 'install',
          botName: 'DependencyBot',
          status: 'cached',
          startedAt: at(410),
          durationMs: 5,
          detail: null,
        },
        {
          name: 'build',
          botName: 'BuildBot',
          status: 'running',
          startedAt: at(500),
          durationMs: null,
          detail: null,
        },
      ],
    });
    const rows = buildTimeline(build, Date.parse(at(2_500)));
    expect(rows.map((r) => [r.kind, r.label, r.state, rowDuration(r)])).toEqual([
      ['stage', 'Starting', 'done', '100ms'],
      ['stage', 'Extracting', 'done', '300ms'],
      ['step', 'extract ExtractBot', 'done', '250ms'],
      ['stage', 'Building', 'current', '2.1s'],
      ['step', 'install DependencyBot', 'cached', 'cached'],
      ['step', 'build BuildBot', 'current', '2.0s'],
    ]);
  });

  it('marks the last stage of a failed build failed and stops counting when it ended', () => {
    const build = fakeBuild({
      status: 'failed',
      stage: 'build-failed',
      endedAt: at(900),
      durationMs: 900,
      stages: [
        { stage: 'build-start', at: at(0) },
        { stage: 'build-failed', at: at(900) },
      ],
      steps: [
        {
          name: 'build',
          botName: 'BuildBot',
          status: 'failed',
          startedAt: at(10),
          durationMs: 880,
          detail: null,
        },
      ],
    });
    const rows = buildTimeline(build, Date.parse(at(60_000)));
    expect(rows.map((r) => [r.label, r.state, rowDuration(r)])).toEqual([
      ['Building', 'done', '900ms'],
      ['build BuildBot', 'failed', '880ms'],
      ['Build Failed', 'failed', ''],
    ]);
    expect(buildElapsed(build, Date.parse(at(60_000)))).toBe(900);
  });

  it('shows a cancelled build as cancelled where it stopped', () => {
    const build = fakeBuild({
      status: 'cancelled',
      stage: 'build-start',
      stages: [{ stage: 'build-start', at: at(0) }],
    });
    expect(buildTimeline(build, 0)[0]).toMatchObject({ label: 'Building', state: 'cancelled' });
  });

  it('counts a running build from its creation', () => {
    expect(buildElapsed(fakeBuild({ createdAt: at(0) }), Date.parse(at(1_500)))).toBe(1_500);
  });
});
