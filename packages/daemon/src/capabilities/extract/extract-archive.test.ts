import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { spawn } from 'node:child_process';
import { hashTree } from '../../fs/tree-hash.ts';
import { ArchiveRefusedError } from './archive-refused-error.ts';
import {
  extractArchive,
  inspectArchive,
  settleBackgroundRemovals,
  sweepExtractLeftovers,
  type ExtractOptions,
  type ExtractResult,
} from './extract-archive.ts';
import { extractThreadsStarted } from './thread-pool.ts';
import {
  DEFAULT_EXTRACT_LIMITS,
  MAX_ARCHIVE_ENTRIES,
  MAX_ARCHIVE_RATIO,
  MAX_ARCHIVE_TOTAL_BYTES,
} from './limits.ts';
import {
  createSandbox,
  seedProject,
  snapshotTree,
  strayTempEntries,
  type Sandbox,
} from '../../../test/support/extract-sandbox.ts';
import type { WriteProgress } from './write-files.ts';
import { forgeZip, S_IFDIR, S_IFLNK, S_IFREG, zeroBomb, type ForgedEntry } from '@forge/testing';

const MiB = 1024 * 1024;
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

function extract(
  archive: Buffer | ForgedEntry[],
  extra: Partial<ExtractOptions> = {},
): Promise<ExtractResult> {
  const zipPath = sb.zip('upload.zip', Buffer.isBuffer(archive) ? archive : forgeZip(archive));
  return extractArchive(zipPath, { targetDir: sb.targetDir, workDir: sb.workDir, ...extra });
}

const read = (rel: string): string => readFileSync(path.join(sb.targetDir, rel), 'utf8');
const modeOf = (rel: string): number => statSync(path.join(sb.targetDir, rel)).mode & 0o7777;
/** Everything under targetDir, folders with a trailing slash, without modes or hashes. */
const tree = (): string[] => snapshotTree(sb.targetDir).map((line) => line.split(' ')[0] as string);

describe('named limits', () => {
  it('default to 10,000 entries, 500 MB and 100:1 above 1 MiB', () => {
    expect(DEFAULT_EXTRACT_LIMITS).toEqual({
      maxEntries: MAX_ARCHIVE_ENTRIES,
      maxTotalBytes: MAX_ARCHIVE_TOTAL_BYTES,
      maxRatio: MAX_ARCHIVE_RATIO,
      ratioMinBytes: MiB,
    });
    expect([MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_TOTAL_BYTES, MAX_ARCHIVE_RATIO]).toEqual([
      10_000,
      500 * MiB,
      100,
    ]);
  });

  it('rejects a nonsensical override as a programming error', async () => {
    await expect(extract([file('a.txt')], { limits: { maxEntries: 0 } })).rejects.toThrow(TypeError);
  });
});

