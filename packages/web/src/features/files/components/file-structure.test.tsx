import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHANGED_FILE_HIGHLIGHT_MS, UI_TEXT } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { stubDaemon } from '@/test/render-panel.tsx';
import { CodeArea } from '@/features/editor/components/code-area.tsx';
import { renderWorkspace } from '@/features/editor/test/render-workspace.tsx';
import { fakeFiles, PROJECT } from '../test/fake-files.ts';
import { FileStructure } from './file-structure.tsx';

const PROJECT_FILES = {
  'client/src/App.tsx': 'export default function App() {}\n',
  'client/src/components/deep/deeper/leaf.ts': 'export {};\n',
  'package.json': '{}\n',
  'server/routes.ts': 'export {};\n',
};

afterEach(() => {
  vi.useRealTimers();
});

const row = (path: string) => {
  const found = screen.getByRole('tree').querySelector<HTMLElement>(`[data-path="${path}"]`);
  if (!found) throw new Error(`no row for ${path}`);
  return found;
};
const rowPaths = () =>
  [...screen.getByRole('tree').querySelectorAll('[role="treeitem"]')].map((r) => r.getAttribute('data-path'));

async function renderTree(files: Record<string, string> = PROJECT_FILES, withCodeArea = false) {
  const disk = fakeFiles(files);
  const daemon = stubDaemon(disk.handler);
  const view = renderWorkspace(
    <>
      <FileStructure />
      {withCodeArea ? <CodeArea /> : null}
    </>,
  );
  await screen.findByRole('tree', { name: 'Project files' });
  return { ...view, disk, daemon };
}

const requestsTo = (daemon: { requests: { url: URL; method: string; body: unknown }[] }, path: string) =>
  daemon.requests.filter((r) => r.url.pathname === path);

function openMenu(target: HTMLElement) {
  fireEvent.contextMenu(target);
  return screen.getByRole('menu');
}

