import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import {
  isBuildState,
  STAGE_LABELS,
  type Build,
  type BuildStatus,
  type ServerMessage,
  type Stage,
} from '@forge/shared';
import { at, logEntry, makeBuild, makeStep } from '@forge/testing';
import { OUTPUT_BUFFER_LINES } from '../constants.ts';
import { createFakeClient, fakeProject } from '../testing/fake-client.ts';
import { KEYS, renderApp, waitFor } from '../testing/render-app.tsx';

// Each test drives a few dozen renders; under a loaded 2-core CI machine that takes seconds.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
});

const finished: Build = makeBuild({
  id: 'b7-f00d01',
  projectName: 'site',
  cacheHit: true,
  previewUrl: 'http://127.0.0.1:40123/',
  stages: [
    ['starting', 0],
    ['bot-assignment', 10],
    ['extraction', 20],
    ['extraction-complete', 270],
    ['build-start', 300],
    ['build-success', 2_800],
    ['integration-available', 3_100],
  ],
  steps: [
    makeStep({ name: 'extract', botName: 'ExtractBot', startedAt: at(25), durationMs: 240 }),
    makeStep({
      name: 'install',
      botName: 'DependencyBot',
      status: 'cached',
      startedAt: at(310),
      durationMs: 4,
    }),
    makeStep({ name: 'build', botName: 'BuildBot', startedAt: at(320), durationMs: 2_450 }),
  ],
  logCount: 3,
});

/** GET /api/builds/:id/logs answering the stored lines `messages` (seq 1, 2, …) of `buildId`. */
const storedLogs = (messages: string[], buildId = 'b7-f00d01') => ({
  entries: messages.map((message, i) => logEntry(i + 1, message, buildId)),
  truncated: false,
  next: messages.length,
});

const stageMessage = (
  buildId: string,
  status: BuildStatus,
  stage: Stage,
  ms: number,
  projectName = 'shop',
): ServerMessage => ({ type: 'build-stage', buildId, projectName, status, stage, timestamp: at(ms) });

const output = (buildId: string, seq: number, text: string, ms: number): ServerMessage => ({
  type: 'build-output',
  buildId,
  projectName: 'shop',
  botName: 'BuildBot',
  seq,
  output: text,
  timestamp: at(ms),
});

/** The build pane's output rows (the logs pane below repeats every line, after a bot name). */
const outputLines = (frame: string) =>
  frame
    .split('\n')
    .filter((line) => !/\d\d:\d\d:\d\d (INFO|WARN|ERROR|SUCCESS)/.test(line))
    .join('\n');

