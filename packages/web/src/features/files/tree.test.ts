import { describe, expect, it } from 'vitest';
import type { FileNode } from '@forge/shared';
import {
  changedFilePaths,
  findNode,
  movedPath,
  nameProblem,
  sortTree,
  treeIndentPx,
  visibleRows,
} from './tree.ts';

const file = (path: string, size = 1): FileNode => ({
  name: path.slice(path.lastIndexOf('/') + 1),
  path,
  type: 'file',
  size,
});
const folder = (path: string, children: FileNode[]): FileNode => ({
  name: path.slice(path.lastIndexOf('/') + 1),
  path,
  type: 'folder',
  children,
});

describe('tree indent (docs/product.md#constants: 12 px per level, capped at 48 px)', () => {
  it('grows 12 px a level and stops at 48 px', () => {
    expect([0, 1, 2, 3, 4, 5].map(treeIndentPx)).toEqual([0, 12, 24, 36, 48, 48]);
    expect(treeIndentPx(12)).toBe(48);
  });
});

describe('names (docs/product.md#validation: creating needs a non-blank name)', () => {
  it('refuses blank and whitespace-only names', () => {
    expect(nameProblem('')).not.toBeNull();
    expect(nameProblem('   ')).not.toBeNull();
    expect(nameProblem('index.ts')).toBeNull();
  });

  it('keeps a name inside its folder; a path is accepted only where one is asked for', () => {
    expect(nameProblem('src/a.ts')).not.toBeNull();
    expect(nameProblem('src/a.ts', { allowFolders: true })).toBeNull();
    expect(nameProblem('..', { allowFolders: true })).not.toBeNull();
    expect(nameProblem('src/../../etc', { allowFolders: true })).not.toBeNull();
    expect(nameProblem('/etc/passwd', { allowFolders: true })).not.toBeNull();
    expect(nameProblem('a\\b')).not.toBeNull();
  });
});

describe('tree shape', () => {
  const tree = [
    file('package.json'),
    folder('server', [file('server/routes.ts')]),
    folder('client', [folder('client/src', [file('client/src/file10.ts'), file('client/src/file2.ts')])]),
  ];

  it('lists folders first, then names in natural order', () => {
    const sorted = sortTree(tree);
    expect(sorted.map((n) => n.name)).toEqual(['client', 'server', 'package.json']);
    expect(sorted[0]!.children![0]!.children!.map((n) => n.name)).toEqual(['file2.ts', 'file10.ts']);
  });

  it('shows the children of expanded folders only, each one level deeper', () => {
    const rows = visibleRows(sortTree(tree), new Set(['client', 'client/src']));
    expect(rows.map((r) => [r.node.path, r.depth])).toEqual([
      ['client', 0],
      ['client/src', 1],
      ['client/src/file2.ts', 2],
      ['client/src/file10.ts', 2],
      ['server', 0],
      ['package.json', 0],
    ]);
    expect(visibleRows(tree, new Set(['client/src'])).map((r) => r.node.path)).toEqual([
      'package.json',
      'server',
      'client',
    ]);
  });

  it('finds a node by path', () => {
    expect(findNode(tree, 'client/src/file2.ts')?.name).toBe('file2.ts');
    expect(findNode(tree, 'client/nope.ts')).toBeUndefined();
  });

  it('names the files that a new tree adds or resizes, and none for a first tree', () => {
    const next = [
      file('package.json', 5),
      folder('server', [file('server/routes.ts'), file('server/new.ts')]),
    ];
    expect(changedFilePaths(tree, next).sort()).toEqual(['package.json', 'server/new.ts']);
    expect(changedFilePaths(undefined, next)).toEqual([]);
  });

  it('moves paths inside a renamed folder, and only those', () => {
    expect(movedPath('client/src/a.ts', 'client/src', 'client/lib')).toBe('client/lib/a.ts');
    expect(movedPath('client/src', 'client/src', 'client/lib')).toBe('client/lib');
    expect(movedPath('client/srcs/a.ts', 'client/src', 'client/lib')).toBe('client/srcs/a.ts');
  });
});
