import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UI_TEXT } from '@forge/shared';
import { stubDaemon } from '@/test/render-panel.tsx';
import { fakeFiles, PROJECT } from '@/features/files/test/fake-files.ts';
import { renderWorkspace } from '../test/render-workspace.tsx';
import { CodeArea } from './code-area.tsx';

const STARTER = {
  'client/src/App.tsx': 'export default function App() {}\n',
  'client/src/index.css': 'body { margin: 0; }\n',
  'package.json': '{ "name": "forge" }\n',
  'server/routes.ts': 'export {};\n',
};

const tabs = () => screen.getAllByRole('tab');
const tabNames = () => tabs().map((t) => t.textContent);
const editor = () => screen.getByRole('textbox', { name: /^Editing / });

async function renderCodeArea(initial: Record<string, string> = STARTER) {
  const disk = fakeFiles(initial);
  const daemon = stubDaemon(disk.handler);
  const view = renderWorkspace(<CodeArea />);
  return { ...view, disk, daemon };
}

describe('code area (docs/product.md#code-area)', () => {
  it('shows "Loading project files", then opens the starter files the project has, the first selected', async () => {
    const { 'server/routes.ts': _missing, ...withoutRoutes } = STARTER;
    const { daemon } = await renderCodeArea(withoutRoutes);

    expect(screen.getByText('Loading project files')).toBeDefined();
    await waitFor(() => expect(tabNames()).toEqual(['App.tsx', 'index.css', 'package.json']));
    expect(tabs()[0]!.getAttribute('aria-selected')).toBe('true');
    expect((editor() as HTMLTextAreaElement).value).toBe(STARTER['client/src/App.tsx']);
    // Only the files the project's tree lists are asked for (no 404 for the missing one), and every
    // file call names the current project.
    const contentCalls = daemon.requests.filter((r) => r.url.pathname === '/api/files/content');
    expect(contentCalls.map((r) => r.url.searchParams.get('path')).sort()).toEqual([
      'client/src/App.tsx',
      'client/src/index.css',
      'package.json',
    ]);
    expect(contentCalls.map((r) => r.url.searchParams.get('project'))).toEqual([PROJECT, PROJECT, PROJECT]);
    // The missing starter file is skipped quietly.
    expect(screen.queryByText(UI_TEXT.fileLoadError)).toBeNull();
  });

  it('says "Code Editor Ready" when none of them exist, and New file opens an untitled tab', async () => {
    await renderCodeArea({ 'other.ts': '' });

    expect(await screen.findByText('Code Editor Ready')).toBeDefined();
    fireEvent.click(screen.getAllByRole('button', { name: 'New file' })[0]!);

    expect(tabNames()).toEqual(['Untitled-1(unsaved)']);
    expect(tabs()[0]!.getAttribute('aria-selected')).toBe('true');
  });

  it('selects a tab when it is clicked', async () => {
    await renderCodeArea();
    await waitFor(() => expect(tabs()).toHaveLength(4));

    fireEvent.click(screen.getByRole('tab', { name: /package\.json/ }));

    expect(screen.getByRole('tab', { name: /package\.json/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: /App\.tsx/ }).getAttribute('aria-selected')).toBe('false');
    expect((editor() as HTMLTextAreaElement).value).toBe(STARTER['package.json']);
  });

  it('closes tabs only while more than one is open', async () => {
    await renderCodeArea({ 'package.json': '{}', 'server/routes.ts': '' });
    await waitFor(() => expect(tabs()).toHaveLength(2));

    fireEvent.click(screen.getByRole('button', { name: 'Close package.json' }));

    expect(tabNames()).toEqual(['routes.ts']);
    expect(screen.queryByRole('button', { name: /^Close / })).toBeNull();
  });

  it('marks an edited tab unsaved and saves it with Ctrl+S, without the browser dialog', async () => {
    const { daemon, disk } = await renderCodeArea();
    await waitFor(() => expect(tabs()).toHaveLength(4));
    const area = editor();

    fireEvent.change(area, { target: { value: 'export const edited = true;\n' } });
    expect(screen.getByRole('tab', { name: /App\.tsx/ }).textContent).toContain('(unsaved)');
    expect(screen.getAllByTestId('dirty-marker')).toHaveLength(1);

    area.focus();
    const notPrevented = fireEvent.keyDown(area, { key: 's', code: 'KeyS', ctrlKey: true });

    expect(notPrevented).toBe(false);
    expect(await screen.findByText(UI_TEXT.fileSaved)).toBeDefined();
    const save = daemon.requests.find((r) => r.url.pathname === '/api/files/save');
    expect(save).toMatchObject({
      method: 'POST',
      body: { path: 'client/src/App.tsx', content: 'export const edited = true;\n', project: PROJECT },
    });
    expect(disk.files.get('client/src/App.tsx')).toBe('export const edited = true;\n');
    expect(screen.queryAllByTestId('dirty-marker')).toHaveLength(0);
  });

  it('says "Unable to save file. Please try again." when the save fails, and stays unsaved', async () => {
    const { disk } = await renderCodeArea();
    await waitFor(() => expect(tabs()).toHaveLength(4));
    disk.fail.set('POST /api/files/save', 'disk full');

    fireEvent.change(editor(), { target: { value: 'changed' } });
    editor().focus();
    fireEvent.keyDown(editor(), { key: 's', metaKey: true });

    expect(await screen.findByText(UI_TEXT.saveFailed)).toBeDefined();
    expect(screen.getByText('disk full')).toBeDefined();
    expect(screen.getAllByTestId('dirty-marker')).toHaveLength(1);
    expect(disk.files.get('client/src/App.tsx')).toBe(STARTER['client/src/App.tsx']);
  });

  it('asks a new file for its path on save and creates it there', async () => {
    const { daemon, disk } = await renderCodeArea();
    await waitFor(() => expect(tabs()).toHaveLength(4));

    fireEvent.click(screen.getByRole('button', { name: 'New file' }));
    fireEvent.change(editor(), { target: { value: 'body { color: red; }' } });
    editor().focus();
    fireEvent.keyDown(editor(), { key: 's', ctrlKey: true });

    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText('File path');
    const create = within(dialog).getByRole('button', { name: 'Create' });
    fireEvent.change(field, { target: { value: '   ' } });
    expect(create.hasAttribute('disabled')).toBe(true);
    fireEvent.change(field, { target: { value: 'client/src/theme.css' } });
    fireEvent.click(create);

    expect(await screen.findByText(UI_TEXT.fileSaved)).toBeDefined();
    expect(daemon.requests.find((r) => r.url.pathname === '/api/files/create')?.body).toEqual({
      path: 'client/src/theme.css',
      content: 'body { color: red; }',
      project: PROJECT,
    });
    expect(disk.files.get('client/src/theme.css')).toBe('body { color: red; }');
    expect(screen.getByRole('tab', { name: 'theme.css' }).getAttribute('aria-selected')).toBe('true');
  });

  it('takes pushed content into a clean tab, and keeps edits in a dirty one with a calm notice', async () => {
    const { socket } = await renderCodeArea();
    await waitFor(() => expect(tabs()).toHaveLength(4));

    socket.emit({
      type: 'file-content-updated',
      filePath: 'client/src/App.tsx',
      content: 'from disk',
      projectName: PROJECT,
    });
    expect((editor() as HTMLTextAreaElement).value).toBe('from disk');

    fireEvent.change(editor(), { target: { value: 'my edit' } });
    socket.emit({
      type: 'file-content-updated',
      filePath: 'client/src/App.tsx',
      content: 'from disk again',
      projectName: PROJECT,
    });
    expect((editor() as HTMLTextAreaElement).value).toBe('my edit');
    expect(screen.getByText('App.tsx changed on disk')).toBeDefined();
    expect(screen.getAllByTestId('dirty-marker')).toHaveLength(1);

    // Another project's file with the same path is not ours.
    socket.emit({
      type: 'file-content-updated',
      filePath: 'package.json',
      content: 'x',
      projectName: 'other',
    });
    fireEvent.click(screen.getByRole('tab', { name: /package\.json/ }));
    expect((editor() as HTMLTextAreaElement).value).toBe(STARTER['package.json']);
  });
});