describe('a project archive', () => {
  it('writes nested folders with their exact bytes and reports what it wrote', async () => {
    const binary = randomBytes(3000);
    const result = await extract([
      file('package.json', '{ "name": "demo" }\n'),
      file('src/index.ts', 'export const x = 1;\n'),
      file('src/components/ui/Button.tsx', 'export {}\n'),
      { name: 'public/logo.bin', data: binary, method: 0 },
      { name: 'public/empty.txt', data: '' },
    ]);
    expect(result).toEqual({
      files: [
        'package.json',
        'public/empty.txt',
        'public/logo.bin',
        'src/components/ui/Button.tsx',
        'src/index.ts',
      ],
      fileCount: 5,
      totalBytes: 19 + 20 + 10 + 3000,
      strippedPrefix: null,
      dropped: [],
      links: [],
      droppedLinks: [],
      tree: null,
    });
    expect(read('src/components/ui/Button.tsx')).toBe('export {}\n');
    expect(readFileSync(path.join(sb.targetDir, 'public/logo.bin')).equals(binary)).toBe(true);
    expect(read('public/empty.txt')).toBe('');
    expect(tree()).toEqual([
      'package.json',
      'public/',
      'public/empty.txt',
      'public/logo.bin',
      'src/',
      'src/components/',
      'src/components/ui/',
      'src/components/ui/Button.tsx',
      'src/index.ts',
    ]);
  });

  it('strips a single top-level folder, with or without its own folder entry', async () => {
    const withEntry = await extract([
      { name: 'my-app/' },
      file('my-app/package.json'),
      file('my-app/src/main.js'),
    ]);
    expect(withEntry.strippedPrefix).toBe('my-app');
    expect(withEntry.files).toEqual(['package.json', 'src/main.js']);
    expect(tree()).toEqual(['package.json', 'src/', 'src/main.js']);

    const without = await extract([file('other/index.html'), file('other/css/site.css')]);
    expect(without.strippedPrefix).toBe('other');
    expect(tree()).toEqual(['css/', 'css/site.css', 'index.html']);
  });

  it('strips only one level', async () => {
    const result = await extract([file('outer/inner/index.html')]);
    expect(result.strippedPrefix).toBe('outer');
    expect(result.files).toEqual(['inner/index.html']);
  });

  it('keeps two top-level folders as they are', async () => {
    const result = await extract([file('client/index.html'), file('server/index.js')]);
    expect(result.strippedPrefix).toBeNull();
    expect(result.files).toEqual(['client/index.html', 'server/index.js']);
  });

  it('keeps a top-level folder that has a file beside it', async () => {
    const result = await extract([file('src/index.js'), file('package.json')]);
    expect(result.strippedPrefix).toBeNull();
    expect(tree()).toEqual(['package.json', 'src/', 'src/index.js']);
  });

  it('does not strip the folder of a single-file archive', async () => {
    const result = await extract([file('index.html')]);
    expect(result).toMatchObject({ strippedPrefix: null, files: ['index.html'] });
  });

  it('creates empty folders', async () => {
    await extract([file('app/index.html'), { name: 'app/uploads/' }, { name: 'app/logs/tmp/' }]);
    expect(tree()).toEqual(['index.html', 'logs/', 'logs/tmp/', 'uploads/']);
  });

  it('treats an entry marked as a folder (Unix mode or DOS attribute) as one, even without a trailing slash', async () => {
    await extract([
      file('index.html'),
      { name: 'cache', unixMode: S_IFDIR | 0o755 },
      { name: 'dist', dosAttr: 0x10, unixMode: 0 },
    ]);
    expect(tree()).toEqual(['cache/', 'dist/', 'index.html']);
  });

  it('drops __MACOSX, .DS_Store, .git and installed node_modules, and still strips the top folder', async () => {
    const result = await extract([
      file('shop/package.json'),
      file('shop/.DS_Store'),
      file('shop/src/.DS_Store'),
      file('shop/src/app.js'),
      file('shop/node_modules/react/index.js'),
      file('shop/node_modules/react/package.json'),
      file('shop/packages/ui/node_modules/.bin/x'),
      file('shop/packages/ui/node_modules/x/y.js'),
      file('shop/packages/ui/index.js'),
      file('shop/.git/HEAD', 'ref: refs/heads/main\n'),
      file('shop/.git/objects/ab/cdef'),
      file('shop/vendor/lib/.git', 'gitdir: ../../.git/modules/lib\n'),
      file('shop/vendor/lib/index.js'),
      file('__MACOSX/shop/._package.json'),
      { name: '__MACOSX/' },
    ]);
    expect(result.strippedPrefix).toBe('shop');
    expect(result.dropped).toEqual([
      '__MACOSX/',
      'shop/.DS_Store',
      'shop/.git/',
      'shop/node_modules/',
      'shop/packages/ui/node_modules/',
      'shop/src/.DS_Store',
      'shop/vendor/lib/.git',
    ]);
    expect(tree()).toEqual([
      'package.json',
      'packages/',
      'packages/ui/',
      'packages/ui/index.js',
      'src/',
      'src/app.js',
      'vendor/',
      'vendor/lib/',
      'vendor/lib/index.js',
    ]);
  });

  it('does not hold dropped junk to the content limits: links, bombs and huge sizes in node_modules', async () => {
    const result = await extract([
      file('index.js'),
      { name: 'node_modules/.bin/vite', data: '../vite/bin/vite.js', unixMode: S_IFLNK | 0o777 },
      { name: 'node_modules/big/blob.bin', raw: Buffer.from('x'), method: 0, size: 600 * MiB },
      { name: 'node_modules/zeros/z.bin', data: Buffer.alloc(2 * MiB) },
      { name: 'Node_Modules/secret.txt', data: 'x', flags: 0x0001 },
    ]);
    expect(result.files).toEqual(['index.js']);
    expect(result.dropped).toEqual(['Node_Modules/', 'node_modules/']);
  });

  it('accepts exactly the entry limit (10,000)', async () => {
    const entries: ForgedEntry[] = Array.from({ length: 10_000 }, (_, i) => ({
      name: `d${i % 100}/f${i}`,
      data: '',
    }));
    const result = await extract(entries);
    expect(result.fileCount).toBe(10_000);
  });

  it('accepts small files that compress extremely well (the ratio limit starts above 1 MiB)', async () => {
    const result = await extract([file('blank.txt', Buffer.alloc(MiB, 0x20))]);
    expect(result.totalBytes).toBe(MiB);
  });

  it('streams a large entry to disk with its exact bytes', async () => {
    const block = randomBytes(64 * 1024);
    const big = Buffer.concat(Array.from({ length: 300 }, () => block)); // 18.75 MiB, compresses ~300:1
    const result = await extract([file('index.html'), file('assets/video.bin', big)], {
      limits: { maxRatio: 1_000 },
    });
    expect(result.totalBytes).toBe(big.length + 'content of index.html\n'.length);
    const written = readFileSync(path.join(sb.targetDir, 'assets/video.bin'));
    expect(createHash('sha256').update(written).digest('hex')).toBe(
      createHash('sha256').update(big).digest('hex'),
    );
  });

  it('accepts entries that carry sizes and CRC in a data descriptor (streaming zippers)', async () => {
    const result = await extract([
      { name: 'a.txt', data: 'streamed a', descriptor: true },
      { name: 'b.txt', data: 'streamed b '.repeat(100), descriptor: true },
    ]);
    expect(result.files).toEqual(['a.txt', 'b.txt']);
    expect(read('b.txt')).toBe('streamed b '.repeat(100));
  });

  it('reads an archive written by adm-zip itself', async () => {
    const zip = new AdmZip();
    zip.addFile('site/index.html', Buffer.from('<h1>hi</h1>'));
    zip.addFile('site/js/app.js', Buffer.from('alert(1)'.repeat(50)));
    const result = await extract(zip.toBuffer());
    expect(result).toMatchObject({ strippedPrefix: 'site', files: ['index.html', 'js/app.js'] });
    expect(read('js/app.js')).toBe('alert(1)'.repeat(50));
  });

  it('keeps unicode names as written, and reads old CP437 names', async () => {
    const result = await extract([
      file('données/été.txt', 'ok'),
      file('日本語/説明.md', 'ok'),
      file('emoji/🚀.txt', 'ok'),
      { name: Buffer.from([0x63, 0x61, 0x66, 0x82, 0x2e, 0x74, 0x78, 0x74]), data: 'cp437' },
    ]);
    expect(result.files).toEqual(['café.txt', 'données/été.txt', 'emoji/🚀.txt', '日本語/説明.md']);
    expect(read('日本語/説明.md')).toBe('ok');
    expect(read('café.txt')).toBe('cp437');
  });
});

