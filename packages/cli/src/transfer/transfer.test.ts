import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, truncate } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { UploadResult } from '@forge/shared';
import { createCliClient } from '../http/client.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutput } from '../output.ts';
import { PLAIN_TERMINAL } from '../terminal.ts';
import { downloadToFile, downloadToStream } from './download.ts';
import { createProgressLine } from './progress.ts';
import { sendZip } from './upload-zip.ts';
import { checkZipFile, zipUpload } from './zip-file.ts';

let dir: string;
let server: Server;
let base: string;
let handler: (req: IncomingMessage, res: ServerResponse) => void;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'forge-transfer-'));
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

const usage = (message: RegExp) =>
  expect.objectContaining({ exitCode: 2, message: expect.stringMatching(message) });
const refused = (code: string, message: RegExp) =>
  expect.objectContaining({ exitCode: 6, code, message: expect.stringMatching(message) });

describe('checkZipFile', () => {
  it('accepts a .zip of at most 50 MB', async () => {
    writeFileSync(join(dir, 'Site.ZIP'), 'PK');
    await expect(checkZipFile('Site.ZIP', dir)).resolves.toEqual({
      path: join(dir, 'Site.ZIP'),
      name: 'Site.ZIP',
      size: 2,
    });
  });

  it('refuses a missing file or a folder (usage, 2), another type or a file over 50 MB (refused, 6)', async () => {
    await expect(checkZipFile('nope.zip', dir)).rejects.toEqual(usage(/^No such file: nope\.zip$/));
    await mkdir(join(dir, 'folder.zip'));
    await expect(checkZipFile('folder.zip', dir)).rejects.toEqual(usage(/is a folder, not a ZIP file/));
    writeFileSync(join(dir, 'site.tar.gz'), 'x');
    await expect(checkZipFile('site.tar.gz', dir)).rejects.toEqual(
      refused('INVALID_FILE_TYPE', /^Invalid file type — Please upload a ZIP file/),
    );
    writeFileSync(join(dir, 'big.zip'), '');
    await truncate(join(dir, 'big.zip'), 50 * 1024 * 1024 + 1);
    await expect(checkZipFile('big.zip', dir)).rejects.toEqual(
      refused('FILE_TOO_LARGE', /^File too large — Maximum file size is 50MB \(big\.zip is 50 MB\)/),
    );
  });
});

describe('zipUpload', () => {
  const answer: UploadResult = {
    projectName: 'app',
    builderBots: [],
    buildResult: { success: true, hasPackageJson: false },
  };
  /** Every request the server got: its Content-Length, content type and body. */
  let received: Array<{ contentLength?: string; contentType?: string; body: Buffer }>;
  beforeEach(() => {
    received = [];
    handler = (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        received.push({
          contentLength: req.headers['content-length'],
          contentType: req.headers['content-type'],
          body,
        });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer));
      });
    };
  });

  it('sends the file as multipart field "file" with a Content-Length, counting the bytes read', async () => {
    const bytes = Buffer.alloc(300_000, 7);
    writeFileSync(join(dir, 'app.zip'), bytes);
    let counted = 0;
    const client = createCliClient({ baseUrl: base });
    const file = zipUpload(await checkZipFile('app.zip', dir), (n) => (counted += n));
    expect(await client.request('upload', { file, query: {} })).toEqual(answer);
    expect(counted).toBe(bytes.length);
    const [upload] = received;
    expect(Number(upload?.contentLength)).toBe(upload?.body.length);
    const head = upload!.body.subarray(0, 300).toString('latin1');
    expect(head).toContain('Content-Disposition: form-data; name="file"; filename="app.zip"');
    expect(head).toContain('Content-Type: application/zip');
    expect(upload!.body.includes(bytes)).toBe(true);
  });

  it('writes the body byte for byte as fetch writes the same file from a FormData, but the boundary', async () => {
    // A name that needs escaping inside the quotes of Content-Disposition.
    const name = 'my "app"\nv2.zip';
    writeFileSync(join(dir, name), Buffer.from('PK\u0003\u0004 and some bytes'));
    const file = await checkZipFile(name, dir);
    await createCliClient({ baseUrl: base }).request('upload', { file: zipUpload(file), query: {} });
    const form = new FormData();
    form.append('file', new File([readFileSync(file.path)], file.name, { type: 'application/zip' }));
    await fetch(`${base}/api/upload`, { method: 'POST', body: form });

    const withoutBoundary = (r: { contentType?: string; body: Buffer }) => {
      const boundary = /boundary=(.+)$/.exec(r.contentType ?? '')![1]!;
      return r.body.toString('latin1').replaceAll(boundary, '<boundary>');
    };
    const [ours, theirs] = received;
    expect(withoutBoundary(ours!)).toBe(withoutBoundary(theirs!));
    expect(withoutBoundary(ours!)).toContain('filename="my %22app%22%0Av2.zip"');
    for (const r of [ours!, theirs!]) expect(Number(r.contentLength)).toBe(r.body.length);
  });
});

