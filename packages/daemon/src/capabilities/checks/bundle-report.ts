import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip, gzipSync } from 'node:zlib';
import type { BundleReport } from '@forge/shared';
import { timeSlicer } from '../../fs/time-slice.ts';
import { walkFiles } from '../../fs/walk.ts';
import { windowBitsFor } from './zlib-window.ts';

/** Files above this many raw bytes are flagged (the usual "large chunk" warning size of bundlers). */
export const DEFAULT_BUNDLE_THRESHOLD_BYTES = 500 * 1024;
/**
 * Files above this are not compressed: their gzip size is reported as their raw size. A build output
 * with a file this large (a video, a model) is rare, and compressing it would hold up the build for
 * seconds to report a number nobody acts on.
 */
export const GZIP_MAX_FILE_BYTES = 50 * 1024 * 1024;
/** Files listed in the report (largest first); totals always cover every file. */
export const DEFAULT_BUNDLE_MAX_LISTED = 1_000;

/**
 * zlib's default level (6), not 9: within ~1% of level 9 on JS/CSS at a fraction of the time, and
 * close to what static hosts serve.
 */
const GZIP_LEVEL = constants.Z_DEFAULT_COMPRESSION;
/** Up to this size a file is read and compressed synchronously, in time slices (see src/fs/time-slice.ts). */
const SYNC_MAX_BYTES = 1024 * 1024;

export interface BundleReportOptions {
  /** Raw size above which a file is flagged. */
  thresholdBytes?: number;
  /** How many files the report lists (largest first). */
  maxListed?: number;
  /** Return true to leave a file, or a folder with everything below it, out of the report. */
  skip?: (relPath: string, isDir: boolean) => boolean;
}

/** Gzip size of a small file, or null when it vanished. */
function gzipSizeSync(file: string): number | null {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return gzipSync(data, { level: GZIP_LEVEL, windowBits: windowBitsFor(data.length) }).length;
}

/** Gzip size of a large file, streamed through zlib off the event loop. */
async function gzipSizeStreamed(file: string): Promise<number | null> {
  let bytes = 0;
  try {
    await pipeline(
      createReadStream(file),
      createGzip({ level: GZIP_LEVEL }),
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          callback();
        },
      }),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return bytes;
}

/**
 * OptimizationBot's report on a build output: every file's raw and gzip size, flagged above
 * `thresholdBytes`, sorted largest first (then by path), with totals. Dot entries are left out (the
 * preview never serves them) and symbolic links are not followed. A missing output gives an empty
 * report. Files deleted while the report runs are left out.
 */
export async function bundleReport(
  outputDir: string,
  options: BundleReportOptions = {},
): Promise<BundleReport> {
  const thresholdBytes = options.thresholdBytes ?? DEFAULT_BUNDLE_THRESHOLD_BYTES;
  const maxListed = options.maxListed ?? DEFAULT_BUNDLE_MAX_LISTED;
  const { files } = await walkFiles(path.resolve(outputDir), {
    stat: true,
    exclude: (rel, isDir) =>
      path.posix.basename(rel).startsWith('.') || (options.skip?.(rel, isDir) ?? false),
  });

  const rows: BundleReport['files'] = [];
  const slicer = timeSlicer();
  for (const file of files) {
    const bytes = file.size ?? 0;
    let gzipBytes: number | null;
    if (bytes > GZIP_MAX_FILE_BYTES) {
      gzipBytes = bytes;
    } else if (bytes <= SYNC_MAX_BYTES) {
      gzipBytes = gzipSizeSync(file.abs);
      await slicer.pause();
    } else {
      gzipBytes = await gzipSizeStreamed(file.abs);
      slicer.restart();
    }
    if (gzipBytes !== null) rows.push({ path: file.rel, bytes, gzipBytes, flagged: bytes > thresholdBytes });
  }

  rows.sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let totalBytes = 0;
  let totalGzipBytes = 0;
  for (const row of rows) {
    totalBytes += row.bytes;
    totalGzipBytes += row.gzipBytes;
  }
  return { totalBytes, totalGzipBytes, files: rows.slice(0, maxListed), thresholdBytes };
}
