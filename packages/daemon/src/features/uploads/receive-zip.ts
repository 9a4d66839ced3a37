import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import busboy from 'busboy';
import { MAX_UPLOAD_BYTES } from '@forge/shared';
import { ForgeError } from '../../http/forge-error.ts';
import { asDiskFull } from '../../fs/disk-full.ts';
import { warmExtractThread } from '../../capabilities/extract/index.ts';

/** Room for multipart boundaries and headers on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

export interface ReceivedZip {
  /** Temporary file holding the upload; the caller removes it. */
  path: string;
  fileName: string;
  bytes: number;
}

export interface ReceiveOptions {
  field: string;
  tmpDir: string;
  /** Called once the file part starts (its name checked), before any byte is written. */
  onFileStart?: (fileName: string) => void;
  maxBytes?: number;
}

/**
 * Stream one ZIP from a multipart request to a temporary file: never buffered whole, refused early
 * on a wrong name or a size over the limit (the texts of docs/product.md#validation, from the catalogue).
 */
export function receiveZip(req: Request, opts: ReceiveOptions): Promise<ReceivedZip> {
  const maxBytes = opts.maxBytes ?? MAX_UPLOAD_BYTES;
  const type = req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    return Promise.reject(
      new ForgeError(
        'VALIDATION_FAILED',
        `Send the ZIP as multipart/form-data in the field "${opts.field}".`,
      ),
    );
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_OVERHEAD) {
    return Promise.reject(new ForgeError('FILE_TOO_LARGE'));
  }
  fs.mkdirSync(opts.tmpDir, { recursive: true });

  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: maxBytes, fields: 20, fieldSize: 1024 },
      });
    } catch {
      reject(new ForgeError('VALIDATION_FAILED', 'The multipart body is malformed.'));
      return;
    }
    let settled = false;
    let tmpFile: string | null = null;
    let writing: Promise<void> | null = null;
    let received: ReceivedZip | null = null;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      const error = asDiskFull(err, 'Receiving the upload');
      // Out of space: read the rest of the body away, so the client gets the 507 and not a reset.
      if (error instanceof ForgeError && error.code === 'DISK_FULL') req.resume();
      // Removed before the caller hears of it: on a full disk, ending the build needs that space back.
      if (tmpFile) fs.rm(tmpFile, { force: true }, () => reject(error));
      else reject(error);
    };

    parser.on('file', (field, stream, info) => {
      if (field !== opts.field || received || writing) {
        stream.resume();
        return;
      }
      const fileName = path.basename(info.filename ?? '');
      if (!/\.zip$/i.test(fileName)) {
        stream.resume();
        fail(new ForgeError('INVALID_FILE_TYPE'));
        return;
      }
      try {
        opts.onFileStart?.(fileName);
      } catch (err) {
        stream.resume();
        fail(err);
        return;
      }
      // A ZIP is coming to be extracted: have the extraction thread loaded by the time it is here.
      warmExtractThread();
      tmpFile = path.join(opts.tmpDir, `upload-${crypto.randomBytes(6).toString('hex')}.zip`);
      const file = tmpFile;
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
      stream.on('limit', () => fail(new ForgeError('FILE_TOO_LARGE')));
      writing = pipeline(stream, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 })).then(
        () => {
          if (!settled) received = { path: file, fileName, bytes };
        },
        (err: unknown) => fail(err),
      );
    });
    parser.on('error', () => fail(new ForgeError('VALIDATION_FAILED', 'The multipart body is malformed.')));
    parser.on('close', () => {
      void (writing ?? Promise.resolve()).then(() => {
        if (settled) return;
        if (!received) {
          fail(
            new ForgeError(
              'VALIDATION_FAILED',
              `No file in the field "${opts.field}". Send the ZIP as multipart field "${opts.field}".`,
            ),
          );
          return;
        }
        settled = true;
        resolve(received);
      });
    });
    req.on('aborted', () => fail(new ForgeError('VALIDATION_FAILED', 'The upload was interrupted.')));
    req.pipe(parser);
  });
}