describe('build pane', () => {
  it("follows the newest project's last build: stage timeline with durations, output, cache hit, preview URL", async () => {
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(finished)],
        build: () => finished,
        buildLogs: () => storedLogs(['> vite build', 'dist/index.html  0.4 kB', '✓ built in 2.41s']),
      },
    });
    const app = renderApp({ fake, size: { columns: 160, rows: 45 } });
    await app.connect();
    await app.shows('✓ built in 2.41s');

    expect(app.linesWith('Build site')[0]).toMatch(/Build site b7-f00d01 succeeded 3\.1s\s+cache hit/);
    expect(app.frame()).toContain('Preview http://127.0.0.1:40123/');
    // The stages in order with the time until the next one; steps under the stage they ran in.
    const timeline = [
      /✓ Starting\s+10ms/,
      /✓ Assigning Bots\s+10ms/,
      /✓ Extracting\s+250ms/,
      /✓ extract ExtractBot\s+240ms/,
      /✓ Extracted\s+30ms/,
      /✓ Building\s+2\.5s/,
      /↺ install DependencyBot\s+cached/,
      /✓ build BuildBot\s+2\.5s/,
      /✓ Build Complete\s+300ms/,
      /✓ Integration Available/,
    ];
    const lines = app.frame().split('\n');
    let previous = -1;
    for (const pattern of timeline) {
      const index = lines.findIndex((line) => pattern.test(line));
      expect(index, String(pattern)).toBeGreaterThan(previous);
      previous = index;
    }
    // The stored log's tail was asked for (the last OUTPUT_BUFFER_LINES lines).
    expect(fake.callsOf('buildLogs')[0]).toEqual({
      params: { id: 'b7-f00d01' },
      query: { after: 0, limit: OUTPUT_BUFFER_LINES },
    });
    // The header names the project and shows the stage badge with its label.
    expect(app.frame().split('\n')[0]).toMatch(/Forge\s+project site\s+Integration Available/);
    // The timeline sits left of the output, on the same rows.
    expect(app.linesWith('Starting')[0]).toMatch(/✓ Starting\s+10ms\s+> vite build/);
    app.unmount();
  });

  it('puts the stages on one line above the output in a narrower terminal, the current one last', async () => {
    const running = makeBuild({
      id: 'b7-f00d01',
      logCount: 1,
      stages: [
        ['starting', 0],
        ['bot-assignment', 10],
        ['extraction', 20],
        ['extraction-complete', 270],
        ['build-start', 300],
      ],
    });
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(running)],
        build: () => running,
        buildLogs: () => storedLogs(['> vite build']),
      },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('> vite build');
    const strip = app.linesWith('› ')[0] ?? '';
    expect(strip).toMatch(/✓ Extracted 30ms › ● Building \d/);
    expect(app.frame()).toMatch(/│ > vite build\s+│/);
  });

  it('takes over a newly started build and shows its stages and output live, newest at the bottom', async () => {
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(finished)],
        build: () => finished,
        buildLogs: () => storedLogs([]),
      },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('b7-f00d01');

    // Its record, as the daemon keeps it, at each point of the build.
    let record = makeBuild({
      id: 'b8-beef02',
      projectName: 'shop',
      createdAt: at(10_000),
      stages: [['starting', 10_000]],
    });
    fake.answer('build', (input) => (input?.params.id === 'b8-beef02' ? record : finished));
    fake.answer('buildLogs', (input) => storedLogs([], input?.params.id));
    fake.emit({
      type: 'rapid-build-start',
      buildId: 'b8-beef02',
      projectName: 'shop',
      stage: 'starting',
      timestamp: at(10_000),
    });
    fake.emit({
      type: 'log',
      botName: 'ExtractBot',
      level: 'info',
      message: 'Receiving shop.zip',
      buildId: 'b8-beef02',
      projectName: 'shop',
      seq: 1,
      timestamp: at(10_005),
    });
    await app.shows('b8-beef02');
    expect(app.frame().split('\n')[0]).toContain('project shop');

    // A stage message moves the header and the pane at once, before the record is read again.
    fake.emit(stageMessage('b8-beef02', 'running', 'bot-assignment', 10_050));
    fake.emit(stageMessage('b8-beef02', 'running', 'build-start', 10_100));
    await waitFor(() => expect(app.frame().split('\n')[0]).toContain('Building'));
    await app.shows(/● Building\s+\d/);
    await app.shows(/Build shop b8-beef02 running/);

    fake.emit(output('b8-beef02', 2, 'line one\nline two\n', 10_200));
    fake.emit({
      type: 'build-error',
      output: 'warning: three',
      buildId: 'b8-beef02',
      botName: 'BuildBot',
      seq: 4,
      timestamp: at(10_300),
    });
    await app.shows('warning: three');
    const frame = outputLines(app.frame());
    expect(frame.indexOf('Receiving shop.zip')).toBeLessThan(frame.indexOf('line one'));
    expect(frame.indexOf('line one')).toBeLessThan(frame.indexOf('line two'));
    expect(frame.indexOf('line two')).toBeLessThan(frame.indexOf('warning: three'));
    // Output of another, older build (a server app still printing) neither leaks in nor takes over.
    fake.emit({
      type: 'build-output',
      output: 'old server says hi',
      buildId: 'b7-f00d01',
      timestamp: at(10_400),
    });

    record = makeBuild({
      id: 'b8-beef02',
      projectName: 'shop',
      createdAt: at(10_000),
      durationMs: 900,
      previewUrl: 'http://127.0.0.1:40999/',
      stages: [
        ['starting', 10_000],
        ['bot-assignment', 10_050],
        ['build-start', 10_100],
        ['build-success', 10_800],
        ['integration-available', 10_900],
      ],
    });
    fake.emit(stageMessage('b8-beef02', 'running', 'build-success', 10_800));
    fake.emit(stageMessage('b8-beef02', 'succeeded', 'integration-available', 10_900));
    fake.emit({
      type: 'build-finished',
      buildId: 'b8-beef02',
      projectName: 'shop',
      status: 'succeeded',
      stage: 'integration-available',
      previewUrl: 'http://127.0.0.1:40999/',
      cacheHit: false,
      endedAt: at(10_900),
      durationMs: 900,
    });
    await app.shows('Preview http://127.0.0.1:40999/');
    expect(app.frame().split('\n')[0]).toContain('Integration Available');
    expect(app.frame()).toMatch(/Build shop b8-beef02 succeeded 900ms/);
    expect(outputLines(app.frame())).not.toContain('old server says hi');
  });

  it('says where the build runs: "—" while queued, the worker that took it, "local" for the daemon', async () => {
    const queued = makeBuild({ id: 'b3-0000c1', projectName: 'shop', stages: [['starting', 0]] });
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(queued)],
        build: () => queued,
        buildLogs: () => storedLogs([], 'b3-0000c1'),
      },
    });
    const app = renderApp({ fake, size: { columns: 160, rows: 45 } });
    await app.connect();
    await app.shows(/Build shop b3-0000c1 queued on — \d/);

    // A worker on another machine took it: the stage message names it.
    fake.emit({
      type: 'build-stage',
      buildId: 'b3-0000c1',
      projectName: 'shop',
      status: 'running',
      stage: 'bot-assignment',
      worker: 'ci-2',
      timestamp: at(50),
    });
    await app.shows(/Build shop b3-0000c1 running on ci-2 \d/);
    fake.emit({
      type: 'build-finished',
      buildId: 'b3-0000c1',
      projectName: 'shop',
      status: 'failed',
      stage: 'build-failed',
      worker: 'ci-2',
      endedAt: at(900),
      durationMs: 900,
    });
    await app.shows(/Build shop b3-0000c1 failed on ci-2 900ms/);

    // The next build ran in the daemon itself, as its record says.
    const local = makeBuild({
      id: 'b4-0000c2',
      projectName: 'shop',
      createdAt: at(2_000),
      worker: 'local',
      stages: [
        ['starting', 2_000],
        ['build-start', 2_100],
      ],
    });
    fake.answer('build', (input) => (input?.params.id === 'b4-0000c2' ? local : queued));
    fake.answer('buildLogs', (input) => storedLogs([], input?.params.id));
    fake.emit(stageMessage('b4-0000c2', 'running', 'build-start', 2_100));
    await app.shows(/Build shop b4-0000c2 running on local \d/);
  });

  it('in a narrow pane, where the build runs ends the stage line (the title is cut before it)', async () => {
    const running = makeBuild({
      id: 'b5-0000c3',
      projectName: 'shop',
      worker: 'ci-2',
      stages: [
        ['starting', 0],
        ['bot-assignment', 10],
        ['extraction', 20],
        ['extraction-complete', 270],
        ['build-start', 300],
      ],
    });
    for (const columns of [80, 60]) {
      const fake = createFakeClient({
        routes: {
          projects: () => [fakeProject(running)],
          build: () => running,
          buildLogs: () => storedLogs([], 'b5-0000c3'),
        },
      });
      const app = renderApp({ fake, size: { columns, rows: 30 } });
      await app.connect();
      await app.shows('· on ci-2');
      expect(app.linesWith('· on ci-2')[0]).toMatch(/● Building \d\S* · on ci-2 │$/);
      // Every line keeps to the terminal's width: nothing wraps or pushes the panes apart.
      for (const line of app.frame().split('\n')) expect(line.length).toBeLessThanOrEqual(columns);
      app.unmount();
    }
  });

  it('never draws the header at one state of the build and the pane at another', async () => {
    const fake = createFakeClient({ routes: { buildLogs: () => storedLogs([], 'b2-000002') } });
    const app = renderApp({ fake, size: { columns: 120, rows: 30 } });
    await app.connect();
    // The record lags behind /ws (a slow daemon): only the socket moves the build on.
    fake.answer('build', () =>
      makeBuild({ id: 'b2-000002', projectName: 'shop', createdAt: at(0), stages: [['bot-assignment', 0]] }),
    );
    const path: Array<[BuildStatus, Stage]> = [
      ['running', 'bot-assignment'],
      ['running', 'extraction'],
      ['running', 'extraction-complete'],
      ['running', 'no-build-needed'],
      ['succeeded', 'integration-available'],
    ];
    path.forEach(([status, stage], i) => fake.emit(stageMessage('b2-000002', status, stage, i * 10)));
    await app.shows(/Build shop b2-000002 succeeded/);
    await waitFor(() => expect(app.frame().split('\n')[0]).toContain('Integration Available'));
    // Every frame drawn on the way: the header's stage and the pane's status are one machine state.
    const stageOfLabel = new Map(
      Object.entries(STAGE_LABELS).map(([stage, label]) => [label, stage as Stage]),
    );
    const drawn = app.frames().flatMap((frame) => {
      const status = /Build shop b2-000002 ([\w-]+)/.exec(frame)?.[1] as BuildStatus | undefined;
      const label = /project shop\s+(\S.*?\S)\s{2,}/.exec(frame.split('\n')[0] ?? '')?.[1];
      return status && label ? [{ status, stage: stageOfLabel.get(label)! }] : [];
    });
    expect(drawn).toContainEqual({ status: 'succeeded', stage: 'integration-available' });
    for (const state of drawn) expect(isBuildState(state), JSON.stringify(state)).toBe(true);
  });

  it('shows the stored tail, then the live lines, each once and in order, whichever came first', async () => {
    const running = makeBuild({
      id: 'b4-0000aa',
      projectName: 'shop',
      stages: [['build-start', 0]],
      logCount: 3,
    });
    let answerLogs: (page: ReturnType<typeof storedLogs>) => void = () => undefined;
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(running)],
        build: () => running,
        // The tail is read while the build keeps printing: the answer comes after live lines.
        buildLogs: () => new Promise((resolve) => (answerLogs = resolve)),
      },
    });
    const app = renderApp({ fake });
    await app.connect();
    await waitFor(() => expect(fake.callsOf('buildLogs')).toHaveLength(1));
    fake.emit(output('b4-0000aa', 3, 'three\nfour', 1_000));
    await app.shows('four');
    answerLogs(storedLogs(['one', 'two', 'three'], 'b4-0000aa'));
    await app.shows('one');
    fake.emit(output('b4-0000aa', 5, 'five', 1_100));
    await app.shows('five');
    const shown = outputLines(app.frame())
      .match(/│ (one|two|three|four|five)\s/g)
      ?.map((m) => m.slice(2).trim());
    expect(shown).toEqual(['one', 'two', 'three', 'four', 'five']);
  });

  it('keeps a bounded buffer and draws only what fits, the newest line last', async () => {
    const running = makeBuild({ id: 'b9-000001', stages: [['build-start', 0]] });
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(running)],
        build: () => running,
        buildLogs: () => storedLogs([], 'b9-000001'),
      },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('b9-000001');
    const lines = Array.from({ length: OUTPUT_BUFFER_LINES + 100 }, (_, i) => `out ${i + 1}`);
    fake.emit({
      type: 'build-output',
      output: lines.join('\n'),
      buildId: 'b9-000001',
      botName: 'BuildBot',
      seq: 1,
      timestamp: at(1),
    });
    const buildLines = () => outputLines(app.frame());
    await waitFor(() => expect(buildLines()).toContain(`out ${OUTPUT_BUFFER_LINES + 100}`));
    const shown = buildLines().match(/out \d+/g) ?? [];
    // 40 rows: 23 for the build pane, 3 of them border and title, 1 the info line, 1 the stages.
    expect(shown).toHaveLength(18);
    expect(shown.at(-1)).toBe(`out ${OUTPUT_BUFFER_LINES + 100}`);

    // Focused (the build pane is focused at start), ↑ scrolls back and End returns to the newest.
    app.press(KEYS.up);
    app.press(KEYS.up);
    await app.shows('↓ 2 more · End');
    expect(buildLines()).not.toContain(`out ${OUTPUT_BUFFER_LINES + 100}`);
    app.press(KEYS.home);
    // The buffer holds the last OUTPUT_BUFFER_LINES lines: the top is line 101.
    await app.shows(/ out 101 /);
    expect(app.frame()).not.toMatch(/ out 100 /);
    app.press(KEYS.end);
    await waitFor(() => expect(buildLines()).toContain(`out ${OUTPUT_BUFFER_LINES + 100}`));
    expect(app.frame()).not.toContain('more · End');
  });

  it('says what failed when the build failed, and what to do about it', async () => {
    const failed = makeBuild({
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
      stages: [
        ['build-start', 0],
        ['build-failed', 500],
      ],
    });
    const fake = createFakeClient({ routes: { projects: () => [fakeProject(failed)], build: () => failed } });
    const app = renderApp({ fake, size: { columns: 200, rows: 30 } });
    await app.connect();
    await app.shows(
      '✗ BUILD_FAILED: npm run build exited with code 1 — The first error in the build output says why',
    );
    expect(app.frame()).toMatch(/✗ Build Failed/);
    expect(app.frame().split('\n')[0]).toContain('Build Failed');
    expect(app.linesWith('Build site')[0]).toMatch(/Build site b1 failed 500ms/);
  });

  it('puts the first error line, with its file:line, before the message and the way to the full log', async () => {
    const failed = makeBuild({
      error: {
        code: 'BUILD_FAILED',
        message: 'npm run build exited with code 2',
        firstLine: "error TS2322: Type 'number' is not assignable to type 'string'.",
        location: { file: 'src/app.ts', line: 3, column: 7 },
        tail: [
          'checking 2 files…',
          "src/app.ts(3,7): error TS2322: Type 'number' is not assignable to type 'string'.",
        ],
      },
      stages: [
        ['build-start', 0],
        ['build-failed', 500],
      ],
      logCount: 2,
    });
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(failed)],
        build: () => failed,
        buildLogs: () => storedLogs(['> tsc --noEmit', 'checking 2 files…'], failed.id),
      },
    });
    const app = renderApp({ fake, size: { columns: 200, rows: 30 } });
    await app.connect();
    await app.shows("✗ src/app.ts:3:7 error TS2322: Type 'number' is not assignable to type 'string'.");
    const lines = app.frame().split('\n');
    const first = lines.findIndex((l) => l.includes('✗ src/app.ts:3:7 error TS2322'));
    // The next line: Forge's message and code, then the command that prints the whole log.
    expect(lines[first + 1]).toMatch(
      new RegExp(`npm run build exited with code 2 \\[BUILD_FAILED\\] · full log: forge logs ${failed.id}`),
    );
    // The output is still there under them.
    await app.shows('checking 2 files…');
  });

  it("shows ScanBot's diagnosis (file:line, what is wrong, what to do) and the repairs of a failed build", async () => {
    const failed = makeBuild({
      id: 'b5-0000c5',
      error: {
        code: 'BUILD_FAILED',
        message: 'npm run build exited with code 1',
        firstLine: '[vite]: Rollup failed to resolve import "canvas-confetti" from "src/main.ts".',
      },
      diagnosis: {
        code: 'MISSING_PACKAGE',
        summary: 'src/main.ts imports canvas-confetti, which package.json does not declare.',
        file: 'src/main.ts',
        line: 2,
        column: 22,
        suggestion: 'Add canvas-confetti to the dependencies.',
        subjects: ['canvas-confetti'],
        repair: 'ADD_MISSING_PACKAGES',
      },
      repairs: [
        {
          id: 'r_1',
          code: 'ADD_MISSING_PACKAGES',
          summary: 'add canvas-confetti@^1.9.3 to package.json',
          files: ['package.json'],
          status: 'proposed',
          diff: '',
          at: at(500),
          buildId: 'b5-0000c5',
        },
      ],
      stages: [
        ['build-start', 0],
        ['build-failed', 500],
      ],
      logCount: 1,
    });
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(failed)],
        build: () => failed,
        buildLogs: () => storedLogs(['> vite build'], failed.id),
      },
    });
    const app = renderApp({ fake, size: { columns: 200, rows: 30 } });
    await app.connect();
    await app.shows(
      'ScanBot src/main.ts:2:22 src/main.ts imports canvas-confetti, which package.json does not declare. [MISSING_PACKAGE]',
    );
    const lines = app.frame().split('\n');
    const first = lines.findIndex((l) => l.includes('✗ [vite]: Rollup failed to resolve import'));
    const diagnosis = lines.findIndex((l) => l.includes('ScanBot src/main.ts:2:22'));
    // Under the error and its message: the diagnosis, what to do, then the repair proposed.
    expect(diagnosis).toBe(first + 2);
    expect(lines[diagnosis + 1]).toContain('→ Add canvas-confetti to the dependencies.');
    expect(lines[diagnosis + 2]).toContain(
      `Proposed: add canvas-confetti@^1.9.3 to package.json · forge fix ${failed.id} applies it`,
    );
    // The output still fits under them.
    await app.shows('> vite build');
  });

  it('a build that succeeded after RepairBot repaired it says what was changed', async () => {
    const repaired: Build = {
      ...finished,
      // What ScanBot said of the first attempt: no longer shown once the build succeeded.
      diagnosis: { code: 'MISSING_PACKAGE', summary: 'src/main.ts imports canvas-confetti.' },
      repairs: [
        {
          id: 'r_2',
          code: 'ADD_MISSING_PACKAGES',
          summary: 'RepairBot added canvas-confetti@^1.9.3 to package.json',
          files: ['package.json'],
          status: 'applied',
          diff: '',
          at: at(100),
          buildId: finished.id,
        },
      ],
    };
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(repaired)],
        build: () => repaired,
        buildLogs: () => storedLogs([]),
      },
    });
    const app = renderApp({ fake, size: { columns: 200, rows: 30 } });
    await app.connect();
    await app.shows('✓ RepairBot added canvas-confetti@^1.9.3 to package.json');
    expect(app.frame()).toContain('Preview http://127.0.0.1:40123/');
    expect(app.frame()).not.toContain('[MISSING_PACKAGE]');
  });

  it('tells what to do when there is no build yet', async () => {
    const app = renderApp();
    await app.connect();
    await app.shows('No build yet: press u to upload a project ZIP.');
    expect(app.frame().split('\n')[0]).toMatch(/project none yet\s+Idle/);
  });

  it('on a reconnect reads the record and the log again: what was sent meanwhile shows, once', async () => {
    let record = makeBuild({ id: 'b6-000006', stages: [['build-start', 0]], logCount: 2 });
    const stored = ['first', 'second'];
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(record)],
        build: () => record,
        buildLogs: (input) => {
          const after = Number(input?.query?.after ?? 0);
          return {
            entries: stored.slice(after).map((m, i) => logEntry(after + i + 1, m, 'b6-000006')),
            truncated: false,
            next: stored.length,
          };
        },
      },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('second');
    fake.setStatus('disconnected');
    // While the socket is down the build prints on and finishes.
    stored.push('third', 'fourth');
    record = makeBuild({
      id: 'b6-000006',
      logCount: 4,
      previewUrl: 'http://127.0.0.1:40777/',
      stages: [
        ['build-start', 0],
        ['build-success', 50],
        ['integration-available', 60],
      ],
    });
    fake.setStatus('connected');
    await app.shows('Preview http://127.0.0.1:40777/');
    await app.shows('fourth');
    const shown = outputLines(app.frame())
      .match(/│ (first|second|third|fourth)\s/g)
      ?.map((m) => m.slice(2).trim());
    expect(shown).toEqual(['first', 'second', 'third', 'fourth']);
    expect(app.frame().split('\n')[0]).toContain('Integration Available');
  });
});