describe('file tree (docs/product.md#file-tree-and-explorer)', () => {
  it('loads the tree of the current project, folders first', async () => {
    const { daemon } = await renderTree();

    expect(rowPaths()).toEqual(['client', 'server', 'package.json']);
    expect(requestsTo(daemon, '/api/files/structure')[0]!.url.searchParams.get('project')).toBe(PROJECT);
  });

  it('expands and collapses a folder on click, indenting 12 px a level up to 48 px', async () => {
    await renderTree();

    fireEvent.click(row('client'));
    expect(row('client').getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(row('client/src'));
    fireEvent.click(row('client/src/components'));
    fireEvent.click(row('client/src/components/deep'));
    fireEvent.click(row('client/src/components/deep/deeper'));

    const indent = (path: string) => Number.parseFloat(row(path).style.paddingLeft);
    const base = indent('client');
    expect(
      [
        'client/src',
        'client/src/components',
        'client/src/components/deep',
        'client/src/components/deep/deeper',
        'client/src/components/deep/deeper/leaf.ts',
      ].map((p) => indent(p) - base),
    ).toEqual([12, 24, 36, 48, 48]);

    fireEvent.click(row('client'));
    expect(row('client').getAttribute('aria-expanded')).toBe('false');
    expect(rowPaths()).toEqual(['client', 'server', 'package.json']);
  });

  it('opens a file in the code area on double-click, and selects its tab', async () => {
    await renderTree(PROJECT_FILES, true);
    await waitFor(() => expect(screen.getAllByRole('tab')).toHaveLength(3));

    fireEvent.click(row('server'));
    fireEvent.click(row('server/routes.ts'));
    expect(screen.getAllByRole('tab')).toHaveLength(3);
    fireEvent.doubleClick(row('server/routes.ts'));

    // routes.ts is a starter file: already open, so it is only selected.
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'routes.ts' }).getAttribute('aria-selected')).toBe('true'),
    );
    fireEvent.click(row('client'));
    fireEvent.click(row('client/src'));
    fireEvent.click(row('client/src/components'));
    fireEvent.click(row('client/src/components/deep'));
    fireEvent.click(row('client/src/components/deep/deeper'));
    fireEvent.doubleClick(row('client/src/components/deep/deeper/leaf.ts'));
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'leaf.ts' }).getAttribute('aria-selected')).toBe('true'),
    );
    expect((screen.getByRole('textbox', { name: /^Editing / }) as HTMLTextAreaElement).value).toBe(
      'export {};\n',
    );
  });

  it('creates a file from the context menu with { type, name, parentPath }, refusing blank names', async () => {
    const { daemon, disk } = await renderTree();

    fireEvent.click(within(openMenu(row('server'))).getByRole('menuitem', { name: 'New File' }));
    const dialog = await screen.findByRole('dialog', { name: 'New File' });
    const create = within(dialog).getByRole('button', { name: 'Create' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDefined();
    expect(create.hasAttribute('disabled')).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '   ' } });
    expect(create.hasAttribute('disabled')).toBe(true);
    expect(within(dialog).getByText('Enter a name.')).toBeDefined();

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'auth.ts' } });
    fireEvent.click(create);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo(daemon, '/api/files/create').map((r) => [r.method, r.body])).toEqual([
      ['POST', { type: 'file', name: 'auth.ts', parentPath: 'server', project: PROJECT }],
    ]);
    expect(disk.files.has('server/auth.ts')).toBe(true);
    expect(await screen.findByRole('treeitem', { name: /auth\.ts/ })).toBeDefined();
  });

  it('creates a folder at the root from empty space, and says "Failed to create folder" when refused', async () => {
    const { daemon, disk } = await renderTree();
    disk.fail.set('POST /api/files/create', 'no space left');

    fireEvent.click(within(openMenu(screen.getByRole('tree'))).getByRole('menuitem', { name: 'New Folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Folder' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'docs' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText(UI_TEXT.createFailed('folder'))).toBeDefined();
    expect(requestsTo(daemon, '/api/files/create')[0]!.body).toEqual({
      type: 'folder',
      name: 'docs',
      parentPath: '',
      project: PROJECT,
    });
    // The dialog stays, with the name, to try again.
    expect(within(screen.getByRole('dialog')).getByLabelText<HTMLInputElement>('Name').value).toBe('docs');
  });

  it('renames for real with { from, to }, and the open tab follows', async () => {
    const { daemon, disk } = await renderTree(PROJECT_FILES, true);
    await waitFor(() => expect(screen.getAllByRole('tab')).toHaveLength(3));

    fireEvent.click(within(openMenu(row('package.json'))).getByRole('menuitem', { name: /^Rename/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename package.json' });
    fireEvent.change(within(dialog).getByLabelText('New name'), { target: { value: 'package.jsonc' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));

    await waitFor(() => expect(requestsTo(daemon, '/api/files/rename')).toHaveLength(1));
    expect(requestsTo(daemon, '/api/files/rename')[0]!.body).toEqual({
      from: 'package.json',
      to: 'package.jsonc',
      project: PROJECT,
    });
    expect(disk.files.has('package.jsonc')).toBe(true);
    expect(await screen.findByRole('tab', { name: 'package.jsonc' })).toBeDefined();
  });

  it('asks "Are you sure you want to delete {name}?" and deletes only when confirmed', async () => {
    const { daemon, disk } = await renderTree();
    fireEvent.click(row('server'));

    fireEvent.click(within(openMenu(row('server/routes.ts'))).getByRole('menuitem', { name: /^Delete/ }));
    let confirm = await screen.findByRole('alertdialog');
    expect(within(confirm).getByText('Are you sure you want to delete routes.ts?')).toBeDefined();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(requestsTo(daemon, '/api/files/delete')).toHaveLength(0);

    fireEvent.click(within(openMenu(row('server/routes.ts'))).getByRole('menuitem', { name: /^Delete/ }));
    confirm = await screen.findByRole('alertdialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(requestsTo(daemon, '/api/files/delete')).toHaveLength(1));
    expect(requestsTo(daemon, '/api/files/delete')[0]).toMatchObject({
      method: 'DELETE',
      body: { path: 'server/routes.ts', project: PROJECT },
    });
    expect(disk.files.has('server/routes.ts')).toBe(false);
  });

  it('says "Failed to delete {name}" when the delete is refused', async () => {
    const { disk } = await renderTree();
    disk.fail.set('DELETE /api/files/delete', 'busy');

    fireEvent.click(within(openMenu(row('package.json'))).getByRole('menuitem', { name: /^Delete/ }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText(UI_TEXT.deleteFailed('package.json'))).toBeDefined();
    expect(disk.files.has('package.json')).toBe(true);
  });

  it('offers no Rename or Delete for the project root', async () => {
    await renderTree();
    const menu = openMenu(screen.getByRole('tree'));
    expect(
      within(menu)
        .getByRole('menuitem', { name: /^Rename/ })
        .hasAttribute('data-disabled'),
    ).toBe(true);
    expect(
      within(menu)
        .getByRole('menuitem', { name: /Delete/ })
        .hasAttribute('data-disabled'),
    ).toBe(true);
  });

  it('takes a pushed tree for the current project and lights changed files for 3 s', async () => {
    const { socket, disk } = await renderTree();
    vi.useFakeTimers();

    disk.files.set('package.json', '{ "name": "changed" }\n');
    disk.files.set('notes.md', '# hi');
    socket.emit({ type: 'project-files-updated', fileStructure: disk.tree(), projectName: PROJECT });

    expect(rowPaths()).toContain('notes.md');
    expect(row('notes.md').hasAttribute('data-highlighted')).toBe(true);
    expect(row('package.json').hasAttribute('data-highlighted')).toBe(true);
    expect(row('client').hasAttribute('data-highlighted')).toBe(false);

    act(() => vi.advanceTimersByTime(CHANGED_FILE_HIGHLIGHT_MS - 1));
    expect(row('notes.md').hasAttribute('data-highlighted')).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(row('notes.md').hasAttribute('data-highlighted')).toBe(false);
    expect(row('package.json').hasAttribute('data-highlighted')).toBe(false);

    socket.emit({
      type: 'file-content-updated',
      filePath: 'package.json',
      content: '{}',
      projectName: PROJECT,
    });
    expect(row('package.json').hasAttribute('data-highlighted')).toBe(true);
    act(() => vi.advanceTimersByTime(CHANGED_FILE_HIGHLIGHT_MS));
    expect(row('package.json').hasAttribute('data-highlighted')).toBe(false);
  });

  it("ignores another project's pushed tree", async () => {
    const { socket } = await renderTree();

    socket.emit({
      type: 'project-files-updated',
      fileStructure: [{ name: 'elsewhere.ts', path: 'elsewhere.ts', type: 'file', size: 1 }],
      projectName: 'other',
    });

    expect(rowPaths()).toEqual(['client', 'server', 'package.json']);
  });

  it('says "No project files found" for an empty project', async () => {
    stubDaemon(fakeFiles({}).handler);
    renderWorkspace(<FileStructure />);

    expect(await screen.findByText(UI_TEXT.noProjectFiles)).toBeDefined();
  });

  it('toasts "Error loading files - Unable to load project files. Please try again." when the tree fails', async () => {
    const disk = fakeFiles(PROJECT_FILES);
    stubDaemon((request) =>
      request.url.pathname === '/api/files/structure'
        ? json({ error: 'boom', code: 'INTERNAL' }, 500)
        : disk.handler(request),
    );
    renderWorkspace(<FileStructure />);

    const notices = screen.getByRole('region', { name: /Notifications/ });
    await waitFor(() => expect(within(notices).getByText(UI_TEXT.filesLoadErrorTitle)).toBeDefined());
    expect(within(notices).getByText(UI_TEXT.filesLoadErrorBody)).toBeDefined();
  });
});
