import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { ToolError } from '@forge/shared';
import { logEntry, makeBuild } from '@forge/testing';
import { createFakeClient, fakeProject } from '../testing/fake-client.ts';
import { renderApp } from '../testing/render-app.tsx';

// A failed build whose tools printed several errors: the build pane lists them under the first error
// line, the primary one marked, the rest counted past the pane's limit.

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  cleanup();
});

const TYPE_ERROR: ToolError = {
  file: 'src/cart.ts',
  line: 3,
  column: 14,
  code: 'TS2322',
  message: "Type 'string' is not assignable to type 'number'.",
  tool: 'tsc',
  primary: true,
};
const MISSING_FILE: ToolError = {
  file: 'src/main.ts',
  line: 1,
  column: 23,
  code: 'TS2307',
  message: "Cannot find module './prices' or its corresponding type declarations.",
  tool: 'tsc',
};

async function show(errors: ToolError[], errorCount: number) {
  const failed = makeBuild({
    error: {
      code: 'BUILD_FAILED',
      message: 'npm run build exited with code 2',
      firstLine: `error TS2322: ${TYPE_ERROR.message}`,
      location: { file: 'src/cart.ts', line: 3, column: 14 },
      errors,
      errorCount,
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
      buildLogs: () => ({ entries: [logEntry(1, '> tsc', failed.id)], truncated: false, next: 1 }),
    },
  });
  const app = renderApp({ fake, size: { columns: 200, rows: 40 } });
  await app.connect();
  await app.shows('2 errors (tsc):');
  return app;
}

describe('a failed build with several errors in the TUI', () => {
  it('lists every error under the message, file:line:col and code, the primary one marked', async () => {
    const app = await show([TYPE_ERROR, MISSING_FILE], 2);
    const lines = app.frame().split('\n');
    const message = lines.findIndex((l) => l.includes('npm run build exited with code 2 [BUILD_FAILED]'));
    expect(message).toBeGreaterThan(0);
    expect(lines[message + 1]).toContain('2 errors (tsc):');
    expect(lines[message + 2]).toContain(
      "▶ src/cart.ts:3:14 TS2322 Type 'string' is not assignable to type 'number'.",
    );
    expect(lines[message + 3]).toContain(
      "  src/main.ts:1:23 TS2307 Cannot find module './prices' or its corresponding type declarations.",
    );
    expect(lines[message + 3]).not.toContain('▶');
    // The output is still under them.
    await app.shows('> tsc');
  });

  it('past five, counts the rest and says where they all are', async () => {
    const many: ToolError[] = Array.from({ length: 8 }, (_, i) => ({
      ...MISSING_FILE,
      line: i + 1,
      ...(i === 0 ? { primary: true } : {}),
    }));
    const failed = makeBuild({
      error: { code: 'BUILD_FAILED', message: 'tsc failed', firstLine: 'x', errors: many, errorCount: 12 },
      stages: [
        ['build-start', 0],
        ['build-failed', 500],
      ],
      logCount: 0,
    });
    const fake = createFakeClient({
      routes: {
        projects: () => [fakeProject(failed)],
        build: () => failed,
        buildLogs: () => ({ entries: [], truncated: false, next: 0 }),
      },
    });
    const app = renderApp({ fake, size: { columns: 200, rows: 40 } });
    await app.connect();
    await app.shows(`… 7 more: forge logs ${failed.id}`);
    expect(app.frame()).toContain('12 errors (tsc):');
    expect(app.frame()).toContain('src/main.ts:5:23 TS2307');
    expect(app.frame()).not.toContain('src/main.ts:6:23');
  });
});
