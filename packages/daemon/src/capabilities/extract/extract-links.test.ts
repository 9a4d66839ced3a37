import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgeZip, S_IFLNK, type ForgedEntry } from '@forge/testing';
import { hashTree } from '../../fs/tree-hash.ts';
import { extractArchive, settleBackgroundRemovals, type ExtractResult } from './extract-archive.ts';
import { MAX_LINK_HOPS } from './links.ts';
import {
  createSandbox,
  snapshotTree,
  strayTempEntries,
  type Sandbox,
} from '../../../test/support/extract-sandbox.ts';

/**
 * Symbolic links in uploads (links.ts): the ones that lead to a file or folder of the project are
 * written as links; every other one is left out on its own, with its reason, and the rest of the
 * archive is extracted. Hostile archives try to write through a link, or to leave the project
 * through one; each defence has a case here that fails without it.
 */

let sb: Sandbox;
let straysBefore: string[];

beforeEach(async () => {
  straysBefore = strayTempEntries();
  sb = await createSandbox();
});
afterEach(async () => {
  await settleBackgroundRemovals();
  expect(strayTempEntries()).toEqual(straysBefore);
  sb.cleanup();
});

const file = (name: string, data: string | Buffer = `content of ${name}\n`): ForgedEntry => ({ name, data });
const link = (name: string, target: string | Buffer): ForgedEntry => ({
  name,
  data: target,
  unixMode: S_IFLNK | 0o777,
});

/** Extracts the archive, hashing as it writes, and checks nothing landed outside the project. */
async function extract(entries: ForgedEntry[]): Promise<ExtractResult> {
  const zipPath = sb.zip('upload.zip', forgeZip(entries));
  const outside = snapshotTree(sb.root).filter((line) => !line.startsWith('data/'));
  const result = await extractArchive(zipPath, {
    targetDir: sb.targetDir,
    workDir: sb.workDir,
    hash: true,
  });
  await settleBackgroundRemovals();
  // Nothing anywhere in the sandbox but the project (and the archive that was there before).
  expect(snapshotTree(sb.root).filter((line) => !line.startsWith('data/'))).toEqual(outside);
  expect(readdirSync(sb.workDir)).toEqual([]);
  expect(readdirSync(path.dirname(sb.targetDir))).toEqual(['app']);
  // Every link written resolves, on disk, to something inside the project that does not hold it.
  const root = realpathSync(sb.targetDir);
  for (const kept of result.links) {
    const real = realpathSync(path.join(sb.targetDir, kept.path));
    expect(real.startsWith(root + path.sep), `${kept.path} -> ${real}`).toBe(true);
    expect(path.join(root, kept.path).startsWith(real + path.sep), `${kept.path} holds itself`).toBe(false);
  }
  // The digest made while writing is the one CacheBot reads back.
  expect(result.tree?.digest).toBe(await hashTree(sb.targetDir, () => false));
  return result;
}

const at = (rel: string): string => path.join(sb.targetDir, rel);
const isLink = (rel: string): boolean =>
  lstatSync(at(rel), { throwIfNoEntry: false })?.isSymbolicLink() === true;
const exists = (rel: string): boolean => lstatSync(at(rel), { throwIfNoEntry: false }) !== undefined;
const reasonOf = (result: ExtractResult, p: string): string | undefined =>
  result.droppedLinks.find((d) => d.path === p)?.reason;

