import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findInstallTrees, isInstalledNodeModules, type TreeEntry } from './install-trees.ts';

const entries = (...paths: string[]): TreeEntry[] => paths.map((p) => ({ segments: p.split('/') }));
const linkEntry = (p: string, target: string): TreeEntry => ({
  segments: p.split('/'),
  readLink: () => target,
});
const rootOf = (list: TreeEntry[], top: string | null, p: string): string | null =>
  findInstallTrees(list, top).rootOf(p.split('/'));

describe('which node_modules are installs', () => {
  it("the project's own, at the root or in the stripped top folder, whatever it holds", () => {
    const list = entries('node_modules/x/index.js', 'Node_Modules/y.js', 'app/node_modules/z/index.js');
    expect(rootOf(list, null, 'node_modules/x/index.js')).toBe('node_modules');
    expect(rootOf(list, null, 'Node_Modules/y.js')).toBe('Node_Modules');
    expect(
      rootOf(
        entries('app/node_modules/z/index.js', 'app/package.json'),
        'app',
        'app/node_modules/z/index.js',
      ),
    ).toBe('app/node_modules');
  });

  it.each([
    '.package-lock.json',
    '.modules.yaml',
    '.pnpm/react@19.0.0/node_modules/react/index.js',
    '.yarn-integrity',
    '.yarn-state.yml',
    '.bin/vite',
    '.cache/babel-loader/x.json',
    '.vite/deps/_metadata.json',
    '.forge-install-key',
  ])('one anywhere that holds %s', (marker) => {
    const list = entries(
      'package.json',
      `packages/ui/node_modules/${marker}`,
      'packages/ui/node_modules/dep/index.js',
    );
    expect(rootOf(list, null, 'packages/ui/node_modules/dep/index.js')).toBe('packages/ui/node_modules');
  });

  it("a workspace package's, whose links lead into the root's install", () => {
    const list = [
      ...entries('package.json', 'node_modules/.pnpm/react@19.0.0/node_modules/react/index.js'),
      linkEntry('apps/web/node_modules/react', '../../../node_modules/.pnpm/react@19.0.0/node_modules/react'),
      ...entries('apps/web/node_modules/local/index.js'),
    ];
    expect(rootOf(list, null, 'apps/web/node_modules/local/index.js')).toBe('apps/web/node_modules');
    expect(rootOf(list, null, 'apps/web/node_modules/react')).toBe('apps/web/node_modules');
  });

  it('keeps a committed fixture: plain folders with an index.js and a package.json', () => {
    const list = [
      ...entries(
        'package.json',
        'node_modules/.package-lock.json',
        'test/fixtures/app/package.json',
        'test/fixtures/app/node_modules/dep/package.json',
        'test/fixtures/app/node_modules/dep/index.js',
        'test/fixtures/app/node_modules/dep/node_modules/inner/index.js',
      ),
      linkEntry('test/fixtures/app/node_modules/alias', 'dep'),
    ];
    for (const p of [
      'test/fixtures/app/node_modules/dep/index.js',
      'test/fixtures/app/node_modules/dep/node_modules/inner/index.js',
      'test/fixtures/app/node_modules/alias',
    ]) {
      expect(rootOf(list, null, p), p).toBeNull();
    }
    expect(rootOf(list, null, 'test/fixtures/app/package.json')).toBeNull();
  });

  it('a fixture in a top folder that is not stripped (two top folders) is judged by what it holds', () => {
    const list = entries('a/node_modules/x/index.js', 'b/index.js');
    expect(rootOf(list, null, 'a/node_modules/x/index.js')).toBeNull();
  });

  it('reads a link only when it can tell something, and an unreadable one is no evidence', () => {
    let reads = 0;
    const list: TreeEntry[] = [
      ...entries('node_modules/.bin/x'),
      { segments: 'node_modules/.bin/vite'.split('/'), readLink: () => (++reads, '../vite/bin/vite.js') },
      { segments: 'pkg/node_modules/broken'.split('/'), readLink: () => (++reads, null) },
      ...entries('pkg/node_modules/kept/index.js'),
    ];
    expect(rootOf(list, null, 'pkg/node_modules/kept/index.js')).toBeNull();
    // The install's own links are never read.
    expect(reads).toBe(1);
  });
});

describe('installs on disk (what the source hash leaves out)', () => {
  it('the root, install and app folders’ node_modules, one with package-manager files or links; not a fixture', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'forge-installs-'));
    try {
      const put = async (rel: string) => {
        await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
        await writeFile(path.join(dir, rel), 'x');
      };
      await put('node_modules/a/index.js');
      await put('apps/web/node_modules/b/index.js');
      await put('packages/ui/node_modules/.bin/tool');
      await put('test/fixtures/app/node_modules/dep/index.js');
      await mkdir(path.join(dir, 'packages/lib/node_modules'), { recursive: true });
      await symlink('../../../node_modules/a', path.join(dir, 'packages/lib/node_modules/a'));
      const installed = (rel: string) => isInstalledNodeModules(dir, rel, ['.', 'apps/web']);
      expect(installed('node_modules')).toBe(true);
      expect(installed('apps/web/node_modules')).toBe(true);
      expect(installed('packages/ui/node_modules')).toBe(true);
      expect(installed('packages/lib/node_modules')).toBe(true);
      expect(installed('test/fixtures/app/node_modules')).toBe(false);
      expect(installed('test/fixtures/app/node_modules/dep')).toBe(false);
      expect(installed('src')).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
