import type { ClientStore, ServerMessage } from '@forge/shared';
import { at, logEntry, makeBuild } from '@forge/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { createBuildStore, trackBuild, type BuildReport } from './build-tracker.ts';

let store: ClientStore;
let seen: string[];

beforeEach(() => {
  store = createBuildStore();
  seen = [];
});

const report: BuildReport = {
  onStage: (event) => seen.push(`stage ${event.stage}`),
  onLine: (line) => seen.push(`${line.seq ?? 'live'} ${line.text}`),
  onCapped: () => seen.push('capped'),
};

const logReport: BuildReport = { onLine: report.onLine, onCapped: report.onCapped };

const receive = (message: ServerMessage) => store.receive(message, new Date(at(1_000)));
const out = (output: string, seq?: number) =>
  receive({
    type: 'build-output',
    output,
    botName: 'BuildBot',
    buildId: 'b1',
    projectName: 'site',
    ...(seq === undefined ? {} : { seq }),
    timestamp: at(500),
  });
const page = (...seqs: number[]) =>
  store.dispatch({ type: 'log-page', buildId: 'b1', entries: seqs.map((n) => logEntry(n)) });

describe('trackBuild: stages', () => {
  it('reports each stage once and in order, starting from the record', () => {
    trackBuild(store, 'b1', report);
    // /ws comes first: its stage waits for the record, which knows the stages before it.
    receive({
      type: 'build-stage',
      buildId: 'b1',
      status: 'running',
      stage: 'build-start',
      timestamp: at(30),
    });
    expect(seen).toEqual([]);
    store.dispatch({
      type: 'build-record',
      build: makeBuild({
        stages: [
          ['starting', 0],
          ['extraction', 10],
          ['extraction-complete', 20],
        ],
      }),
    });
    receive({
      type: 'build-stage',
      buildId: 'b1',
      status: 'running',
      stage: 'build-start',
      timestamp: at(30),
    });
    receive({
      type: 'build-stage',
      buildId: 'b1',
      status: 'running',
      stage: 'build-start',
      timestamp: at(30),
    });
    receive({
      type: 'build-stage',
      buildId: 'b1',
      status: 'failed',
      stage: 'build-failed',
      timestamp: at(40),
    });
    // The final record repeats what /ws said: nothing is reported twice.
    store.dispatch({
      type: 'build-record',
      build: makeBuild({
        stages: [
          ['starting', 0],
          ['extraction', 10],
          ['extraction-complete', 20],
          ['build-start', 30],
          ['build-failed', 40],
        ],
      }),
    });
    expect(seen).toEqual([
      'stage starting',
      'stage extraction',
      'stage extraction-complete',
      'stage build-start',
      'stage build-failed',
    ]);
  });
});

describe('trackBuild: log lines', () => {
  beforeEach(() => {
    store.dispatch({ type: 'build-record', build: makeBuild({ stages: [['build-start', 10]] }) });
  });

  it('reports stored lines in seq order, each once, whichever of /ws and the store came first', () => {
    const tracker = trackBuild(store, 'b1', { onLine: report.onLine });
    out('line 3\nline 4', 3);
    expect(seen).toEqual([]);
    expect(tracker.hasGap).toBe(true);
    page(1, 2, 3);
    expect(seen).toEqual(['1 line 1', '2 line 2', '3 line 3', '4 line 4']);
    expect(tracker.hasGap).toBe(false);
    page(4, 5);
    out('line 5', 5);
    out('line 6', 6);
    expect(seen).toEqual(['1 line 1', '2 line 2', '3 line 3', '4 line 4', '5 line 5', '6 line 6']);
    expect(tracker.shownSeq).toBe(6);
  });

  it('holds lines the daemon only streamed until every stored line is shown and the cap is known', () => {
    const tracker = trackBuild(store, 'b1', logReport);
    page(1);
    out('streamed a\nstreamed b');
    expect(seen).toEqual(['1 line 1']);
    expect(tracker.liveWaiting).toBe(true);
    // The record says the log was cut at 2 lines; line 2 has not been read yet.
    store.dispatch({
      type: 'build-record',
      build: makeBuild({ stages: [['build-start', 10]], logTruncated: true, logCount: 2 }),
    });
    expect(seen).toEqual(['1 line 1']);
    page(2);
    out('streamed c');
    expect(seen).toEqual([
      '1 line 1',
      '2 line 2',
      'capped',
      'live streamed a',
      'live streamed b',
      'live streamed c',
    ]);
    expect(tracker.liveWaiting).toBe(false);
  });

  it('learns where the stored log ends from a page that says so, and says "capped" once', () => {
    const tracker = trackBuild(store, 'b1', logReport);
    page(1);
    out('streamed');
    tracker.storedLogEnds(1);
    tracker.storedLogEnds(1);
    expect(seen).toEqual(['1 line 1', 'capped', 'live streamed']);
  });

  it('shows nothing streamed-only while the stored log is not capped (a server app printing after the end)', () => {
    trackBuild(store, 'b1', logReport);
    page(1);
    out('after the end');
    expect(seen).toEqual(['1 line 1']);
  });

  it('tracks no lines without onLine, and nothing once closed', () => {
    const tracker = trackBuild(store, 'b1', { onStage: report.onStage });
    page(1, 2);
    expect(tracker.shownSeq).toBe(0);
    expect(seen).toEqual(['stage build-start']);
    const lines = trackBuild(store, 'b1', { onLine: report.onLine });
    lines.close();
    page(3);
    expect(seen).toEqual(['stage build-start', '1 line 1', '2 line 2']);
  });
});