describe('sendZip', () => {
  async function upload(answer: UploadResult): Promise<string> {
    writeFileSync(join(dir, 'site.zip'), 'PK');
    handler = (req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer));
      });
    };
    let stderr = '';
    const out = createOutput({ stdout: { write: () => true }, stderr: { write: (c) => (stderr += c) } });
    const connection = { client: createCliClient({ baseUrl: base }), baseUrl: base, token: undefined };
    const result = await sendZip(
      { out, term: PLAIN_TERMINAL },
      connection,
      await checkZipFile('site.zip', dir),
      {
        cache: true,
      },
    );
    expect(result).toEqual(answer);
    return stderr;
  }
  const answer: UploadResult = {
    projectName: 'site',
    builderBots: ['BuildBot'],
    buildResult: { success: true, hasPackageJson: false },
    buildId: 'b7',
  };

  it('says when the daemon answers that the build waits for its turn', async () => {
    const queued = await upload({ ...answer, status: 'queued' });
    expect(queued).toMatch(/^Uploaded site\.zip \(2 B\) in [\d.]+s: project site$/m);
    expect(queued).toContain('The build b7 is queued: it starts when its turn comes');
    expect(await upload({ ...answer, status: 'running' })).not.toContain('queued');
  });
});

describe('downloadToFile', () => {
  const zip = Buffer.from('PK\u0003\u0004 a zip, as far as this test cares');

  it('streams to the target and leaves no temporary file', async () => {
    handler = (_req, res) => {
      res.setHeader('content-length', zip.length);
      res.end(zip);
    };
    const target = join(dir, 'site.zip');
    const progress: number[] = [];
    const bytes = await downloadToFile(
      { url: `${base}/x`, token: 't', onProgress: (n) => progress.push(n) },
      target,
      false,
    );
    expect(bytes).toBe(zip.length);
    expect(readFileSync(target)).toEqual(zip);
    expect(progress.at(-1)).toBe(zip.length);
    expect(readdirSync(dir)).toEqual(['site.zip']);
  });

  it('sends the token', async () => {
    let auth: string | undefined;
    handler = (req, res) => {
      auth = req.headers.authorization;
      res.end(zip);
    };
    await downloadToFile({ url: `${base}/x`, token: 's3cret' }, join(dir, 'a.zip'), false);
    expect(auth).toBe('Bearer s3cret');
  });

  it('never replaces an existing file without force, and does with it', async () => {
    handler = (_req, res) => res.end(zip);
    const target = join(dir, 'site.zip');
    writeFileSync(target, 'mine');
    await expect(downloadToFile({ url: `${base}/x`, token: undefined }, target, false)).rejects.toThrow(
      /site\.zip already exists/,
    );
    expect(readFileSync(target, 'utf8')).toBe('mine');
    await downloadToFile({ url: `${base}/x`, token: undefined }, target, true);
    expect(readFileSync(target)).toEqual(zip);
  });

  it('turns the daemon’s error into the shared client’s error and writes nothing', async () => {
    handler = (_req, res) => {
      res.statusCode = 404;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ error: 'This project has no successful build output yet.', code: 'NO_ARTIFACT' }),
      );
    };
    const err = await downloadToFile({ url: `${base}/x`, token: undefined }, join(dir, 'a.zip'), false).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'ForgeHttpError', status: 404, code: 'NO_ARTIFACT' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('removes the partial file when the transfer breaks off', async () => {
    handler = (_req, res) => {
      res.setHeader('content-length', 1_000_000);
      res.write(Buffer.alloc(10_000));
      setImmediate(() => res.destroy());
    };
    const target = join(dir, 'site.zip');
    await expect(downloadToFile({ url: `${base}/x`, token: undefined }, target, false)).rejects.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('removes the partial file when aborted (Ctrl+C)', async () => {
    const controller = new AbortController();
    handler = (_req, res) => {
      res.write(Buffer.alloc(10_000));
    };
    const target = join(dir, 'site.zip');
    const done = downloadToFile(
      {
        url: `${base}/x`,
        token: undefined,
        signal: controller.signal,
        onProgress: () => controller.abort(new Error('stop')),
      },
      target,
      false,
    );
    await expect(done).rejects.toThrow();
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reports an unreachable daemon as such', async () => {
    const closed = `http://127.0.0.1:1/x`;
    const err = await downloadToFile({ url: closed, token: undefined }, join(dir, 'a.zip'), false).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'ForgeUnreachableError' });
  });
});

describe('downloadToStream', () => {
  it('writes to a stream it leaves open (stdout with -o -)', async () => {
    handler = (_req, res) => res.end('hello');
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    expect(await downloadToStream({ url: `${base}/x`, token: undefined }, out)).toBe(5);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
    expect(out.writableEnded).toBe(false);
  });
});

describe('createProgressLine', () => {
  it('redraws in place on a terminal and clears before the final line', () => {
    let err = '';
    const out = createOutput({ stdout: { write: () => true }, stderr: { write: (c) => (err += c) } });
    let clock = 0;
    const line = createProgressLine(out, true, () => clock);
    line.update('10%');
    line.update('11%'); // within 100 ms: skipped
    clock = 200;
    line.update('50%');
    line.done('Uploaded');
    expect(err).toBe('\r\u001b[K10%\r\u001b[K50%\r\u001b[KUploaded\n');
  });

  it('prints only the final line elsewhere', () => {
    let err = '';
    const out = createOutput({ stdout: { write: () => true }, stderr: { write: (c) => (err += c) } });
    const line = createProgressLine(out, false);
    line.update('10%');
    line.done('Uploaded');
    expect(err).toBe('Uploaded\n');
  });
});
