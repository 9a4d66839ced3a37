import { describe, expect, it } from 'vitest';
import {
  mayHaveFile,
  EMPTY_WORKSPACE,
  applyRemoteContent,
  canCloseTab,
  closeTab,
  editTab,
  isDirty,
  markSaved,
  markSaving,
  openTab,
  removePaths,
  renamePaths,
  selectTab,
  tabForFile,
  type Workspace,
} from './editor-state.ts';

const withFiles = (...paths: string[]): Workspace =>
  paths.reduce((ws, path, i) => openTab(ws, tabForFile(`t${i}`, path, `// ${path}`)), EMPTY_WORKSPACE);

describe('editor tabs (docs/product.md#code-area)', () => {
  it('opening a file selects its tab; opening it again only selects it', () => {
    let ws = withFiles('a.ts', 'b.css');
    expect(ws.activeId).toBe('t1');
    ws = openTab(ws, tabForFile('other', 'a.ts', 'ignored'));
    expect(ws.tabs).toHaveLength(2);
    expect(ws.activeId).toBe('t0');
    expect(selectTab(ws, 't1').activeId).toBe('t1');
  });

  it('takes the language from the extension', () => {
    const ws = withFiles('client/src/App.tsx', 'client/src/index.css', 'package.json', 'README');
    expect(ws.tabs.map((t) => t.language)).toEqual(['typescript', 'css', 'json', 'typescript']);
  });

  it('closes a tab only while more than one is open', () => {
    let ws = withFiles('a.ts', 'b.ts');
    expect(canCloseTab(ws)).toBe(true);
    ws = closeTab(ws, 't1');
    expect(ws.tabs.map((t) => t.path)).toEqual(['a.ts']);
    expect(canCloseTab(ws)).toBe(false);
    expect(closeTab(ws, 't0')).toBe(ws);
  });

  it('selects the right-hand neighbour of a closed active tab, else the left one', () => {
    let ws = selectTab(withFiles('a.ts', 'b.ts', 'c.ts'), 't1');
    ws = closeTab(ws, 't1');
    expect(ws.activeId).toBe('t2');
    ws = closeTab(ws, 't2');
    expect(ws.activeId).toBe('t0');
  });

  it('marks a tab dirty while it differs from disk, and clean once saved', () => {
    let ws = withFiles('a.ts');
    expect(isDirty(ws.tabs[0]!)).toBe(false);
    ws = editTab(ws, 't0', 'changed');
    expect(isDirty(ws.tabs[0]!)).toBe(true);
    ws = markSaved(markSaving(ws, 't0', 'changed'), 't0', 'a.ts', 'changed');
    expect(isDirty(ws.tabs[0]!)).toBe(false);
  });

  it('gives a new file its path, name and language on its first save', () => {
    let ws = openTab(EMPTY_WORKSPACE, {
      id: 'n',
      name: 'Untitled-1',
      language: 'typescript',
      content: 'x',
      savedContent: '',
    });
    expect(isDirty(ws.tabs[0]!)).toBe(true);
    ws = markSaved(ws, 'n', 'styles/site.css', 'x');
    expect(ws.tabs[0]).toMatchObject({ path: 'styles/site.css', name: 'site.css', language: 'css' });
    expect(isDirty(ws.tabs[0]!)).toBe(false);
  });
});

describe('pushed file content (file-content-updated)', () => {
  it('updates a clean tab', () => {
    const { workspace, outcome } = applyRemoteContent(withFiles('a.ts'), 'a.ts', 'new');
    expect(outcome).toBe('updated');
    expect(workspace.tabs[0]!.content).toBe('new');
  });

  it("keeps a dirty tab's text and leaves it marked unsaved", () => {
    const ws = editTab(withFiles('a.ts'), 't0', 'mine');
    const { workspace, outcome } = applyRemoteContent(ws, 'a.ts', 'theirs');
    expect(outcome).toBe('kept-local');
    expect(workspace.tabs[0]!.content).toBe('mine');
    expect(isDirty(workspace.tabs[0]!)).toBe(true);
  });

  it('takes the echo of our own save in flight for what it is', () => {
    let ws = editTab(withFiles('a.ts'), 't0', 'saved text');
    ws = markSaving(ws, 't0', 'saved text');
    ws = editTab(ws, 't0', 'saved text, then more');
    expect(applyRemoteContent(ws, 'a.ts', 'saved text').outcome).toBe('unchanged');
  });

  it('ignores files that are not open', () => {
    expect(applyRemoteContent(withFiles('a.ts'), 'b.ts', 'x').outcome).toBe('not-open');
  });
});

describe('tree operations follow into the tabs', () => {
  it('renames the tabs of a moved folder', () => {
    const ws = renamePaths(withFiles('src/a.tsx', 'other.ts'), 'src', 'lib');
    expect(ws.tabs.map((t) => t.path)).toEqual(['lib/a.tsx', 'other.ts']);
  });

  it('closes the tabs of a deleted folder, even the last one', () => {
    expect(removePaths(withFiles('src/a.ts', 'src/b.ts'), 'src').tabs).toEqual([]);
    expect(removePaths(withFiles('src/a.ts', 'b.ts'), 'src').activeId).toBe('t1');
  });
});

describe('mayHaveFile', () => {
  const file = (path: string) => ({ name: path.split('/').at(-1)!, path, type: 'file' as const });
  const tree = [
    file('package.json'),
    {
      name: 'client',
      path: 'client',
      type: 'folder' as const,
      children: [
        { name: 'src', path: 'client/src', type: 'folder' as const, children: [file('client/src/App.tsx')] },
      ],
    },
    { name: 'server', path: 'server', type: 'folder' as const, folded: 'limit' as const },
  ];

  it('says no only when the tree shows every folder on the way and no such file', () => {
    expect(mayHaveFile(tree, 'package.json')).toBe(true);
    expect(mayHaveFile(tree, 'client/src/App.tsx')).toBe(true);
    expect(mayHaveFile(tree, 'client/src/index.css')).toBe(false);
    expect(mayHaveFile(tree, 'client')).toBe(false);
    expect(mayHaveFile(tree, 'lib/x.ts')).toBe(false);
    expect(mayHaveFile([], 'package.json')).toBe(false);
  });

  it('cannot tell inside a folder the tree did not list', () => {
    expect(mayHaveFile(tree, 'server/routes.ts')).toBe(true);
  });
});
