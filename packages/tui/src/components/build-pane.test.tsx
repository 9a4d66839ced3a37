import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { Build, Project } from '@forge/shared';
import { OUTPUT_BUFFER_LINES } from '../constants.ts';
import { createFakeClient, fakeBuild } from '../testing/fake-client.ts';
import { KEYS, renderApp, waitFor } from '../testing/render-app.tsx';

// Each test drives a few dozen renders; under a loaded 2-core CI machine that takes seconds.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
});

const at = (ms: number) => new Date(Date.UTC(2025, 0, 1, 10, 0, 0, ms)).toISOString();

const finished: Build = fakeBuild({
  id: 'b7-f00d01',
  projectName: 'site',
  status: 'succeeded',
  stage: 'integration-available',
  createdAt: at(0),
  endedAt: at(3_100),
  durationMs: 3_100,
  cacheHit: true,
  previewUrl: 'http://127.0.0.1:40123/',
  stages: [
    { stage: 'starting', at: at(0) },
    { stage: 'bot-assignment', at: at(10) },
    { stage: 'extraction', at: at(20) },
    { stage: 'extraction-complete', at: at(270) },
    { stage: 'build-start', at: at(300) },
    { stage: 'build-success', at: at(2_800) },
    { stage: 'integration-available', at: at(3_100) },
  ],
  steps: [
    {
      name: 'extract',
      botName: 'ExtractBot',
      status: 'succeeded',
      startedAt: at(25),
      durationMs: 240,
      detail: null,
    },
    {
      name: 'install',
      botName: 'DependencyBot',
      status: 'cached',
      startedAt: at(310),
      durationMs: 4,
      detail: null,
    },
    {
      name: 'build',
      botName: 'BuildBot',
      status: 'succeeded',
      startedAt: at(320),
      durationMs: 2_450,
      detail: null,
    },
  ],
  logCount: 3,
});

const project = (build: Build): Project => ({
  name: build.projectName,
  createdAt: build.createdAt,
  updatedAt: build.createdAt,
  lastBuild: build,
  hasArtifact: true,
});

function storedLogs(messages: string[], timestamp = at(3_000)) {
  return {
    entries: messages.map((message, i) => ({
      id: `l${i + 1}`,
      seq: i + 1,
      timestamp,
      level: 'info' as const,
      botName: 'BuildBot',
      message,
    })),
    truncated: false,
    next: messages.length,
  };
}

