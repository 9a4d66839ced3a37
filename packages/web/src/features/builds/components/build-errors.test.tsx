import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Build, Project, ToolError } from '@forge/shared';
import { makeBuild } from '@forge/testing/fixtures';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { createEditorStore, EditorStoreProvider } from '@/features/editor/editor-store.tsx';
import { activeTab } from '@/features/editor/editor-state.ts';
import { LiveDevelopment } from '@/features/live/components/live-development.tsx';
import { FixItConsole } from '@/features/fixit/components/fixit-console.tsx';

// A failed build whose tools printed two errors in two files: the failure panel and the FixIt
// console list both, the first highlighted, each place opening its file in the editor.

const project: Project = {
  name: 'site',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
};

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

const failed = (errors: ToolError[] = [TYPE_ERROR, MISSING_FILE]): Build =>
  makeBuild({
    id: 'b9',
    projectName: 'site',
    stages: [
      ['starting', 0],
      ['build-start', 1],
      ['build-failed', 2],
    ],
    logCount: 3,
    error: {
      code: 'BUILD_FAILED',
      message: 'npm run build exited with code 2',
      firstLine: `error TS2322: ${TYPE_ERROR.message}`,
      location: { file: 'src/cart.ts', line: 3, column: 14 },
      errors,
      errorCount: errors.length,
    },
  });

function render(build: Build, view: 'live' | 'fixit') {
  stubDaemon(({ url }) => {
    if (url.pathname === '/api/projects') return json([project]);
    if (url.pathname === '/api/builds') return json([build]);
    if (url.pathname === `/api/builds/${build.id}/logs`)
      return json({ entries: [], truncated: false, next: 0 });
    if (url.pathname === '/api/projects/site/repairs') return json([]);
    if (url.pathname === '/api/files/content')
      return json({ path: url.searchParams.get('path'), content: 'export const x = 1;\n' });
    return undefined;
  });
  const store = createEditorStore();
  renderPanel(
    <EditorStoreProvider store={store}>
      {view === 'live' ? <LiveDevelopment /> : <FixItConsole />}
    </EditorStoreProvider>,
  );
  return store;
}

/** The list's items as text, and which one is highlighted. */
function items(list: HTMLElement) {
  const rows = within(list).getAllByRole('listitem');
  return {
    texts: rows.map((row) => row.textContent),
    primary: rows.filter((row) => row.getAttribute('aria-current') === 'true').map((row) => row.textContent),
  };
}

describe('every error of a failed build on the web', () => {
  it('the failure panel lists both errors, the first highlighted, and a place opens its file at its line', async () => {
    const store = render(failed(), 'live');
    const failure = await screen.findByRole('group', { name: 'Why the build failed' });
    expect(within(failure).getByText('2 errors (tsc)')).toBeDefined();
    const list = within(failure).getByRole('list', { name: 'Errors the tools printed' });
    const { texts, primary } = items(list);
    expect(texts).toEqual([
      "src/cart.ts:3:14TS2322Type 'string' is not assignable to type 'number'. (first error)",
      "src/main.ts:1:23TS2307Cannot find module './prices' or its corresponding type declarations.",
    ]);
    expect(primary).toEqual([texts[0]]);

    fireEvent.click(within(list).getByRole('button', { name: 'src/main.ts:1:23' }));
    await waitFor(() => expect(activeTab(store.workspace('site'))?.path).toBe('src/main.ts'));
    expect(activeTab(store.workspace('site'))?.reveal).toMatchObject({ line: 1, column: 23 });
  });

  it('the FixIt console lists them too, with no diagnosis or repair to show', async () => {
    render(failed(), 'fixit');
    const section = await screen.findByRole('region', { name: 'Diagnosis and repairs' });
    const { texts, primary } = items(within(section).getByRole('list', { name: 'Errors the tools printed' }));
    expect(texts).toHaveLength(2);
    expect(primary[0]).toContain('src/cart.ts:3:14');
    expect(texts[1]).toContain('src/main.ts:1:23');
  });

  it('one error alone is the first error line: no list', async () => {
    render(failed([TYPE_ERROR]), 'live');
    const failure = await screen.findByRole('group', { name: 'Why the build failed' });
    expect(within(failure).getByLabelText('First error').textContent).toContain('src/cart.ts:3:14');
    expect(within(failure).queryByRole('list', { name: 'Errors the tools printed' })).toBeNull();
  });
});