describe('links that stay inside the project are kept as links', () => {
  it('keeps CLAUDE.md -> AGENTS.md (git archive writes it so) as a link that reads the same text', async () => {
    const result = await extract([
      file('repo/AGENTS.md', '# Rules for agents\n'),
      link('repo/CLAUDE.md', 'AGENTS.md'),
      file('repo/package.json', '{}\n'),
    ]);
    expect(result.strippedPrefix).toBe('repo');
    expect(result.links).toEqual([{ path: 'CLAUDE.md', target: 'AGENTS.md' }]);
    expect(result.droppedLinks).toEqual([]);
    expect(isLink('CLAUDE.md')).toBe(true);
    expect(readlinkSync(at('CLAUDE.md'))).toBe('AGENTS.md');
    expect(readFileSync(at('CLAUDE.md'), 'utf8')).toBe('# Rules for agents\n');
    // Files lists regular files; the link is reported with the links.
    expect(result.files).toEqual(['AGENTS.md', 'package.json']);
    expect(result.tree?.links).toEqual(['CLAUDE.md']);
  });

  it('keeps a link to a folder, a link in a subfolder that climbs with "..", and a chain of links', async () => {
    const result = await extract([
      file('packages/shared/index.js', 'export const shared = 1;\n'),
      link('apps/web/shared', '../../packages/shared'),
      file('README.md', '# demo\n'),
      link('docs/readme.md', '../README.md'),
      link('docs/latest.md', 'readme.md'),
      link('docs/via-folder.js', '../apps/web/shared/index.js'),
    ]);
    expect(result.droppedLinks).toEqual([]);
    expect(result.links.map((l) => l.path)).toEqual([
      'apps/web/shared',
      'docs/latest.md',
      'docs/readme.md',
      'docs/via-folder.js',
    ]);
    expect(readdirSync(at('apps/web/shared'))).toEqual(['index.js']);
    expect(readFileSync(at('docs/latest.md'), 'utf8')).toBe('# demo\n');
    expect(readFileSync(at('docs/via-folder.js'), 'utf8')).toContain('shared = 1');
  });

  it('keeps a link inside a node_modules that is a committed fixture, not an install', async () => {
    const result = await extract([
      file('package.json', '{}\n'),
      file('test/fixtures/app/node_modules/dep/package.json', '{ "name": "dep", "main": "index.js" }\n'),
      file('test/fixtures/app/node_modules/dep/index.js', 'module.exports = 42;\n'),
      link('test/fixtures/app/node_modules/alias', 'dep'),
    ]);
    expect(result.dropped).toEqual([]);
    expect(result.links).toEqual([{ path: 'test/fixtures/app/node_modules/alias', target: 'dep' }]);
  });
});

