import {
  chmodSync,
  closeSync,
  fchmodSync,
  mkdirSync,
  openSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { createInflateRaw, crc32, inflateRawSync } from 'node:zlib';
import type { TreeHasher } from '../../fs/tree-hash.ts';
import type { ExtractionPlan, PlannedFile, PlannedLink } from './plan.ts';
import { Refusal, refuseEntry } from './refusal.ts';
import type { ExtractLimits } from './limits.ts';

const FILE_MODE = 0o644;
const EXEC_MODE = 0o755;
const DIR_MODE = 0o755;
const METHOD_STORED = 0;
/**
 * Entries above this are inflated as a stream into their file, so a 400 MB entry never sits in
 * memory whole; below it one synchronous inflate + write is several times cheaper per file.
 */
export const STREAM_MIN_BYTES = 16 * 1024 * 1024;
/** Report progress (and give the caller a point to abort at) after this many files or bytes. */
const BATCH_FILES = 256;
const BATCH_BYTES = 16 * 1024 * 1024;

export interface WriteProgress {
  filesWritten: number;
  filesTotal: number;
  bytesWritten: number;
}

export interface WriteSummary {
  bytesWritten: number;
}

/** The size check: `maxOutputLength` makes zlib stop at the declared size instead of filling memory. */
function inflateWhole(file: PlannedFile, compressed: Buffer): Buffer {
  // Some writers store an empty file as "deflated" with no bytes at all; zlib calls that truncated.
  if (file.entry.method === METHOD_STORED || compressed.length === 0) return compressed;
  try {
    return inflateRawSync(compressed, { maxOutputLength: Math.max(file.size, 1) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw sizeMismatch(file);
    throw refuseEntry('ARCHIVE_CORRUPT', file.rawName, 'has corrupt compressed data.');
  }
}

const sizeMismatch = (file: PlannedFile): Refusal =>
  refuseEntry(
    'ARCHIVE_SIZE_MISMATCH',
    file.rawName,
    `inflates to more than its declared ${file.size.toLocaleString('en-US')} bytes.`,
  );

function checkInflated(file: PlannedFile, length: number, crc: number): void {
  if (length > file.size) throw sizeMismatch(file);
  if (length < file.size) {
    throw refuseEntry('ARCHIVE_CORRUPT', file.rawName, 'is shorter than its declared size (truncated data).');
  }
  if (crc >>> 0 !== file.entry.crc >>> 0) {
    throw refuseEntry('ARCHIVE_CORRUPT', file.rawName, 'fails its CRC check (corrupt data).');
  }
}

function writeAll(fd: number, chunk: Buffer): void {
  let offset = 0;
  while (offset < chunk.length) offset += writeSync(fd, chunk, offset);
}

/** Inflates straight into the open file, counting bytes as they come so a lying size stops early. */
async function streamInto(
  fd: number,
  file: PlannedFile,
  compressed: Buffer,
  hash: TreeHasher | null,
): Promise<number> {
  if (file.entry.method === METHOD_STORED) {
    checkInflated(file, compressed.length, crc32(compressed));
    writeAll(fd, compressed);
    hash?.bytes(compressed);
    return compressed.length;
  }
  const inflater = createInflateRaw({ chunkSize: 1024 * 1024 });
  inflater.end(compressed);
  let length = 0;
  let crc = 0;
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > file.size) throw sizeMismatch(file);
      crc = crc32(chunk, crc);
      writeAll(fd, chunk);
      hash?.bytes(chunk);
    }
  } catch (error) {
    inflater.destroy();
    if (error instanceof Refusal) throw error;
    throw refuseEntry('ARCHIVE_CORRUPT', file.rawName, 'has corrupt compressed data.');
  }
  checkInflated(file, length, crc);
  return length;
}

/**
 * Inflates and writes every planned file into `stagingDir` (fresh and empty, ours alone). Folders are
 * made first, parents before children, then files one synchronous write each, then the links: none
 * exists while anything else is written, so nothing is written through one. File creation
 * dominates and per-entry async I/O costs ~0.5 ms a file (PERFORMANCE.md); this runs in the extraction thread,
 * so blocking here blocks no one. Everything is visited in walk order (plan.order), so `hash`, when
 * given, receives exactly what fs/tree-hash.ts would read back from the written tree. Throws a
 * Refusal when an entry's data does not match the central directory; what was written so far is
 * the caller's to remove.
 */
