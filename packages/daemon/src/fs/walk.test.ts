import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFiles, walk, walkFiles, walkLevels, type WalkEntry } from './walk.ts';

let root: string;
const write = (rel: string, content = rel) => {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
};

/** The build engine's synchronous `listFilesRel` (features/builds/fs-moves.ts), as the oracle. */
function listFilesRelSync(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const visit = (abs: string, rel: string) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (skip(r)) continue;
      if (e.isDirectory()) visit(path.join(abs, e.name), r);
      else if (e.isFile()) out.push(r);
    }
  };
  if (fs.existsSync(dir)) visit(dir, '');
  return out.sort();
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-walk-'));
  write('b.txt');
  write('a-b');
  write('a/z.txt');
  write('a/c/d.txt');
  write('B.txt');
  write('.env');
  write('node_modules/x/index.js');
  fs.mkdirSync(path.join(root, 'empty'));
  fs.symlinkSync('/', path.join(root, 'to-root'));
  fs.symlinkSync('.', path.join(root, 'loop'));
  fs.symlinkSync('b.txt', path.join(root, 'b-link'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const collect = async (iterable: AsyncIterable<WalkEntry>) => {
  const out: string[] = [];
  for await (const entry of iterable) out.push(`${entry.kind} ${entry.rel}`);
  return out;
};

describe('walk', () => {
  it('goes depth first in name order, reporting links without following them', async () => {
    expect(await collect(walk(root))).toEqual([
      'file .env',
      'file B.txt',
      'dir a',
      'dir a/c',
      'file a/c/d.txt',
      'file a/z.txt',
      'file a-b',
      'link b-link',
      'file b.txt',
      'dir empty',
      'link loop',
      'dir node_modules',
      'dir node_modules/x',
      'file node_modules/x/index.js',
      'link to-root',
    ]);
  });

  it('prunes excluded folders whole, and tells links and files from folders', async () => {
    const asked: string[] = [];
    const entries = await collect(
      walk(root, {
        exclude: (rel, isDir) => {
          asked.push(`${isDir ? 'd' : '-'} ${rel}`);
          return rel === 'node_modules' || rel.startsWith('.');
        },
      }),
    );
    expect(entries).not.toContain('dir node_modules');
    expect(entries.some((e) => e.includes('index.js'))).toBe(false);
    expect(entries).not.toContain('file .env');
    expect(asked).toContain('d node_modules');
    expect(asked).toContain('- loop');
    expect(asked).not.toContain('- node_modules/x/index.js');
  });

  it('stats files when asked, and stops at maxEntries saying so', async () => {
    const { files } = await walkFiles(root, { stat: true });
    const b = files.find((f) => f.rel === 'b.txt')!;
    expect(b.size).toBe(5);
    expect(b.mode! & 0o170000).toBe(0o100000);
    expect(b.mtimeMs).toBeGreaterThan(0);

    const cut = walk(root, { maxEntries: 3 });
    expect(await collect(cut)).toEqual(['file .env', 'file B.txt', 'dir a']);
    expect(cut.truncated).toBe(true);
    const whole = walk(root);
    await collect(whole);
    expect(whole.truncated).toBe(false);
  });

  it('reads a missing root or a file as empty', async () => {
    expect(await collect(walk(path.join(root, 'nope')))).toEqual([]);
    expect(await collect(walk(path.join(root, 'b.txt')))).toEqual([]);
  });
});

describe('walkFiles / listFiles', () => {
  it('walkFiles with stat: sizes in name order, excluded folders pruned, links not followed', async () => {
    const dir = path.join(root, 'sized');
    write('sized/b.txt', 'bb');
    write('sized/a/z.txt', 'z');
    write('sized/a/skip/x', 'x');
    write('sized/c.txt', '');
    fs.symlinkSync(root, path.join(dir, 'up'));
    const { files } = await walkFiles(dir, {
      stat: true,
      exclude: (rel, isDir) => isDir && rel === 'a/skip',
    });
    expect(files.map((f) => [f.rel, f.size])).toEqual([
      ['a/z.txt', 1],
      ['b.txt', 2],
      ['c.txt', 0],
    ]);
  });

  it('walkFiles gives files and links apart', async () => {
    const result = await walkFiles(root);
    expect(result.links.map((l) => l.rel)).toEqual(['b-link', 'loop', 'to-root']);
    expect(result.files.map((f) => f.rel)).toContain('a/c/d.txt');
    expect(result.files.every((f) => f.abs === path.join(root, f.rel))).toBe(true);
  });

  it('listFiles answers exactly what listFilesRel did: sorted as strings, links left out', async () => {
    const skip = (rel: string) => rel === 'node_modules' || rel.startsWith('.');
    expect(await listFiles(root, skip)).toEqual(listFilesRelSync(root, skip));
    expect(await listFiles(root)).toEqual(listFilesRelSync(root));
    // "a-b" sorts before "a/…" as a string, although the walk meets the folder "a" first.
    expect((await listFiles(root)).indexOf('a-b')).toBeLessThan((await listFiles(root)).indexOf('a/z.txt'));
    expect(await listFiles(path.join(root, 'nope'))).toEqual([]);
  });
});

describe('walkLevels', () => {
  it('lists level by level the folders entered, and drains the rest', async () => {
    const levels = walkLevels(root, 'root');
    const seen: string[] = [];
    for await (const level of levels) {
      seen.push(`${level.tag}: ${level.entries.map((e) => e.name).join(',')}`);
      for (const entry of level.entries) if (entry.kind === 'dir') levels.enter(entry, entry.rel);
      if (level.tag === 'a') {
        expect(levels.drain()).toEqual(['empty', 'node_modules', 'a/c']);
      }
    }
    expect(seen).toEqual([
      'root: .env,B.txt,a,a-b,b-link,b.txt,empty,loop,node_modules,to-root',
      'a: c,z.txt',
    ]);
  });
});
