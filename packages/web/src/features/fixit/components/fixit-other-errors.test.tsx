import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Build, DiagnosedError, Project } from '@forge/shared';
import { makeBuild } from '@forge/testing/fixtures';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { createEditorStore, EditorStoreProvider } from '@/features/editor/editor-store.tsx';
import { activeTab } from '@/features/editor/editor-state.ts';
import { FixItConsole } from './fixit-console.tsx';

// A failure with several errors: FixIt lists the others under the diagnosis as the CLI does — the
// counts, then each with its file:line (a click opens it) and whether it is repaired in the same pass.

const project: Project = {
  name: 'site',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
};

const caseMismatch: DiagnosedError = {
  code: 'IMPORT_CASE_MISMATCH',
  summary: 'src/main.ts imports "./Cart", but the file is src/cart.ts: the letter case differs.',
  file: 'src/main.ts',
  line: 2,
  column: 23,
  subjects: ['./Cart', './cart'],
  repair: 'FIX_IMPORT_CASE',
};
const typeError: DiagnosedError = {
  code: 'TYPE_ERROR',
  summary: "tsc: Type 'string' is not assignable to type 'number'.",
  file: 'src/count.ts',
  line: 1,
};

function renderWith(others: DiagnosedError[]) {
  const build: Build = makeBuild({
    id: 'b9',
    projectName: 'site',
    stages: [
      ['starting', 0],
      ['build-start', 1],
      ['build-failed', 2],
    ],
    error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 2' },
    diagnosis: {
      code: 'MISSING_PACKAGE',
      summary: '"clsx" is imported by src/main.ts but not declared in package.json.',
      file: 'src/main.ts',
      line: 3,
      repair: 'ADD_MISSING_PACKAGES',
      others,
    },
    repairs: [],
  });
  stubDaemon(({ method, url }) => {
    if (url.pathname === '/api/projects') return json([project]);
    if (method === 'GET' && url.pathname === '/api/builds') return json([build]);
    if (url.pathname === '/api/projects/site/repairs') return json([]);
    if (url.pathname === '/api/files/content')
      return json({ path: url.searchParams.get('path'), content: "export const count: number = 'three'\n" });
    return undefined;
  });
  const store = createEditorStore();
  renderPanel(
    <EditorStoreProvider store={store}>
      <FixItConsole />
    </EditorStoreProvider>,
  );
  return store;
}

const otherErrors = async () =>
  within(
    await within(await screen.findByRole('region', { name: 'Diagnosis and repairs' })).findByRole('region', {
      name: 'Other errors',
    }),
  );

describe('FixIt Console: the other errors of a failure', () => {
  it('counts them as the CLI does and lists each with its place, repairable or remaining', async () => {
    const store = renderWith([caseMismatch, typeError]);
    const section = await otherErrors();
    expect(section.getByText('2 more errors: 1 repairable in the same pass, 1 remains')).toBeDefined();
    const items = section.getAllByRole('listitem');
    expect(items.map((li) => [li.dataset.state, li.getAttribute('aria-label')])).toEqual([
      ['repairable', `Repairable: src/main.ts:2:23 ${caseMismatch.summary}`],
      ['remains', `Remains: src/count.ts:1 ${typeError.summary}`],
    ]);
    expect(within(items[1]!).getByText('Type error')).toBeDefined();

    fireEvent.click(within(items[1]!).getByRole('button', { name: 'src/count.ts:1' }));
    await waitFor(() => expect(activeTab(store.workspace('site'))?.path).toBe('src/count.ts'));
    expect(activeTab(store.workspace('site'))?.reveal).toMatchObject({ line: 1 });
  });

  it('lists five and counts the rest', async () => {
    renderWith(Array.from({ length: 7 }, (_, i) => ({ ...typeError, line: i + 1 })));
    const section = await otherErrors();
    expect(section.getByText('7 more errors: 0 repairable in the same pass, 7 remain')).toBeDefined();
    expect(section.getAllByRole('listitem')).toHaveLength(5);
    expect(section.getByText('…and 2 more')).toBeDefined();
  });

  it('shows no such section for a failure with one error', async () => {
    renderWith([]);
    const report = await screen.findByRole('region', { name: 'Diagnosis and repairs' });
    await within(report).findByRole('group', { name: 'Diagnosis' });
    expect(within(report).queryByRole('region', { name: 'Other errors' })).toBeNull();
  });
});
