import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashTree, TreeHasher, type WrittenTree } from './tree-hash.ts';

/**
 * The synchronous hash CacheBot used before (features/builds/tree-hash.ts), kept here verbatim as the
 * oracle: cache keys computed by it must stay valid.
 */
function hashTreeSync(root: string, skip: (rel: string, isDir: boolean) => boolean): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string, rel: string) => {
    const entries = fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const full = path.join(dir, entry.name);
      if (skip(childRel, entry.isDirectory())) continue;
      if (entry.isDirectory()) {
        hash.update(`d ${childRel}\n`);
        walk(full, childRel);
      } else if (entry.isSymbolicLink()) {
        hash.update(`l ${childRel} ${fs.readlinkSync(full)}\n`);
      } else if (entry.isFile()) {
        const data = fs.readFileSync(full);
        const exec = (fs.statSync(full).mode & 0o111) !== 0 ? 'x' : '-';
        hash.update(`f ${childRel} ${exec} ${data.length}\n`);
        hash.update(data);
      }
    }
  };
  walk(root, '');
  return hash.digest('hex');
}

let root: string;
const write = (rel: string, content: string | Buffer = rel, mode = 0o644) => {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  fs.chmodSync(abs, mode);
};
const skipInstalls = (rel: string) =>
  rel === 'node_modules' || rel.endsWith('/node_modules') || rel === '.git' || rel === 'dist';

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-hash-'));
  write('package.json', '{"name":"app"}');
  write('src/main.ts', 'export {}\n');
  write('src/ünïcode file.ts', 'héllo');
  write('a-b', 'sorted before a/ as a string, after it as a folder walk');
  write('a/b.txt');
  write('bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
  write('bin/tool', 'x', 0o700);
  write('empty.txt', '');
  write('big.bin', crypto.randomBytes(2 * 1024 * 1024 + 17));
  write('node_modules/react/index.js');
  write('packages/x/node_modules/y.js');
  write('.git/HEAD');
  write('dist/out.js');
  fs.mkdirSync(path.join(root, 'empty-dir'));
  fs.symlinkSync('src/main.ts', path.join(root, 'main-link.ts'));
  fs.symlinkSync('/etc', path.join(root, 'etc-link'));
  fs.symlinkSync('missing', path.join(root, 'dangling'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('hashTree', () => {
  it('gives exactly the digest of the synchronous hash, with files, folders, links and exec bits', async () => {
    expect(await hashTree(root, skipInstalls)).toBe(hashTreeSync(root, skipInstalls));
    const none = () => false;
    expect(await hashTree(root, none)).toBe(hashTreeSync(root, none));
  });

  it('changes with a byte, an exec bit, a link target or a new empty folder; not with skipped paths', async () => {
    const before = await hashTree(root, skipInstalls);
    write('node_modules/react/index.js', 'changed');
    write('dist/out.js', 'changed');
    expect(await hashTree(root, skipInstalls)).toBe(before);

    const changes: Array<() => void> = [
      () => write('src/main.ts', 'export {};\n'),
      () => fs.chmodSync(path.join(root, 'src/main.ts'), 0o755),
      () => {
        fs.unlinkSync(path.join(root, 'main-link.ts'));
        fs.symlinkSync('src/ünïcode file.ts', path.join(root, 'main-link.ts'));
      },
      () => fs.mkdirSync(path.join(root, 'src', 'new-empty')),
    ];
    let last = before;
    for (const change of changes) {
      change();
      const next = await hashTree(root, skipInstalls);
      expect(next).not.toBe(last);
      expect(next).toBe(hashTreeSync(root, skipInstalls));
      last = next;
    }
  });

  it('lets the event loop run while it hashes', async () => {
    for (let i = 0; i < 300; i++) write(`many/f${i}.txt`, 'x'.repeat(2000));
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    const hashing = hashTree(root, skipInstalls);
    await hashing.finally(() => (running = false));
    // No timing asserted: only that the work was not one synchronous block (the 2 MiB file alone is
    // read asynchronously, so the loop turns several times while it is read; a blocking hash
    // lets it turn once, for the first stat).
    expect(turns).toBeGreaterThan(2);
  });

  it('throws for a missing root or a file, like the synchronous hash', async () => {
    await expect(hashTree(path.join(root, 'nope'), skipInstalls)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(hashTree(path.join(root, 'package.json'), skipInstalls)).rejects.toMatchObject({
      code: 'ENOTDIR',
    });
  });
});

describe('hashTree with the digest of the tree as written', () => {
  /** What a writer that wrote `files` (in walk order) would hand over. */
  function writtenTree(digest: string, files: string[], dirs: string[]): WrittenTree {
    return { digest, files, dirs };
  }

  it('answers with the written digest when the skip leaves out nothing of it, without reading', async () => {
    const tree = writtenTree('d'.repeat(64), ['package.json', 'src/main.ts'], ['src']);
    // The digest given wins over what is on disk: reading the tree back is what it spares.
    expect(await hashTree(root, skipInstalls, tree)).toBe('d'.repeat(64));
  });

  it('reads the tree when the skip leaves out part of what was written (an output folder, .git)', async () => {
    const tree = writtenTree('d'.repeat(64), ['package.json', 'dist/out.js'], ['dist']);
    expect(await hashTree(root, skipInstalls, tree)).toBe(hashTreeSync(root, skipInstalls));
    const gitTree = writtenTree('d'.repeat(64), ['.git/HEAD'], ['.git']);
    expect(await hashTree(root, skipInstalls, gitTree)).toBe(hashTreeSync(root, skipInstalls));
  });

  it('still throws for a missing root', async () => {
    const tree = writtenTree('d'.repeat(64), ['a'], []);
    await expect(hashTree(path.join(root, 'nope'), skipInstalls, tree)).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('TreeHasher fed in walk order gives the digest hashTree reads back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-hash-fed-'));
    try {
      fs.mkdirSync(path.join(dir, 'a'));
      fs.writeFileSync(path.join(dir, 'a', 'b.txt'), 'b');
      fs.writeFileSync(path.join(dir, 'a-b'), 'ab');
      fs.writeFileSync(path.join(dir, 'run.sh'), '#!/bin/sh\n');
      fs.chmodSync(path.join(dir, 'run.sh'), 0o755);
      const fed = new TreeHasher();
      // Walk order: each folder's entries by name ("a" < "a-b"), a folder before its content.
      fed.dir('a');
      fed.file('a/b.txt', false, 1);
      fed.bytes(Buffer.from('b'));
      fed.file('a-b', false, 2);
      fed.bytes(Buffer.from('ab'));
      fed.file('run.sh', true, 10);
      fed.bytes(Buffer.from('#!/bin/sh\n'));
      expect(fed.digest()).toBe(await hashTree(dir, () => false));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