describe('links left out one by one, the rest extracted', () => {
  it.each([
    ['an absolute target', '/etc/passwd', 'absolute path'],
    ['a drive path', 'C:/Windows/win.ini', 'drive path'],
    ['a backslash', '..\\..\\secret', 'backslash'],
    ['a backslash inside the project', 'docs\\a.md', 'backslash'],
    ['a NUL', 'AGENTS.md\u0000/etc/passwd', 'NUL or control'],
    ['a newline', 'AGENTS.md\n', 'NUL or control'],
    ['an empty target', '', 'empty'],
    ['a target longer than any path', `${'a/'.repeat(600)}AGENTS.md`, 'longer than 1024 bytes'],
    ['a name longer than any file system takes', `${'x'.repeat(300)}.md`, 'longer than 255 bytes'],
    ['a target over PATH_MAX', 'a'.repeat(5000), 'longer than 4096 bytes'],
    ['a climb out of the project', '../../../../outside', 'leads out of the project'],
    ['a climb out that comes back by name', '../app/AGENTS.md', 'leads out of the project'],
    ['a dangling target', 'MISSING.md', 'dangling'],
    ['a target differing in case only', 'agents.md', 'in case only'],
    ['a path through a file', 'AGENTS.md/x', 'which is a file'],
    ['the project root', '.', 'a folder that holds it'],
  ])('%s', async (_label, target, reason) => {
    const result = await extract([file('AGENTS.md', '# agents\n'), link('CLAUDE.md', target)]);
    expect(result.links).toEqual([]);
    expect(result.droppedLinks).toHaveLength(1);
    expect(result.droppedLinks[0]?.path).toBe('CLAUDE.md');
    expect(result.droppedLinks[0]?.reason).toContain(reason);
    // Shown in the log and the record: printable, whatever the archive held.
    // eslint-disable-next-line no-control-regex
    expect(JSON.stringify(result.droppedLinks[0])).not.toMatch(/[\u0000-\u001f]/);
    expect(exists('CLAUDE.md')).toBe(false);
    expect(readFileSync(at('AGENTS.md'), 'utf8')).toBe('# agents\n');
  });

  it('leaves out a target that is not UTF-8', async () => {
    const result = await extract([file('a.md'), link('b.md', Buffer.from([0x61, 0xff, 0xfe]))]);
    expect(reasonOf(result, 'b.md')).toContain('not UTF-8');
  });

  it('leaves out a link into what extraction drops: an install, .git, __MACOSX', async () => {
    const result = await extract([
      file('index.js'),
      file('node_modules/.package-lock.json', '{}\n'),
      file('node_modules/dep/index.js'),
      file('.git/HEAD', 'ref: refs/heads/main\n'),
      link('dep.js', 'node_modules/dep/index.js'),
      link('head', '.git/HEAD'),
    ]);
    expect(result.dropped).toEqual(['.git/', 'node_modules/']);
    expect(reasonOf(result, 'dep.js')).toContain('dangling');
    expect(reasonOf(result, 'head')).toContain('dangling');
  });

  it('leaves out loops: a link to itself, two links to each other, a link to the folder that holds it', async () => {
    const result = await extract([
      file('index.html'),
      link('self', 'self'),
      link('ping', 'pong'),
      link('pong', 'ping'),
      link('docs/up', '..'),
      link('docs/here', '.'),
      link('docs/deeper/root', '../..'),
    ]);
    expect(result.links).toEqual([]);
    for (const p of ['self', 'ping', 'pong', 'docs/up', 'docs/here', 'docs/deeper/root']) {
      expect(reasonOf(result, p), p).toMatch(/^it loops/);
    }
    // Its folders are still written: other links may lead there.
    expect(exists('docs/deeper')).toBe(true);
  });

  it(`leaves out a chain longer than the kernel follows (${MAX_LINK_HOPS} links), keeping a shorter one`, async () => {
    const chain = (prefix: string, length: number): ForgedEntry[] =>
      Array.from({ length }, (_, i) =>
        link(`${prefix}${i}`, i === length - 1 ? 'target.txt' : `${prefix}${i + 1}`),
      );
    const result = await extract([file('target.txt', 'end\n'), ...chain('long', 45), ...chain('short', 10)]);
    for (let i = 0; i <= 4; i++) expect(reasonOf(result, `long${i}`)).toMatch(/more than 40 links/);
    // 40 links in all, itself included, is what the kernel follows: the tail is kept.
    expect(readFileSync(at('long5'), 'utf8')).toBe('end\n');
    expect(readFileSync(at('short0'), 'utf8')).toBe('end\n');
  });

  it('leaves out a link to a link that leaves, and a link through it', async () => {
    const result = await extract([
      file('index.html'),
      link('a', 'b'),
      link('b', '../../outside'),
      link('c', 'b/x'),
    ]);
    expect(reasonOf(result, 'b')).toContain('leads out of the project');
    expect(reasonOf(result, 'a')).toContain('through "b", a link that is left out');
    expect(reasonOf(result, 'c')).toContain('through "b"');
  });

  it('follows a kept link where it really leads: ".." after it climbs from its target, not from its name', async () => {
    // Read as text "l/../../.." from a/b/c stays in a/; followed, l is z at the root, so it leaves.
    const result = await extract([
      file('z/index.html'),
      file('a/b/c/keep.txt'),
      link('a/b/c/l', '../../../z'),
      link('a/b/c/x', 'l/../../..'),
    ]);
    expect(result.links).toEqual([{ path: 'a/b/c/l', target: '../../../z' }]);
    expect(reasonOf(result, 'a/b/c/x')).toContain('leads out of the project');
  });

  it('leaves out a link that only the links lead back inside, read as text (tools normalise before they follow)', async () => {
    // Followed, "l/../.." from the root is a/ (l is a/b/c); read as text it is "..".
    const result = await extract([file('a/b/c/f.txt'), link('l', 'a/b/c'), link('x', 'l/../..')]);
    expect(result.links.map((l) => l.path)).toEqual(['l']);
    expect(reasonOf(result, 'x')).toContain('leads out of the project');
  });
});