describe('permissions', () => {
  it('makes files 0644, executables 0755, folders 0755, and never keeps setuid/setgid/sticky bits', async () => {
    await extract([
      { name: 'bin/run.sh', data: '#!/bin/sh\n', unixMode: S_IFREG | 0o755 },
      { name: 'bin/suid', data: 'x', unixMode: S_IFREG | 0o6755 },
      { name: 'bin/sticky', data: 'x', unixMode: S_IFREG | 0o1777 },
      { name: 'private.txt', data: 'x', unixMode: S_IFREG | 0o600 },
      { name: 'world.txt', data: 'x', unixMode: S_IFREG | 0o666 },
      { name: 'dos.txt', data: 'x', unixMode: 0 },
      { name: 'locked/', unixMode: 0o040000 | 0o500 },
    ]);
    expect({
      run: modeOf('bin/run.sh'),
      suid: modeOf('bin/suid'),
      sticky: modeOf('bin/sticky'),
      priv: modeOf('private.txt'),
      world: modeOf('world.txt'),
      dos: modeOf('dos.txt'),
      bin: modeOf('bin'),
      locked: modeOf('locked'),
      root: modeOf('.'),
    }).toEqual({
      run: 0o755,
      suid: 0o755,
      sticky: 0o755,
      priv: 0o644,
      world: 0o644,
      dos: 0o644,
      bin: 0o755,
      locked: 0o755,
      root: 0o755,
    });
  });

  it('keeps those modes under a strict umask', async () => {
    const previous = process.umask(0o077);
    try {
      await extract([
        { name: 'tool', data: 'x', unixMode: S_IFREG | 0o755 },
        { name: 'sub/readme.txt', data: 'x' },
        {
          name: 'big/blob.bin',
          data: Buffer.concat(Array.from({ length: 300 }, () => randomBytes(64 * 1024))),
        },
      ]);
    } finally {
      process.umask(previous);
    }
    expect([
      modeOf('tool'),
      modeOf('sub/readme.txt'),
      modeOf('sub'),
      modeOf('big/blob.bin'),
      modeOf('.'),
    ]).toEqual([0o755, 0o644, 0o755, 0o644, 0o755]);
  });
});