describe('build pane', () => {
  it("follows the newest project's last build: stage timeline with durations, output, cache hit, preview URL", async () => {
    const fake = createFakeClient({
      routes: {
        projects: () => [project(finished)],
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
    // The header names the project and shows the stage badge with the spec's label.
    expect(app.frame().split('\n')[0]).toMatch(/Forge\s+project site\s+Integration Available/);
    // The timeline sits left of the output, on the same rows.
    expect(app.linesWith('Starting')[0]).toMatch(/✓ Starting\s+10ms\s+> vite build/);
    app.unmount();
  });

  it('puts the stages on one line above the output in a narrower terminal, the current one last', async () => {
    const running = fakeBuild({
      ...finished,
      status: 'running',
      stage: 'build-start',
      endedAt: null,
      durationMs: null,
      previewUrl: null,
      stages: finished.stages.slice(0, 5),
    });
    const fake = createFakeClient({
      routes: {
        projects: () => [project(running)],
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
      routes: { projects: () => [project(finished)], build: () => finished, buildLogs: () => storedLogs([]) },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('b7-f00d01');

    let record = fakeBuild({
      id: 'b8-beef02',
      projectName: 'shop',
      stages: [{ stage: 'starting', at: at(0) }],
    });
    fake.answer('build', (input) => (input?.params.id === 'b8-beef02' ? record : finished));
    fake.emit({
      type: 'log',
      botName: 'ExtractBot',
      level: 'info',
      message: 'Receiving shop.zip',
      buildId: 'b8-beef02',
      projectName: 'shop',
      timestamp: at(5),
    });
    await app.shows('b8-beef02');
    expect(app.frame().split('\n')[0]).toContain('project shop');

    // A stage message moves the badge at once (before the record is read again).
    record = {
      ...record,
      stage: 'build-start',
      stages: [...record.stages, { stage: 'build-start', at: at(100) }],
    };
    fake.emit({
      type: 'build-stage',
      stage: 'build-start',
      buildId: 'b8-beef02',
      projectName: 'shop',
      timestamp: at(100),
    });
    await waitFor(() => expect(app.frame().split('\n')[0]).toContain('Building'));
    await app.shows(/● Building\s+\d/);

    fake.emit({
      type: 'build-output',
      output: 'line one\nline two\n',
      buildId: 'b8-beef02',
      timestamp: at(200),
    });
    fake.emit({ type: 'build-error', output: 'warning: three', buildId: 'b8-beef02', timestamp: at(300) });
    await app.shows('warning: three');
    const frame = app.frame();
    expect(frame.indexOf('Receiving shop.zip')).toBeLessThan(frame.indexOf('line one'));
    expect(frame.indexOf('line one')).toBeLessThan(frame.indexOf('line two'));
    expect(frame.indexOf('line two')).toBeLessThan(frame.indexOf('warning: three'));
    // Output of another, older build does not leak in.
    fake.emit({
      type: 'build-output',
      output: 'old server says hi',
      buildId: 'b7-f00d01',
      timestamp: at(400),
    });

    record = {
      ...record,
      status: 'succeeded',
      stage: 'integration-available',
      previewUrl: 'http://127.0.0.1:40999/',
      endedAt: at(900),
      durationMs: 900,
      stages: [...record.stages, { stage: 'integration-available', at: at(900) }],
    };
    fake.emit({
      type: 'build-finished',
      buildId: 'b8-beef02',
      projectName: 'shop',
      status: 'succeeded',
      stage: 'integration-available',
      previewUrl: 'http://127.0.0.1:40999/',
      cacheHit: false,
    });
    await app.shows('Preview http://127.0.0.1:40999/');
    expect(app.frame().split('\n')[0]).toContain('Integration Available');
    // (The logs pane shows every line of every build, as SYSTEM output; the build pane does not.)
    const buildPaneLines = app
      .frame()
      .split('\n')
      .filter((line) => !line.includes('SYSTEM'));
    expect(buildPaneLines.join('\n')).not.toContain('old server says hi');
  });

  it('keeps a bounded buffer and draws only what fits, the newest line last', async () => {
    const running = fakeBuild({
      id: 'b9-000001',
      stages: [{ stage: 'build-start', at: at(0) }],
      stage: 'build-start',
    });
    const fake = createFakeClient({
      routes: { projects: () => [project(running)], build: () => running, buildLogs: () => storedLogs([]) },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('b9-000001');
    const lines = Array.from({ length: OUTPUT_BUFFER_LINES + 100 }, (_, i) => `out ${i + 1}`);
    fake.emit({ type: 'build-output', output: lines.join('\n'), buildId: 'b9-000001', timestamp: at(1) });
    // The logs pane shows these lines too (as SYSTEM output); count the build pane's.
    const buildLines = () =>
      app
        .frame()
        .split('\n')
        .filter((line) => !line.includes('SYSTEM'))
        .join('\n');
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

  it('says what failed when the build failed', async () => {
    const failed = fakeBuild({
      status: 'failed',
      stage: 'build-failed',
      endedAt: at(500),
      durationMs: 500,
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
      stages: [
        { stage: 'build-start', at: at(0) },
        { stage: 'build-failed', at: at(500) },
      ],
    });
    const fake = createFakeClient({ routes: { projects: () => [project(failed)], build: () => failed } });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('✗ BUILD_FAILED: npm run build exited with code 1');
    expect(app.frame()).toMatch(/✗ Build Failed/);
    expect(app.frame().split('\n')[0]).toContain('Build Failed');
  });

  it('tells what to do when there is no build yet', async () => {
    const app = renderApp();
    await app.connect();
    await app.shows('No build yet: press u to upload a project ZIP.');
    expect(app.frame().split('\n')[0]).toMatch(/project none yet\s+Idle/);
  });

  it('reads the record again on a reconnect (events of the gap are lost)', async () => {
    const fake = createFakeClient({
      routes: { projects: () => [project(finished)], build: () => finished, buildLogs: () => storedLogs([]) },
    });
    const app = renderApp({ fake });
    await app.connect();
    await app.shows('b7-f00d01');
    const reads = fake.requests.filter((r) => r === 'build').length;
    fake.setStatus('disconnected');
    fake.setStatus('connected');
    await waitFor(() => expect(fake.requests.filter((r) => r === 'build').length).toBeGreaterThan(reads));
  });
});
