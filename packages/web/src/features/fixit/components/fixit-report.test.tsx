import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Build, Diagnosis, FixResult, Project, Repair } from '@forge/shared';
import { makeBuild } from '@forge/testing/fixtures';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon, type RouteHandler, type RouteRequest } from '@/test/render-panel.tsx';
import { createEditorStore, EditorStoreProvider } from '@/features/editor/editor-store.tsx';
import { activeTab } from '@/features/editor/editor-state.ts';
import { FixItConsole } from './fixit-console.tsx';

const project: Project = {
  name: 'site',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastBuild: null,
  hasArtifact: false,
};

const DIFF = [
  '--- a/build.mjs',
  '+++ b/build.mjs',
  '@@ -1,3 +1,3 @@',
  ' // Builds dist/index.html.',
  "-import { x } from './Lib.mjs';",
  "+import { x } from './lib.mjs';",
  " import fs from 'node:fs';",
].join('\n');

const diagnosis: Diagnosis = {
  code: 'IMPORT_CASE_MISMATCH',
  summary: "build.mjs imports './Lib.mjs', but the file is lib.mjs (the letter case differs).",
  file: 'build.mjs',
  line: 2,
  column: 19,
  suggestion: "Change the import to './lib.mjs'; RepairBot can do it (Apply fix).",
  repair: 'FIX_IMPORT_CASE',
};

const repair = (over: Partial<Repair> = {}): Repair => ({
  id: 'r_1',
  code: 'FIX_IMPORT_CASE',
  summary: "RepairBot changed './Lib.mjs' to './lib.mjs' in build.mjs",
  files: ['build.mjs'],
  status: 'proposed',
  diff: DIFF,
  at: '2026-01-02T03:04:06.000Z',
  buildId: 'b9',
  ...over,
});

const failed = (over: Partial<Omit<Build, 'stages'>> = {}): Build =>
  makeBuild({
    id: 'b9',
    projectName: 'site',
    stages: [
      ['starting', 0],
      ['build-start', 1],
      ['build-failed', 2],
    ],
    error: { code: 'BUILD_FAILED', message: 'npm run build exited with code 1' },
    diagnosis,
    repairs: [repair()],
    ...over,
  });

/**
 * The FixIt Console of the selected project "site" whose last build is `build`; `routes` answers the
 * rest (repairs, fix, undo), `journal` is GET /api/projects/site/repairs.
 */
function renderFixIt(build: Build, options: { journal?: () => Repair[]; routes?: RouteHandler } = {}) {
  const daemon = stubDaemon((request) => {
    const { method, url } = request;
    const answer = options.routes?.(request);
    if (answer) return answer;
    if (url.pathname === '/api/projects') return json([project]);
    if (method === 'GET' && url.pathname === '/api/builds') return json([build]);
    if (url.pathname === '/api/projects/site/repairs') return json(options.journal?.() ?? []);
    if (url.pathname === '/api/files/content')
      return json({ path: url.searchParams.get('path'), content: '// Builds dist/index.html.\nimport x;\n' });
    return undefined;
  });
  const store = createEditorStore();
  renderPanel(
    <EditorStoreProvider store={store}>
      <FixItConsole />
    </EditorStoreProvider>,
  );
  return { daemon, store };
}

const report = () => screen.findByRole('region', { name: 'Diagnosis and repairs' });
const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));
const posts = (requests: RouteRequest[]) => requests.filter((r) => r.method === 'POST');

