import { afterEach, describe, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { at, makeBuild } from '@forge/testing';
import { createFakeClient, fakeProject } from '../testing/fake-client.ts';
import { renderApp } from '../testing/render-app.tsx';

// A proposed repair's line in the build pane says what its trial on a copy of the project showed.

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => cleanup());

describe('the build pane: a proposal’s verification', () => {
  it('follows the proposal with its verification and the command that applies it', async () => {
    const failed = makeBuild({
      id: 'b6-0000c6',
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
      diagnosis: {
        code: 'IMPORT_CASE_MISMATCH',
        summary: "build.mjs imports './Page.mjs', but the file is page.mjs.",
        file: 'build.mjs',
        line: 1,
        repair: 'FIX_IMPORT_CASE',
      },
      repairs: [
        {
          id: 'b6-0000c6:FIX_IMPORT_CASE',
          code: 'FIX_IMPORT_CASE',
          summary: 'RepairBot would change the import in build.mjs',
          files: ['build.mjs'],
          status: 'proposed',
          diff: '',
          at: at(500),
          buildId: 'b6-0000c6',
          verification: { status: 'passes', detail: 'verified: the build passes' },
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
        buildLogs: () => ({ entries: [], truncated: false, next: 0 }),
      },
    });
    const app = renderApp({ fake, size: { columns: 220, rows: 30 } });
    await app.connect();
    await app.shows(
      `Proposed: RepairBot would change the import in build.mjs (verified: the build passes) · forge fix ${failed.id} applies it`,
    );
  });
});