export async function writePlannedFiles(
  plan: ExtractionPlan,
  stagingDir: string,
  limits: ExtractLimits,
  onProgress: (progress: WriteProgress) => void,
  hash: TreeHasher | null = null,
): Promise<WriteSummary> {
  const root = path.resolve(stagingDir);
  // Modes are exact whatever the daemon's umask: a stricter umask (077) would otherwise leave files
  // the preview server or the user's editor cannot read as expected.
  const umask = process.umask();
  const fixFile = (FILE_MODE & umask) !== 0;
  const fixExec = (EXEC_MODE & umask) !== 0;
  const fixDir = (DIR_MODE & umask) !== 0;

  const target = (rel: string): string => {
    const abs = path.join(root, rel);
    // Names were validated already; this is the last line should that ever regress.
    if (!abs.startsWith(root + path.sep)) throw new Error(`Refusing to write outside staging: ${rel}`);
    return abs;
  };

  // One mkdir per folder, in one batch before any file: walk order lists a folder before its content.
  for (const node of plan.order) {
    if (!node.isDir) continue;
    const abs = target(node.path);
    mkdirSync(abs, { mode: DIR_MODE });
    if (fixDir) chmodSync(abs, DIR_MODE);
  }

  let bytesWritten = 0;
  let filesWritten = 0;
  let batchFiles = 0;
  let batchBytes = 0;
  const links: PlannedLink[] = [];
  for (const node of plan.order) {
    if (node.kind === 'dir') {
      hash?.dir(node.path);
      continue;
    }
    if (node.kind === 'link') {
      // Hashed in walk order with the rest; made once every file is written.
      hash?.link(node.path, node.target);
      links.push(node);
      continue;
    }
    const file = node;
    const abs = target(file.path);
    const mode = file.executable ? EXEC_MODE : FILE_MODE;

    let compressed: Buffer;
    try {
      compressed = file.entry.compressedData();
    } catch {
      throw refuseEntry(
        'ARCHIVE_CORRUPT',
        file.rawName,
        'has a broken local header or data outside the archive.',
      );
    }

    let written: number;
    if (file.size >= STREAM_MIN_BYTES) {
      // The digest line carries the size ahead of the bytes; a file that turns out any other size is
      // refused, and the digest with it.
      hash?.file(file.path, file.executable, file.size);
      // 'wx': never reuse an existing path, and with O_EXCL never follow a link planted at it.
      const fd = openSync(abs, 'wx', mode);
      try {
        written = await streamInto(fd, file, compressed, hash);
        if (fixFile || fixExec) fchmodSync(fd, mode);
      } finally {
        closeSync(fd);
      }
    } else {
      const data = inflateWhole(file, compressed);
      checkInflated(file, data.length, crc32(data));
      writeFileSync(abs, data, { flag: 'wx', mode });
      if (file.executable ? fixExec : fixFile) chmodSync(abs, mode);
      hash?.file(file.path, file.executable, data.length);
      hash?.bytes(data);
      written = data.length;
    }

    bytesWritten += written;
    // The declared total was checked up front; this keeps the bound true for the bytes actually
    // written, should the per-entry check ever be loosened.
    if (bytesWritten > limits.maxTotalBytes) {
      throw refuseEntry('ARCHIVE_TOO_LARGE', file.rawName, 'brings the bytes written over the size limit.');
    }
    filesWritten++;
    batchFiles++;
    batchBytes += written;
    if (batchFiles >= BATCH_FILES || batchBytes >= BATCH_BYTES) {
      onProgress({ filesWritten, filesTotal: plan.files.length, bytesWritten });
      batchFiles = 0;
      batchBytes = 0;
    }
  }
  for (const link of links) {
    const abs = target(link.path);
    // A second line behind links.ts, which resolved the target through the whole tree: read as text
    // from where the link stands, it must not leave the staging folder either.
    const lands = path.resolve(path.dirname(abs), link.target);
    if (!lands.startsWith(root + path.sep)) throw new Error(`Refusing a link out of staging: ${link.path}`);
    symlinkSync(link.target, abs);
  }
  onProgress({ filesWritten, filesTotal: plan.files.length, bytesWritten });
  return { bytesWritten };
}
