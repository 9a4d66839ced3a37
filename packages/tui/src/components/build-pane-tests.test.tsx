import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { Build } from '@forge/shared';
import { makeBuild, makeStep, at } from '@forge/testing';
import { createFakeClient, fakeProject } from '../testing/fake-client.ts';
import { renderApp } from '../testing/render-app.tsx';

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
});

/** A build that succeeded and was previewed, whose test run ended as `test` says. */
const previewed = (test: Build['test']): Build => ({
  ...makeBuild({
    id: 'b9-7e57',
    projectName: 'shop',
    previewUrl: 'http://127.0.0.1:40555/',
    stages: [
      ['starting', 0],
      ['build-success', 1_000],
      ['integration-available', 1_200],
    ],
    steps: [makeStep({ name: 'test', botName: 'TestBot', startedAt: at(1_010), durationMs: 150 })],
  }),
  test,
});

const render = async (build: Build) => {
  const fake = createFakeClient({
    routes: {
      projects: () => [fakeProject(build)],
      build: () => build,
      buildLogs: () => ({ entries: [], truncated: false, next: 0 }),
    },
  });
  const app = renderApp({ fake, size: { columns: 160, rows: 40 } });
  await app.connect();
  await app.shows('Preview http://127.0.0.1:40555/');
  return app;
};

describe('the build pane shows the verdict of the tests beside the preview', () => {
  it('a succeeded build whose tests failed says so: the build is green, its tests are not', async () => {
    const app = await render(
      previewed({ ran: true, passed: false, command: 'npm test', durationMs: 150, outputTail: '1 failed' }),
    );
    expect(app.linesWith('Preview')[0]).toMatch(
      /Preview http:\/\/127\.0\.0\.1:40555\/ \(p opens it\) · tests failed/,
    );
  });

  it('passed tests, and nothing for a project without tests', async () => {
    const passed = await render(
      previewed({ ran: true, passed: true, command: 'npm test', durationMs: 150, outputTail: '' }),
    );
    expect(passed.linesWith('Preview')[0]).toContain('· tests passed');
    cleanup();
    const none = await render({ ...previewed(null), blueprint: null });
    expect(none.linesWith('Preview')[0]).not.toContain('tests');
  });
});