describe('replacing a project', () => {
  it('replaces an existing project completely and removes the old copy in the background', async () => {
    seedProject(sb.targetDir);
    writeFileSync(path.join(sb.targetDir, 'stale.txt'), 'from the old upload');
    const result = await extract([
      file('v2/package.json', '{ "name": "new" }'),
      file('v2/src/index.js', 'new'),
    ]);
    expect(result.files).toEqual(['package.json', 'src/index.js']);
    expect(tree()).toEqual(['package.json', 'src/', 'src/index.js']);
    expect(read('src/index.js')).toBe('new');
    await settleBackgroundRemovals();
    expect(readdirSync(sb.workDir)).toEqual([]);
  });

  it('extracts twice in a row into the same project', async () => {
    await extract([file('a.txt', 'one')]);
    await extract([file('b.txt', 'two')]);
    expect(tree()).toEqual(['b.txt']);
  });

  it('fails with the file system error when the archive is missing, leaving nothing behind', async () => {
    await expect(
      extractArchive(path.join(sb.zipDir, 'missing.zip'), { targetDir: sb.targetDir, workDir: sb.workDir }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(sb.workDir)).toEqual([]);
  });

  it('creates the project folder and its parent when missing', async () => {
    const targetDir = path.join(sb.root, 'data', 'fresh', 'nested', 'app');
    const zipPath = sb.zip('fresh.zip', forgeZip([file('index.html', 'hi')]));
    await extractArchive(zipPath, { targetDir, workDir: sb.workDir });
    expect(readFileSync(path.join(targetDir, 'index.html'), 'utf8')).toBe('hi');
  });

  it('writes nothing outside workDir and targetDir', async () => {
    seedProject(sb.targetDir);
    const zipPath = sb.zip('x.zip', forgeZip([file('x/a.txt'), file('x/b/c.txt')]));
    const others = snapshotTree(sb.root).filter((line) => !line.startsWith('data/'));
    await extractArchive(zipPath, { targetDir: sb.targetDir, workDir: sb.workDir });
    await settleBackgroundRemovals();
    expect(snapshotTree(sb.root).filter((line) => !line.startsWith('data/'))).toEqual(others);
    expect(readdirSync(path.join(sb.root, 'data')).sort()).toEqual(['projects', 'work']);
    expect(readdirSync(sb.workDir)).toEqual([]);
  });

  it('refuses a workDir inside the project, which the swap would move along', async () => {
    await expect(extract([file('a.txt')], { workDir: path.join(sb.targetDir, '.work') })).rejects.toThrow(
      /must not be inside targetDir/,
    );
    expect(existsSync(sb.targetDir)).toBe(false);
  });

  it('sweeps leftovers of a crash (staging, replaced copies) and nothing else', async () => {
    for (const name of ['.extract-abc123', 'app.old-1700000000000-deadbeef', 'keep-me', 'app.old-notes']) {
      mkdirSync(path.join(sb.workDir, name, 'inner'), { recursive: true });
    }
    expect(await sweepExtractLeftovers(sb.workDir)).toBe(2);
    await settleBackgroundRemovals();
    expect(readdirSync(sb.workDir).sort()).toEqual(['app.old-notes', 'keep-me']);
    expect(await sweepExtractLeftovers(path.join(sb.root, 'missing'))).toBe(0);
  });
});

describe('abort and responsiveness', () => {
  const manyFiles = (n: number): ForgedEntry[] => [
    file('package.json'),
    ...Array.from({ length: n - 1 }, (_, i) =>
      file(`src/module-${i}.js`, `export const value${i} = ${i};\n`.repeat(20)),
    ),
  ];

  it('does nothing when the signal is already aborted', async () => {
    seedProject(sb.targetDir);
    const zipPath = sb.zip('a.zip', forgeZip([file('a.txt')]));
    const before = snapshotTree(sb.root);
    const controller = new AbortController();
    controller.abort();
    await expect(
      extractArchive(zipPath, { targetDir: sb.targetDir, workDir: sb.workDir, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(snapshotTree(sb.root)).toEqual(before);
  });

  it('stops mid-way on abort: the thread is terminated, staging removed, the old project intact', async () => {
    seedProject(sb.targetDir);
    const zipPath = sb.zip('many.zip', forgeZip(manyFiles(3000)));
    const before = snapshotTree(sb.root);
    const controller = new AbortController();
    const progress: WriteProgress[] = [];
    const outcome = await extractArchive(zipPath, {
      targetDir: sb.targetDir,
      workDir: sb.workDir,
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p);
        controller.abort();
      },
    }).then(
      () => 'extracted',
      (error: unknown) => error,
    );
    expect(outcome).toMatchObject({ name: 'AbortError' });
    expect(progress).toHaveLength(1);
    expect(progress[0]?.filesWritten).toBeLessThan(3000);
    expect(snapshotTree(sb.root)).toEqual(before);
  });

  it('terminates the thread at once on abort rather than letting it finish a 2 GiB entry', async () => {
    const first = Buffer.alloc(17 * MiB);
    const zipPath = sb.zip(
      'slow.zip',
      forgeZip([
        file('package.json'),
        // Big enough to end the first progress batch on its own.
        { name: 'media/first.bin', raw: zeroBomb(17), method: 8, size: first.length, crc: crc32(first) },
        { name: 'media/huge.bin', raw: zeroBomb(2048), method: 8, size: 2048 * MiB, crc: 0 },
      ]),
    );
    const controller = new AbortController();
    let abortedAt = 0;
    const outcome = await extractArchive(zipPath, {
      targetDir: sb.targetDir,
      workDir: sb.workDir,
      limits: { maxRatio: 1_000_000, maxTotalBytes: 4096 * MiB },
      signal: controller.signal,
      onProgress: () => {
        abortedAt = performance.now();
        controller.abort();
      },
    }).then(
      () => 'extracted',
      (error: unknown) => error,
    );
    expect(outcome).toMatchObject({ name: 'AbortError' });
    // Inflating and writing the remaining 2 GiB takes seconds; a terminated thread stops in milliseconds.
    expect(performance.now() - abortedAt).toBeLessThan(1_500);
    expect(readdirSync(sb.workDir)).toEqual([]);
    expect(existsSync(sb.targetDir)).toBe(false);
  });

  it('stops and rejects with the error when onProgress throws, leaving the old project intact', async () => {
    seedProject(sb.targetDir);
    const zipPath = sb.zip('many.zip', forgeZip(manyFiles(1000)));
    const before = snapshotTree(sb.root);
    const boom = new Error('progress consumer failed');
    const outcome = extractArchive(zipPath, {
      targetDir: sb.targetDir,
      workDir: sb.workDir,
      onProgress: () => {
        throw boom;
      },
    });
    await expect(outcome).rejects.toBe(boom);
    expect(snapshotTree(sb.root)).toEqual(before);
  });

  it('reports progress in batches and ends with the full count', async () => {
    const progress: WriteProgress[] = [];
    await extract(manyFiles(600), { onProgress: (p) => progress.push(p) });
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toMatchObject({ filesWritten: 600, filesTotal: 600 });
    expect(progress.map((p) => p.filesWritten)).toEqual(
      [...progress.map((p) => p.filesWritten)].sort((a, b) => a - b),
    );
  });

  it('keeps the event loop responsive while it writes thousands of files', async () => {
    const zipPath = sb.zip('many.zip', forgeZip(manyFiles(4000)));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    try {
      await extractArchive(zipPath, { targetDir: sb.targetDir, workDir: sb.workDir });
    } finally {
      clearInterval(timer);
    }
    const elapsed = performance.now() - started;
    // Blocking work on this thread would let the timer fire a couple of times at most.
    expect(ticks).toBeGreaterThan(Math.min(20, elapsed / 20));
    expect(readdirSync(path.join(sb.targetDir, 'src'))).toHaveLength(3999);
  });
});

describe('the digest of the written tree', () => {
  it('hashes what it writes exactly as hashTree reads the tree back', async () => {
    const block = randomBytes(64 * 1024);
    const big = Buffer.concat(Array.from({ length: 272 }, () => block)); // 17 MiB: streamed
    const result = await extract(
      [
        { name: 'app/' },
        file('app/package.json', '{ "name": "demo" }\n'),
        // "a-b" sorts before "a/…" as a string but after the folder "a" in a walk.
        file('app/a-b.txt', 'dash'),
        file('app/a/b.txt', 'nested'),
        file('app/Z.txt', 'upper case sorts first'),
        // UTF-16 order, as walk.ts sorts: U+FB00 sorts after the surrogates of U+1F680.
        file('app/\ufb00.txt', 'ligature'),
        file('app/🚀.txt', 'rocket'),
        file('app/données/été.txt', 'accents'),
        { name: 'app/bin/run.sh', data: '#!/bin/sh\necho hi\n', unixMode: S_IFREG | 0o755 },
        { name: 'app/public/logo.bin', data: randomBytes(999), method: 0 },
        { name: 'app/public/empty.txt', data: '' },
        { name: 'app/empty-dir/' },
        file('app/media/big.bin', big),
        file('app/node_modules/dropped.js'),
      ],
      { hash: true, limits: { maxRatio: 1_000 } },
    );
    expect(result.strippedPrefix).toBe('app');
    expect(result.tree).not.toBeNull();
    expect(result.tree?.digest).toBe(await hashTree(sb.targetDir, () => false));
    expect(result.tree?.files).toEqual(result.files);
    expect([...(result.tree?.dirs ?? [])].sort()).toEqual(
      ['a', 'bin', 'données', 'empty-dir', 'media', 'public'].sort(),
    );
  });

  it('is left out unless asked for', async () => {
    expect((await extract([file('a.txt')])).tree).toBeNull();
  });
});

describe('inspectArchive', () => {
  it('reads the listing in the thread and writes nothing', async () => {
    const zipPath = sb.zip('look.zip', forgeZip([file('app/package.json'), file('app/src/a.js', 'x')]));
    const before = snapshotTree(sb.root);
    expect(await inspectArchive(zipPath)).toEqual({
      hasPackageJson: true,
      fileCount: 2,
      totalBytes: 'content of app/package.json\n'.length + 1,
    });
    expect(snapshotTree(sb.root)).toEqual(before);
  });

  it('refuses what extraction would refuse, with the same error', async () => {
    const zipPath = sb.zip('evil.zip', forgeZip([file('ok.txt'), file('../evil.txt')]));
    const error = await inspectArchive(zipPath).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArchiveRefusedError);
    expect(error).toMatchObject({ code: 'ARCHIVE_PATH_TRAVERSAL', entry: '../evil.txt' });
    await expect(inspectArchive(sb.zip('no.zip', randomBytes(100)))).rejects.toMatchObject({
      code: 'ARCHIVE_CORRUPT',
    });
  });
});

describe('the warm thread', () => {
  const many = (n: number): ForgedEntry[] =>
    Array.from({ length: n }, (_, i) => file(`src/f-${i}.js`, `export const v = ${i};\n`.repeat(30)));

  it('serves back-to-back extractions, refusals and inspections from one thread', async () => {
    await extract([file('first.txt')]);
    const started = extractThreadsStarted();
    await extract([file('second.txt')]);
    await expect(extract([file('ok.txt'), file('/abs.txt')])).rejects.toBeInstanceOf(ArchiveRefusedError);
    await inspectArchive(sb.zip('look.zip', forgeZip([file('package.json')])));
    await extract([file('third.txt')]);
    expect(extractThreadsStarted()).toBe(started);
    expect(read('third.txt')).toBe('content of third.txt\n');
  });

  it('never reuses a thread stopped by an abort', async () => {
    await extract([file('warm.txt')]);
    const controller = new AbortController();
    const aborted = extract(many(600), {
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    const afterAbort = extractThreadsStarted();
    await extract([file('next.txt')]);
    expect(extractThreadsStarted()).toBe(afterAbort + 1);
    expect(tree()).toEqual(['next.txt']);
  });

  it('runs extractions that overlap on separate threads', async () => {
    const other = path.join(sb.root, 'data', 'projects', 'other');
    const [a, b] = await Promise.all([
      extract(many(300)),
      extractArchive(sb.zip('b.zip', forgeZip([file('b.txt')])), { targetDir: other, workDir: sb.workDir }),
    ]);
    expect(a.fileCount).toBe(300);
    expect(b.files).toEqual(['b.txt']);
    expect(readFileSync(path.join(other, 'b.txt'), 'utf8')).toBe('content of b.txt\n');
  });

  it('does not keep the process alive once idle', async () => {
    // A process that extracts and then has nothing left to do must exit on its own.
    const zipPath = sb.zip('exit.zip', forgeZip([file('a.txt')]));
    const script = [
      `const { extractArchive } = await import(${JSON.stringify(new URL('./extract-archive.ts', import.meta.url).href)});`,
      `await extractArchive(${JSON.stringify(zipPath)}, { targetDir: ${JSON.stringify(sb.targetDir)}, workDir: ${JSON.stringify(sb.workDir)} });`,
      `console.log('extracted');`,
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Should it hang (the regression this catches), it must not outlive the test.
    onTestFinished(() => {
      child.kill();
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect({ code, out: out.trim() }).toEqual({ code: 0, out: 'extracted' });
    expect(read('a.txt')).toBe('content of a.txt\n');
  });
});