describe('FixIt Console: diagnosis and repairs', () => {
  it('shows the diagnosis — summary, file:line, suggestion — and the link opens the file at that line', async () => {
    const { daemon, store } = renderFixIt(failed());
    const section = await report();
    const found = within(section).getByRole('group', { name: 'Diagnosis' });
    expect(within(found).getByText('Import case mismatch')).toBeDefined();
    expect(within(found).getByLabelText('Diagnosis summary').textContent).toBe(diagnosis.summary);
    expect(within(found).getByLabelText('Suggestion').textContent).toBe(diagnosis.suggestion);

    fireEvent.click(within(found).getByRole('button', { name: 'build.mjs:2:19' }));
    await waitFor(() => expect(activeTab(store.workspace('site'))?.path).toBe('build.mjs'));
    expect(activeTab(store.workspace('site'))?.reveal).toMatchObject({ line: 2, column: 19 });
    expect(
      daemon.requests.some(
        (r) => r.url.pathname === '/api/files/content' && r.url.searchParams.get('path') === 'build.mjs',
      ),
    ).toBe(true);
    // The FixIt Console (docs/product.md#fixit-console) is all still there under it.
    expect(screen.getByRole('group', { name: 'Filter by level' })).toBeDefined();
    expect(screen.getByRole('log', { name: 'Log lines' })).toBeDefined();
  });

  it('shows a proposed repair with its files and its diff, added lines and removed lines told apart', async () => {
    renderFixIt(failed());
    // The report may render before the build's repairs reach it (its record and the journal are two reads).
    const proposed = await within(await report()).findByRole('region', { name: 'Proposed repairs' });
    const item = await within(proposed).findByRole('listitem', { name: repair().summary });
    expect(within(item).getByLabelText('Status: proposed')).toBeDefined();
    expect(within(within(item).getByRole('list', { name: 'Files' })).getByText('build.mjs')).toBeDefined();
    expect(within(item).getByLabelText('1 added, 1 removed')).toBeDefined();
    const diff = within(item).getByRole('region', { name: 'Change of build.mjs' });
    const rows = [...diff.querySelectorAll('tr')].map((tr) => [tr.dataset.kind, tr.textContent]);
    expect(rows).toEqual([
      ['file', 'build.mjs'],
      ['hunk', '@@ -1,3 +1,3 @@'],
      ['context', '11 // Builds dist/index.html.'],
      ['remove', "2-removed: import { x } from './Lib.mjs';"],
      ['add', "2+added: import { x } from './lib.mjs';"],
      ['context', "33 import fs from 'node:fs';"],
    ]);
  });

  it('"Apply fix" posts the repair, shows the daemon\'s message and follows the new build', async () => {
    let answer!: (res: Response) => void;
    const result: FixResult = {
      repairs: [repair({ id: 'r_2', status: 'applied', buildId: 'b10' })],
      buildId: 'b10',
      message: 'RepairBot applied 1 repair; building site again.',
    };
    const next = makeBuild({
      id: 'b10',
      projectName: 'site',
      stages: [['starting', 5]],
      createdAt: '2026-01-02T04:00:00.000Z',
      repairs: result.repairs,
    });
    const { daemon } = renderFixIt(failed(), {
      routes: ({ method, url }) => {
        if (method === 'POST' && url.pathname === '/api/builds/b9/fix')
          return new Promise<Response>((resolve) => (answer = resolve));
        if (method === 'GET' && url.pathname === '/api/builds/b10') return json(next);
        return undefined;
      },
    });
    const proposed = within(await report()).getByRole('region', { name: 'Proposed repairs' });
    fireEvent.click(within(proposed).getByRole('button', { name: 'Apply fix' }));

    await waitFor(() =>
      expect(within(proposed).getByRole('button', { name: 'Apply fix' }).hasAttribute('disabled')).toBe(true),
    );
    expect(posts(daemon.requests)).toMatchObject([
      { path: '/api/builds/b9/fix', body: { codes: ['FIX_IMPORT_CASE'] } },
    ]);
    answer(json(result));

    expect(await notices().findByText(result.message)).toBeDefined();
    // The new build is the project's last one now: FixIt shows it, with the repair it carries.
    await waitFor(() => expect(screen.getByText('b10')).toBeDefined());
    const applied = within(await report()).getByRole('region', { name: 'Applied repairs' });
    expect(within(applied).getByLabelText('Status: applied')).toBeDefined();
    expect(screen.queryByRole('group', { name: 'Diagnosis' })).toBeNull();
  });

  it('says why when the daemon refuses to fix, in its own words', async () => {
    renderFixIt(failed(), {
      routes: ({ method, url }) =>
        method === 'POST' && url.pathname === '/api/builds/b9/fix'
          ? json({ error: 'There is nothing left to fix in build b9.', code: 'NOTHING_TO_FIX' }, 409)
          : undefined,
    });
    const proposed = within(await report()).getByRole('region', { name: 'Proposed repairs' });
    fireEvent.click(within(proposed).getByRole('button', { name: 'Apply fix' }));
    expect(await notices().findByText('Fix not applied')).toBeDefined();
    expect(notices().getByText('There is nothing left to fix in build b9.')).toBeDefined();
    // Still offered: nothing was applied.
    await waitFor(() =>
      expect(within(proposed).getByRole('button', { name: 'Apply fix' }).hasAttribute('disabled')).toBe(
        false,
      ),
    );
  });

  it('lists the repairs RepairBot made during a build that then succeeded, and "Undo" restores them', async () => {
    let journal: Repair[] = [repair({ status: 'applied' })];
    const { daemon } = renderFixIt(
      makeBuild({
        id: 'b9',
        projectName: 'site',
        stages: [['integration-available', 3]],
        repairs: [repair({ status: 'applied' })],
      }),
      {
        journal: () => journal,
        routes: ({ method, url }) => {
          if (method !== 'POST' || url.pathname !== '/api/projects/site/repairs/undo') return undefined;
          journal = [repair({ status: 'undone' })];
          return json({
            restored: journal,
            files: ['build.mjs'],
            message: 'Restored build.mjs as it was before the repair.',
          });
        },
      },
    );
    const applied = within(await report()).getByRole('region', { name: 'Applied repairs' });
    expect(within(applied).getByLabelText('Status: applied')).toBeDefined();
    expect(screen.queryByRole('region', { name: 'Proposed repairs' })).toBeNull();

    fireEvent.click(within(applied).getByRole('button', { name: 'Undo' }));

    expect(await notices().findByText('Restored build.mjs as it was before the repair.')).toBeDefined();
    expect(posts(daemon.requests)).toMatchObject([
      { path: '/api/projects/site/repairs/undo', body: { id: 'r_1' } },
    ]);
    // The journal now says undone: nothing left to undo.
    await waitFor(() => expect(within(applied).getByLabelText('Status: undone')).toBeDefined());
    expect(within(applied).queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('says which worker ran the failed build', async () => {
    renderFixIt(failed({ worker: 'ci-3' }));
    const section = within(await report());
    expect(section.getByText(/^Build/).textContent).toBe('Build b9 of site · Build Failed');
    expect(section.getByLabelText('Worker: on ci-3').textContent).toBe('on ci-3');
  });

  it('stays out of the way when the last build needs nothing', async () => {
    const { daemon } = renderFixIt(
      makeBuild({ id: 'b9', projectName: 'site', stages: [['integration-available', 3]] }),
    );
    await waitFor(() => expect(daemon.requests.some((r) => r.path.startsWith('/api/builds?'))).toBe(true));
    expect(screen.queryByRole('region', { name: 'Diagnosis and repairs' })).toBeNull();
  });
});
