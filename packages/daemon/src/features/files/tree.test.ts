import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileNode } from '@forge/shared';
import { readTree } from './tree.ts';

let root: string;
const write = (rel: string, content = '') => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
};
const names = (nodes: FileNode[]) => nodes.map((n) => n.name);
const find = (nodes: FileNode[], p: string): FileNode | undefined => {
  for (const n of nodes) {
    if (n.path === p) return n;
    const hit = n.children && find(n.children, p);
    if (hit) return hit;
  }
  return undefined;
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-tree-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('readTree', () => {
  it('lists folders first, then names ignoring case, with file sizes and project-relative paths', async () => {
    write('b.txt', '12345');
    write('A.md', 'x');
    write('src/z.ts');
    write('lib/index.ts', 'export {}');
    const { tree, truncated } = await readTree(root);
    expect(truncated).toBe(false);
    expect(names(tree)).toEqual(['lib', 'src', 'A.md', 'b.txt']);
    expect(find(tree, 'b.txt')).toEqual({ name: 'b.txt', path: 'b.txt', type: 'file', size: 5 });
    expect(find(tree, 'lib/index.ts')).toMatchObject({ path: 'lib/index.ts', size: 9 });
  });

  it('folds node_modules and .git at any depth and the given output folder, listing nothing inside', async () => {
    write('node_modules/react/index.js');
    write('packages/app/node_modules/x/y.js');
    write('.git/HEAD');
    write('dist/index.html');
    write('src/dist/keep.ts');
    const { tree } = await readTree(root, { folded: new Set(['dist']) });
    for (const p of ['node_modules', 'packages/app/node_modules', '.git', 'dist']) {
      expect(find(tree, p)).toMatchObject({ type: 'folder', children: [], folded: 'ignored' });
    }
    // Only the output folder at its own path is folded, not every folder with that name.
    expect(find(tree, 'src/dist/keep.ts')).toBeDefined();
  });

  it('lists links without following them into folders', async () => {
    write('src/a.ts', 'abc');
    fs.symlinkSync(os.tmpdir(), path.join(root, 'tmp-link'));
    fs.symlinkSync('src/a.ts', path.join(root, 'a-link.ts'));
    const { tree } = await readTree(root);
    expect(find(tree, 'tmp-link')).toMatchObject({ type: 'folder', children: [], folded: 'ignored' });
    expect(find(tree, 'a-link.ts')).toMatchObject({ type: 'file', size: 3 });
  });

  it('shows a link loop and a dangling link as empty files instead of failing', async () => {
    write('src/a.ts', 'abc');
    fs.symlinkSync('loop', path.join(root, 'loop'));
    fs.symlinkSync('missing', path.join(root, 'dangling'));
    const { tree } = await readTree(root);
    expect(find(tree, 'loop')).toEqual({ name: 'loop', path: 'loop', type: 'file', size: 0 });
    expect(find(tree, 'dangling')).toEqual({ name: 'dangling', path: 'dangling', type: 'file', size: 0 });
    expect(find(tree, 'src/a.ts')).toMatchObject({ size: 3 });
  });

  it('answers an empty tree for a missing root', async () => {
    expect(await readTree(path.join(root, 'gone'))).toEqual({ tree: [], truncated: false, nodes: 0 });
  });

  it('stops at the node cap, keeping upper levels whole and marking what was cut', async () => {
    for (let i = 0; i < 5; i++) write(`top${i}.txt`);
    for (let i = 0; i < 20; i++) write(`big/f${i}.txt`);
    write('small/one.txt');
    const { tree, truncated, nodes } = await readTree(root, { maxNodes: 10 });
    expect(truncated).toBe(true);
    expect(nodes).toBeLessThanOrEqual(10);
    expect(names(tree)).toEqual(['big', 'small', 'top0.txt', 'top1.txt', 'top2.txt', 'top3.txt', 'top4.txt']);
    expect(find(tree, 'big')).toMatchObject({ folded: 'limit', children: [] });
    expect(find(tree, 'small')).toMatchObject({ folded: 'limit' });
  });
});

describe('readTree at the cap', () => {
  it('cuts the top level itself in name order when it alone is over the cap', async () => {
    for (let i = 0; i < 6; i++) write(`f${i}.txt`);
    write('sub/x.txt');
    const { tree, truncated, nodes } = await readTree(root, { maxNodes: 4 });
    expect(truncated).toBe(true);
    expect(nodes).toBe(4);
    expect(names(tree)).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt']);
  });

  it('folds every folder still waiting once a deeper one is over the cap', async () => {
    write('a/1.txt');
    write('a/deep/1.txt');
    write('b/1.txt');
    write('b/2.txt');
    write('b/3.txt');
    write('c/1.txt');
    const { tree, truncated } = await readTree(root, { maxNodes: 6 });
    expect(truncated).toBe(true);
    expect(find(tree, 'a/1.txt')).toBeDefined();
    expect(find(tree, 'b')).toMatchObject({ folded: 'limit', children: [] });
    expect(find(tree, 'c')).toMatchObject({ folded: 'limit', children: [] });
    expect(find(tree, 'a/deep')).toMatchObject({ folded: 'limit', children: [] });
  });
});
