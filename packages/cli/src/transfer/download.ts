import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { link, rename, rm, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ForgeHttpError, ForgeUnreachableError } from '@forge/shared';
import { CliError } from '../output.ts';

export interface DownloadRequest {
  url: string;
  token: string | undefined;
  /** Aborts the transfer; the partial file is removed. */
  signal?: AbortSignal;
  /** Bytes received so far, and the total when the daemon sent Content-Length. */
  onProgress?: (received: number, total: number | undefined) => void;
}

/** GET a binary route as a stream; the daemon's errors become the shared client's errors. */
async function open(request: DownloadRequest): Promise<{ body: Readable; total: number | undefined }> {
  let res: Response;
  try {
    res = await fetch(request.url, {
      headers: request.token ? { authorization: `Bearer ${request.token}` } : {},
      signal: request.signal,
    });
  } catch (err) {
    if (request.signal?.aborted) throw request.signal.reason;
    throw new ForgeUnreachableError(new URL(request.url).origin, err);
  }
  if (!res.ok || !res.body) {
    throw new ForgeHttpError(res.status, res.statusText, await res.text().catch(() => ''));
  }
  const length = Number(res.headers.get('content-length'));
  return {
    body: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
    total: Number.isFinite(length) && length > 0 ? length : undefined,
  };
}

const counter = (request: DownloadRequest, total: number | undefined) => {
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      request.onProgress?.(received, total);
      callback(null, chunk);
    },
  });
};

/** Stream a download to a writable that stays open (stdout for `-o -`); resolves with the byte count. */
export async function downloadToStream(request: DownloadRequest, out: Writable): Promise<number> {
  let bytes = 0;
  const { body, total } = await open(request);
  await pipeline(
    body,
    counter({ ...request, onProgress: (n, t) => ((bytes = n), request.onProgress?.(n, t)) }, total),
    out,
    { end: false, signal: request.signal },
  );
  return bytes;
}

/**
 * Stream a download into `target`: written to a temporary file beside it and moved into place only
 * when complete, so `target` is never a partial ZIP. Without `force` an existing file is never
 * replaced, not even one that appeared during the transfer. On any failure the temporary file is
 * removed. Resolves with the byte count.
 */
export async function downloadToFile(
  request: DownloadRequest,
  target: string,
  force: boolean,
): Promise<number> {
  if (!force && existsSync(target)) throw existsError(target);
  const { body, total } = await open(request);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
  let bytes = 0;
  try {
    await pipeline(
      body,
      counter({ ...request, onProgress: (n, t) => ((bytes = n), request.onProgress?.(n, t)) }, total),
      createWriteStream(temp, { flags: 'wx' }),
      { signal: request.signal },
    );
    if (force) await rename(temp, target);
    else await moveWithoutReplacing(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return bytes;
}

/** rename() would silently replace a file created meanwhile; link() refuses to (EEXIST). */
async function moveWithoutReplacing(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw existsError(target);
    // A file system without hard links: check, then rename.
    if (existsSync(target)) throw existsError(target);
    await rename(temp, target);
    return;
  }
  await unlink(temp);
}

const existsError = (target: string) =>
  new CliError(`${target} already exists.`, {
    hint: 'Pass --force to replace it, or choose a file with -o.',
  });