describe('nothing is written through a link', () => {
  it('a/ -> outside, then a/passwd: the link is left out and a/passwd is a file of the project', async () => {
    const result = await extract([
      file('index.html'),
      link('a/', '../../../../outside'),
      file('a/passwd', 'root::0:0\n'),
    ]);
    expect(reasonOf(result, 'a')).toBeDefined();
    expect(isLink('a')).toBe(false);
    expect(readFileSync(at('a/passwd'), 'utf8')).toBe('root::0:0\n');
  });

  it('a -> .., then a/x: the link is left out, a/x is written in a real folder', async () => {
    const result = await extract([file('index.html'), link('a', '..'), file('a/x', 'x\n')]);
    expect(result.links).toEqual([]);
    expect(lstatSync(at('a')).isDirectory()).toBe(true);
    expect(readFileSync(at('a/x'), 'utf8')).toBe('x\n');
  });

  it('sub/a -> .. (inside), then sub/a/x: a folder of files cannot be a link', async () => {
    const result = await extract([file('index.html'), link('sub/a', '..'), file('sub/a/x', 'x\n')]);
    expect(reasonOf(result, 'sub/a')).toContain('entries inside');
    expect(readFileSync(at('sub/a/x'), 'utf8')).toBe('x\n');
  });

  it('a link, then a link under it: the second is left out, the first kept', async () => {
    const result = await extract([file('docs/a.md'), link('d', 'docs'), link('d/evil', '../../../etc')]);
    expect(result.links).toEqual([{ path: 'd', target: 'docs' }]);
    expect(reasonOf(result, 'd/evil')).toContain('is a link: nothing is written through a link');
    expect(readdirSync(at('docs'))).toEqual(['a.md']);
  });

  it('a link replacing a file, in either order: the file is kept and the link left out', async () => {
    const result = await extract([
      file('first.txt', 'the file\n'),
      link('first.txt', 'second.txt'),
      link('second.txt', 'first.txt'),
      file('second.txt', 'the other file\n'),
    ]);
    expect(readFileSync(at('first.txt'), 'utf8')).toBe('the file\n');
    expect(readFileSync(at('second.txt'), 'utf8')).toBe('the other file\n');
    expect(isLink('first.txt') || isLink('second.txt')).toBe(false);
    expect(reasonOf(result, 'first.txt')).toContain('same name');
    expect(reasonOf(result, 'second.txt')).toContain('same name');
  });

  it('two links on one path (or one spelt in another case): the first is kept', async () => {
    const result = await extract([file('a.md'), file('b.md'), link('l', 'a.md'), link('L', 'b.md')]);
    expect(result.links).toEqual([{ path: 'l', target: 'a.md' }]);
    expect(reasonOf(result, 'L')).toContain('same name');
  });
});

describe("links: 'refuse' (extensions take no link)", () => {
  it('refuses the archive at a link, even one that stays inside, and writes nothing', async () => {
    const zipPath = sb.zip('ext.zip', forgeZip([file('index.html'), link('alias.html', 'index.html')]));
    await expect(
      extractArchive(zipPath, { targetDir: sb.targetDir, workDir: sb.workDir, links: 'refuse' }),
    ).rejects.toMatchObject({ code: 'ARCHIVE_SYMLINK', entry: 'alias.html' });
    expect(exists('.')).toBe(false);
  });
});
