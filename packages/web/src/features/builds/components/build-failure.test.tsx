import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Build, Project } from '@forge/shared';
import { logEntry, makeBuild } from '@forge/testing/fixtures';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { createEditorStore, EditorStoreProvider } from '@/features/editor/editor-store.tsx';
import { activeTab } from '@/features/editor/editor-state.ts';
import { LiveDevelopment } from '@/features/live/components/live-development.tsx';

const project = (name: string): Project => ({
  name,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
});

const FAILED_STAGES: Array<[Build['stage'], number]> = [
  ['starting', 0],
  ['build-start', 1],
  ['build-failed', 2],
];

/** The Live Development viewer showing `build` as the selected project's last build, with an editor store to look into. */
function renderFailed(build: Build, logLines: string[] = []) {
  const daemon = stubDaemon(({ url }) => {
    if (url.pathname === '/api/projects') return json([project('site')]);
    if (url.pathname === '/api/builds') return json([build]);
    if (url.pathname === `/api/builds/${build.id}/logs`) {
      const after = Number(url.searchParams.get('after') ?? 0);
      const entries = logLines.map((line, i) => logEntry(i + 1, line, build.id)).filter((e) => e.seq > after);
      return json({ entries, truncated: false, next: logLines.length });
    }
    if (url.pathname === '/api/files/content')
      return json({ path: url.searchParams.get('path'), content: 'const total = 1;\n' });
    return undefined;
  });
  const store = createEditorStore();
  renderPanel(
    <EditorStoreProvider store={store}>
      <LiveDevelopment />
    </EditorStoreProvider>,
  );
  return { daemon, store };
}

describe('a failed build in the Live Development viewer', () => {
  const typeError = makeBuild({
    id: 'b9',
    projectName: 'site',
    stages: FAILED_STAGES,
    logCount: 3,
    error: {
      code: 'BUILD_FAILED',
      message: 'npm run build exited with code 2',
      firstLine: "error TS2322: Type 'number' is not assignable to type 'string'.",
      location: { file: 'src/app.ts', line: 3, column: 7 },
      tail: ['checking 2 files…'],
    },
  });

  it('shows the first error line with its place first, then the message, and opens the file on a click', async () => {
    const { daemon, store } = renderFailed(typeError);
    const failure = await screen.findByRole('group', { name: 'Why the build failed' });
    const text = failure.textContent ?? '';
    const first = text.indexOf("src/app.ts:3:7error TS2322: Type 'number' is not assignable");
    expect(first).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('npm run build exited with code 2 [BUILD_FAILED]')).toBeGreaterThan(first);
    // A first line says it all: the tail is left to the full log.
    expect(within(failure).queryByLabelText('Last output')).toBeNull();

    fireEvent.click(within(failure).getByRole('button', { name: 'src/app.ts:3:7' }));
    await waitFor(() => expect(activeTab(store.workspace('site'))?.path).toBe('src/app.ts'));
    // At the line and column of the error.
    expect(activeTab(store.workspace('site'))?.reveal).toMatchObject({ line: 3, column: 7 });
    expect(
      daemon.requests.some(
        (r) => r.url.pathname === '/api/files/content' && r.url.searchParams.get('path') === 'src/app.ts',
      ),
    ).toBe(true);
  });

  it('"View full log" shows every stored line of the build', async () => {
    renderFailed(typeError, ['$ npm run build', 'checking 2 files…', 'npm run build exited with code 2']);
    const failure = await screen.findByRole('group', { name: 'Why the build failed' });
    fireEvent.click(within(failure).getByRole('button', { name: 'View full log' }));
    const log = await screen.findByLabelText('Full build log');
    await waitFor(() => expect(log.textContent?.split('\n')).toHaveLength(3));
    expect(log.textContent).toContain('$ npm run build');
    expect(log.textContent).toContain('npm run build exited with code 2');
  });

  it('without a first error line, shows the reason and the last lines of the output, each on its own line', async () => {
    const tail = Array.from({ length: 20 }, (_, i) => `loading module ${i + 6}`);
    renderFailed(
      makeBuild({
        id: 'b10',
        projectName: 'site',
        stages: FAILED_STAGES,
        error: {
          code: 'PREVIEW_FAILED',
          message: 'The app did not listen on a port within 30 s (it was given PORT=41235); it was stopped.',
          tail,
        },
      }),
    );
    const failure = await screen.findByRole('group', { name: 'Why the build failed' });
    expect(within(failure).getByText(/did not listen on a port within 30 s/)).toBeDefined();
    expect(within(failure).getByLabelText('Last output').textContent?.split('\n')).toEqual(tail);
    expect(within(failure).queryByLabelText('First error')).toBeNull();
  });

  it("shows ScanBot's diagnosis first, its file:line opening the editor there, and RepairBot's proposal", async () => {
    const { store } = renderFailed({
      ...typeError,
      error: { ...typeError.error!, probableCause: 'A type does not match.' },
      diagnosis: {
        code: 'TYPE_ERROR',
        summary: "src/app.ts:3: Type 'number' is not assignable to type 'string'.",
        file: 'src/app.ts',
        line: 3,
        suggestion: 'Give total the type number, or convert the sum to a string.',
      },
      repairs: [
        {
          id: 'r_7',
          code: 'ADD_MISSING_PACKAGES',
          summary: 'RepairBot would add canvas-confetti@^1.9.3 to package.json',
          files: ['package.json'],
          status: 'proposed',
          diff: '--- a/package.json\n+++ b/package.json\n@@ -1 +1 @@\n-{}\n+{"dependencies":{"canvas-confetti":"^1.9.3"}}\n',
          at: '2026-01-02T03:04:06.000Z',
          buildId: 'b9',
        },
      ],
    });
    const failure = await screen.findByRole('group', { name: 'Why the build failed' });
    const diagnosis = within(failure).getByRole('group', { name: 'Diagnosis' });
    const text = failure.textContent ?? '';
    // The diagnosis comes before the tool's own line, and replaces the generic probable cause.
    expect(text.indexOf('Type error')).toBeLessThan(text.indexOf('error TS2322'));
    expect(within(diagnosis).getByLabelText('Suggestion').textContent).toMatch(/^Give total the type number/);
    expect(within(failure).queryByText('A type does not match.')).toBeNull();

    const proposed = within(failure).getByRole('region', { name: 'Proposed repairs' });
    expect(
      within(proposed).getByText('RepairBot would add canvas-confetti@^1.9.3 to package.json'),
    ).toBeDefined();
    expect(within(proposed).getByRole('button', { name: 'Apply fix' })).toBeDefined();
    // The diff is one click away here (FixIt shows it open).
    expect(within(proposed).getByText('Show the change')).toBeDefined();

    fireEvent.click(within(diagnosis).getByRole('button', { name: 'src/app.ts:3' }));
    await waitFor(() => expect(activeTab(store.workspace('site'))?.reveal).toMatchObject({ line: 3 }));
    expect(activeTab(store.workspace('site'))?.path).toBe('src/app.ts');
  });

  it('says nothing of a build that succeeded', async () => {
    renderFailed(makeBuild({ id: 'b11', projectName: 'site', stages: [['integration-available', 1]] }));
    expect(await screen.findByLabelText('Stage: Integration Available')).toBeDefined();
    expect(screen.queryByRole('group', { name: 'Why the build failed' })).toBeNull();
  });
});
