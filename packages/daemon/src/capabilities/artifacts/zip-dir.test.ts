import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, readFile, stat, symlink } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../../../test/support/checks-tree.ts';
import { streamZipOfDir, zipDirToFile } from './zip-dir.ts';

const hasUnzip = spawnSync('unzip', ['-v']).status === 0;

let base: string;
let src: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: base, cleanup } = await tempDir('forge-zip-'));
  src = path.join(base, 'src');
});
afterEach(() => cleanup());

/** Every file of a ZIP (fflate's reader), with the compression method of each entry. */
function readZip(data: Uint8Array): { files: Record<string, string>; methods: Record<string, number> } {
  const methods: Record<string, number> = {};
  const entries = unzipSync(data, {
    filter: (file) => {
      methods[file.name] = file.compression;
      return true;
    },
  });
  const files = Object.fromEntries(
    Object.entries(entries).map(([name, bytes]) => [name, Buffer.from(bytes).toString('base64')]),
  );
  return { files, methods };
}

const b64 = (data: string | Uint8Array) => Buffer.from(data).toString('base64');

describe('zipDirToFile / streamZipOfDir', () => {
  it('zips a tree to the same files and bytes, storing compressed formats, skipping links out and excluded paths', async () => {
    const big = randomBytes(3 * 1024 * 1024 + 123); // streamed in chunks, not read whole
    const png = randomBytes(2_000);
    const tree = {
      'package.json': '{"name":"app"}',
      'src/main.ts': 'export const x = 1;\n'.repeat(500),
      'src/ünïcode file.txt': 'héllo',
      'public/logo.png': png,
      'assets/big.bin': big,
      'empty.txt': '',
      '.gitignore': 'dist\n',
      'node_modules/dep/index.js': 'module.exports = 1',
      'dist/out.js': 'built',
    };
    await writeTree(src, tree);
    await symlink('/etc/passwd', path.join(src, 'passwd-link'));
    await symlink('src', path.join(src, 'src-link'));
    const zipFile = path.join(base, 'out.zip');

    const result = await zipDirToFile(src, zipFile, {
      exclude: (rel, isDir) => isDir && (rel === 'node_modules' || rel === 'dist'),
    });

    const expected = Object.fromEntries(
      Object.entries(tree)
        .filter(([name]) => !name.startsWith('node_modules/') && !name.startsWith('dist/'))
        .map(([name, content]) => [name, b64(content)]),
    );
    // The link into the tree is an entry whose data is its target; the one to /etc/passwd is not there.
    expected['src-link'] = b64('src');
    const zipped = await readFile(zipFile);
    const { files, methods } = readZip(zipped);
    expect(files).toEqual(expected);
    expect(methods['public/logo.png']).toBe(0);
    expect(methods['src/main.ts']).toBe(8);
    expect(result).toEqual({
      files: Object.keys(expected).length,
      bytes: zipped.length,
      inputBytes: Object.entries(expected).reduce(
        (sum, [name, content]) => (name === 'src-link' ? sum : sum + Buffer.from(content, 'base64').length),
        0,
      ),
      aborted: false,
    });
    expect(zipped.length).toBeLessThan(big.length + 20_000);
  });

  it.skipIf(!hasUnzip)(
    'produces a ZIP that Info-ZIP unzip extracts, with forward-slash names and modes kept',
    async () => {
      await writeTree(src, { 'bin/run.sh': '#!/bin/sh\necho hi\n', 'a/b/c.txt': 'deep', 'ü.txt': 'x' });
      await chmod(path.join(src, 'bin/run.sh'), 0o755);
      const zipFile = path.join(base, 'out.zip');
      await zipDirToFile(src, zipFile);

      expect(() => execFileSync('unzip', ['-tq', zipFile])).not.toThrow();
      const listing = execFileSync('unzip', ['-Z1', zipFile]).toString().trim().split('\n').sort();
      expect(listing).toEqual(['a/b/c.txt', 'bin/run.sh', 'ü.txt']);
      const out = path.join(base, 'unzipped');
      execFileSync('unzip', ['-q', zipFile, '-d', out]);
      expect(await readFile(path.join(out, 'a/b/c.txt'), 'utf8')).toBe('deep');
      expect((await stat(path.join(out, 'bin/run.sh'))).mode & 0o777).toBe(0o755);
    },
  );

  it('honours backpressure: never buffers much more than one chunk in a slow output', async () => {
    const tree: Record<string, Uint8Array> = {};
    for (let i = 0; i < 16; i += 1) tree[`f${i}.bin`] = randomBytes(512 * 1024);
    tree['huge.bin'] = randomBytes(4 * 1024 * 1024);
    await writeTree(src, tree);
    const chunks: Buffer[] = [];
    let maxBuffered = 0;
    const slow = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        setTimeout(callback, 1);
      },
    });
    const originalWrite = slow.write.bind(slow);
    slow.write = ((chunk: Buffer) => {
      const ok = originalWrite(chunk);
      maxBuffered = Math.max(maxBuffered, slow.writableLength);
      return ok;
    }) as typeof slow.write;

    const result = await streamZipOfDir(src, slow);
    expect(result.aborted).toBe(false);
    const { files } = readZip(Buffer.concat(chunks));
    expect(Object.keys(files)).toHaveLength(17);
    // 12 MiB go through; without waiting for 'drain' they would pile up in the stream.
    expect(maxBuffered).toBeLessThan(1.5 * 1024 * 1024);
  });

  it('stops quietly when the client disconnects mid-download', async () => {
    const tree: Record<string, Uint8Array> = {};
    for (let i = 0; i < 20; i += 1) tree[`part${i}.bin`] = randomBytes(512 * 1024);
    await writeTree(src, tree);

    let resolveResult: (value: Awaited<ReturnType<typeof streamZipOfDir>>) => void;
    const outcome = new Promise<Awaited<ReturnType<typeof streamZipOfDir>>>(
      (resolve) => (resolveResult = resolve),
    );
    const server = createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/zip');
      // A rejection here would be an unhandled error and fail the run.
      void streamZipOfDir(src, res).then(resolveResult);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve) => {
        const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', () => undefined);
        req.end();
      });
      const result = await outcome;
      expect(result.aborted).toBe(true);
      expect(result.files).toBeLessThan(20);
      expect(result.bytes).toBeLessThan(20 * 512 * 1024);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('stops on abort and leaves no partial file', async () => {
    await writeTree(src, { 'a.txt': 'a', 'b.bin': randomBytes(2 * 1024 * 1024) });
    const controller = new AbortController();
    controller.abort();
    const zipFile = path.join(base, 'partial.zip');
    const result = await zipDirToFile(src, zipFile, { signal: controller.signal });
    expect(result.aborted).toBe(true);
    await expect(stat(zipFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('zips an empty folder to a valid empty archive', async () => {
    await writeTree(base, { 'empty/.keep-out': '' });
    const zipFile = path.join(base, 'empty.zip');
    const result = await zipDirToFile(path.join(base, 'empty'), zipFile, {
      exclude: (rel) => rel === '.keep-out',
    });
    expect(result).toMatchObject({ files: 0, aborted: false });
    expect(readZip(await readFile(zipFile)).files).toEqual({});
  });
});
