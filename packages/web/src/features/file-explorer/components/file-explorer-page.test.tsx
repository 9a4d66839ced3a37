import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UI_TEXT } from '@forge/shared';
import { stubDaemon } from '@/test/render-panel.tsx';
import { renderWorkspace } from '@/features/editor/test/render-workspace.tsx';
import { fakeFiles, PROJECT } from '@/features/files/test/fake-files.ts';
import { FileExplorerPage } from './file-explorer-page.tsx';

const FILES = {
  'README.md': 'line one\nline two\nline three',
  'src/big.json': 'x'.repeat(3 * 1024),
  'assets/huge.txt': 'y'.repeat(Math.round(1.5 * 1024 * 1024)),
};

const row = (path: string) => {
  const found = screen.getByRole('tree').querySelector<HTMLElement>(`[data-path="${path}"]`);
  if (!found) throw new Error(`no row for ${path}`);
  return found;
};

async function renderExplorer() {
  const disk = fakeFiles(FILES);
  const daemon = stubDaemon(disk.handler);
  const view = renderWorkspace(<FileExplorerPage />);
  await screen.findByRole('tree', { name: 'Project files' });
  return { ...view, disk, daemon };
}

async function selectReadme() {
  fireEvent.click(row('README.md'));
  return (await screen.findByRole('textbox', { name: 'Content of README.md' })) as HTMLTextAreaElement;
}

describe('file explorer screen (docs/product.md#file-tree-and-explorer)', () => {
  it('labels file sizes in B, KB and MB', async () => {
    await renderExplorer();
    fireEvent.click(row('src'));
    fireEvent.click(row('assets'));

    expect(within(row('README.md')).getByText('28 B')).toBeDefined();
    expect(within(row('src/big.json')).getByText('3 KB')).toBeDefined();
    expect(within(row('assets/huge.txt')).getByText('1.5 MB')).toBeDefined();
  });

  it('shows the selected file with line numbers', async () => {
    await renderExplorer();

    const view = await selectReadme();

    expect(view.value).toBe(FILES['README.md']);
    expect(screen.getByTestId('line-numbers').textContent).toBe('1\n2\n3');
  });

  it('saves edits made in the view', async () => {
    const { daemon, disk } = await renderExplorer();
    const view = await selectReadme();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save.hasAttribute('disabled')).toBe(true);

    fireEvent.change(view, { target: { value: 'line one\nedited' } });
    expect(screen.getByText('unsaved')).toBeDefined();
    expect(screen.getByTestId('line-numbers').textContent).toBe('1\n2');
    fireEvent.click(save);

    expect(await screen.findByText(UI_TEXT.fileSaved)).toBeDefined();
    expect(daemon.requests.find((r) => r.url.pathname === '/api/files/save')?.body).toEqual({
      path: 'README.md',
      content: 'line one\nedited',
      project: PROJECT,
    });
    expect(disk.files.get('README.md')).toBe('line one\nedited');
    expect(screen.queryByText('unsaved')).toBeNull();
  });

  it('says "Unable to save file. Please try again." when saving fails', async () => {
    const { disk } = await renderExplorer();
    disk.fail.set('POST /api/files/save', 'read-only disk');
    const view = await selectReadme();

    fireEvent.change(view, { target: { value: 'changed' } });
    fireEvent.keyDown(view, { key: 's', ctrlKey: true });

    expect(await screen.findByText(UI_TEXT.saveFailed)).toBeDefined();
    expect(disk.files.get('README.md')).toBe(FILES['README.md']);
  });

  it('downloads the selected file as a blob with its name', async () => {
    await renderExplorer();
    await selectReadme();
    const blobs: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: vi.fn((blob: Blob) => {
          blobs.push(blob);
          return 'blob:forge/readme';
        }),
        revokeObjectURL: vi.fn(),
      }),
    );
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });

    fireEvent.click(screen.getByRole('button', { name: 'Download' }));

    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('README.md');
    expect(clicked[0]!.href).toBe('blob:forge/readme');
    expect(await blobs[0]!.text()).toBe(FILES['README.md']);
    click.mockRestore();
  });

  it('creates a new file next to the selected one with New', async () => {
    const { daemon, disk } = await renderExplorer();
    fireEvent.click(row('src'));
    fireEvent.click(row('src/big.json'));

    fireEvent.click(screen.getByRole('button', { name: 'New' }));
    const dialog = await screen.findByRole('dialog', { name: 'New File' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'small.json' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(disk.files.has('src/small.json')).toBe(true));
    expect(daemon.requests.find((r) => r.url.pathname === '/api/files/create')?.body).toEqual({
      type: 'file',
      name: 'small.json',
      parentPath: 'src',
      project: PROJECT,
    });
    expect(await screen.findByRole('textbox', { name: 'Content of src/small.json' })).toBeDefined();
  });

  it('reloads the tree with Refresh', async () => {
    const { daemon, disk } = await renderExplorer();
    disk.files.set('added.ts', 'export {};');

    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));

    await waitFor(() => expect(row('added.ts')).toBeDefined());
    expect(daemon.requests.filter((r) => r.url.pathname === '/api/files/structure')).toHaveLength(2);
  });
});
