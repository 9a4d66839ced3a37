import { randomBytes } from 'node:crypto';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleReport, DEFAULT_BUNDLE_THRESHOLD_BYTES } from './bundle-report.ts';
import { tempDir, writeTree } from '../../../test/support/checks-tree.ts';

let base: string;
let out: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: base, cleanup } = await tempDir());
  out = path.join(base, 'dist');
  await mkdir(out);
});
afterEach(() => cleanup());

describe('bundleReport', () => {
  it('reports raw and gzip size per file, largest first, flags files over 500 KiB, and totals', async () => {
    const bigJs = 'export const value = "forge";\n'.repeat(20_000); // ~600 KB, very compressible
    const image = randomBytes(50_000);
    const css = 'body { margin: 0 }\n';
    await writeTree(out, {
      'index.html': '<!doctype html>',
      'assets/big.js': bigJs,
      'assets/style.css': css,
      'img/photo.png': image,
      '.vite/manifest.json': '{}',
    });
    await symlink('/etc/hostname', path.join(out, 'link.txt'));

    const report = await bundleReport(out);
    const gz = (data: string | Uint8Array) => gzipSync(data).length;
    expect(report.thresholdBytes).toBe(DEFAULT_BUNDLE_THRESHOLD_BYTES);
    expect(report.files).toEqual([
      { path: 'assets/big.js', bytes: bigJs.length, gzipBytes: gz(bigJs), flagged: true },
      { path: 'img/photo.png', bytes: image.length, gzipBytes: gz(image), flagged: false },
      { path: 'assets/style.css', bytes: css.length, gzipBytes: gz(css), flagged: false },
      { path: 'index.html', bytes: 15, gzipBytes: gz('<!doctype html>'), flagged: false },
    ]);
    expect(report.files[0]!.gzipBytes).toBeLessThan(bigJs.length / 20);
    expect(report.totalBytes).toBe(bigJs.length + image.length + css.length + 15);
    expect(report.totalGzipBytes).toBe(report.files.reduce((sum, f) => sum + f.gzipBytes, 0));
  });

  it('uses the given threshold, skip rule and listing cap; totals still cover every file', async () => {
    await writeTree(out, {
      'a.js': 'x'.repeat(300),
      'b.js': 'x'.repeat(200),
      'c.js': 'x'.repeat(100),
      'skip/d.js': 'x',
    });
    const report = await bundleReport(out, {
      thresholdBytes: 150,
      maxListed: 2,
      skip: (rel, isDir) => isDir && rel === 'skip',
    });
    expect(report.files.map((f) => [f.path, f.flagged])).toEqual([
      ['a.js', true],
      ['b.js', true],
    ]);
    expect(report.totalBytes).toBe(600);
    expect(report.thresholdBytes).toBe(150);
  });

  it('measures large files by streaming them, with the same result', async () => {
    const large = 'const chunk = "abcdefghij";\n'.repeat(80_000); // ~2.2 MB
    await writeTree(out, { 'vendor.js': large });
    const report = await bundleReport(out);
    expect(report.files).toEqual([
      { path: 'vendor.js', bytes: large.length, gzipBytes: gzipSync(large).length, flagged: true },
    ]);
  });

  it('gives an empty report for a missing or empty output', async () => {
    expect(await bundleReport(path.join(base, 'nope'))).toEqual({
      totalBytes: 0,
      totalGzipBytes: 0,
      files: [],
      thresholdBytes: DEFAULT_BUNDLE_THRESHOLD_BYTES,
    });
  });
});
