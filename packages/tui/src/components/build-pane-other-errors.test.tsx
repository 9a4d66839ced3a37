import { afterEach, describe, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { makeBuild } from '@forge/testing';
import { createFakeClient, fakeProject } from '../testing/fake-client.ts';
import { renderApp } from '../testing/render-app.tsx';

// A failure with several errors: the build pane lists the others under ScanBot's line as the CLI
// does — the counts, then each with its file:line, repairable in the same pass or remaining.

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => cleanup());

describe('the build pane: the other errors of a failure', () => {
  it('says how many more errors, which are repaired in the same pass, and lists each with its place', async () => {
    const failed = makeBuild({
      id: 'b7-0000c7',
      error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 2' },
      diagnosis: {
        code: 'MISSING_PACKAGE',
        summary: '"clsx" is imported by src/main.ts but not declared in package.json.',
        file: 'src/main.ts',
        line: 3,
        repair: 'ADD_MISSING_PACKAGES',
        others: [
          {
            code: 'IMPORT_CASE_MISMATCH',
            summary: 'src/main.ts imports "./Cart", but the file is src/cart.ts.',
            file: 'src/main.ts',
            line: 2,
            column: 23,
            repair: 'FIX_IMPORT_CASE',
          },
          {
            code: 'TYPE_ERROR',
            summary: "tsc: Type 'string' is not assignable to type 'number'.",
            file: 'src/count.ts',
            line: 1,
          },
        ],
      },
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
    const app = renderApp({ fake, size: { columns: 220, rows: 34 } });
    await app.connect();
    await app.shows('2 more errors: 1 repairable in the same pass, 1 remains');
    await app.shows(
      '  repairable src/main.ts:2:23 src/main.ts imports "./Cart", but the file is src/cart.ts. [IMPORT_CASE_MISMATCH]',
    );
    await app.shows(
      "  remains src/count.ts:1 tsc: Type 'string' is not assignable to type 'number'. [TYPE_ERROR]",
    );
  });
});
