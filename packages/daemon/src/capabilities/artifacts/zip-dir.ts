import { createWriteStream, lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { finished, pipeline } from 'node:stream/promises';
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import { Zip } from 'fflate';
import { isWithin, realWithinSync } from '../../fs/contain.ts';
import { timeSlicer } from '../../fs/time-slice.ts';
import { walkFiles, type WalkedFile, type WalkedLink } from '../../fs/walk.ts';
import { windowBitsFor } from '../checks/zlib-window.ts';
import { DEFLATED, NativeZipEntry, STORED, type ZipMethod } from './zip-entry.ts';

/**
 * PackageBot's ZIPs (project source and build artifact downloads), streamed: each file is compressed
 * and written as soon as it is read, and the writer waits for the client when it reads slower than we
 * compress, so memory stays bounded whatever the project's size. fflate's `Zip` writes the archive
 * structure; the DEFLATE work is Node's zlib. Small files are read and deflated synchronously in time
 * slices (src/fs/time-slice.ts: per-file async calls cost more than the work); large ones are streamed.
 */

export interface ZipDirOptions {
  /** Return true to leave a file out, or a directory with everything below it (paths use "/"). */
  exclude?: (relPath: string, isDir: boolean) => boolean;
  /** Aborting stops the ZIP; the output is destroyed (the client sees a cut download). */
  signal?: AbortSignal;
  /**
   * A folder every entry is put under ("output/"). Scale-out sends trees this way so the receiving
   * extraction, which strips one common top folder, strips exactly this one and never the tree's own.
   */
  prefix?: string;
  /**
   * Same tree, same bytes (docs/artifacts.md): entries in byte order of their names, every entry
   * dated `epochMs` (whole seconds, written as that UTC time whatever the machine's time zone), modes
   * normalised to 644 or 755 (any execute bit) so umask and checkout do not show through.
   */
  reproducible?: { epochMs: number };
  /** Files written after the tree's, in the order given (the SBOM an artifact carries). */
  extra?: ReadonlyArray<{ name: string; data: Buffer }>;
}

export interface ZipDirResult {
  /** Files written into the ZIP. */
  files: number;
  /** ZIP bytes written to the output. */
  bytes: number;
  /** Uncompressed bytes of those files. */
  inputBytes: number;
  /** True when the output closed (client disconnect) or `signal` aborted before the ZIP was complete. */
  aborted: boolean;
}

/** Thrown before any byte is written when the directory needs ZIP64, which fflate cannot write. */
export class ZipTooLargeError extends Error {
  override readonly name = 'ZipTooLargeError';
}

/** DEFLATE level: zlib's default, the usual balance of speed and size. */
const DEFLATE_LEVEL = 6;
/** Formats already compressed: deflating them again costs time and saves nothing. */
const STORED_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'woff',
  'woff2',
  'zip',
  'gz',
  'tgz',
  'br',
  'zst',
  'bz2',
  'xz',
  '7z',
  'rar',
  'mp3',
  'mp4',
  'm4a',
  'webm',
  'ogg',
  'mov',
  'jar',
]);
/** Files up to this size are read and compressed whole; larger ones are streamed in chunks. */
const WHOLE_FILE_BYTES = 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;
/** Classic ZIP limits (no ZIP64): entry count, and sizes/offsets that fit 32 bits. */
const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;
/** DOS timestamps in ZIP headers cover 1980–2107; fflate accepts up to 2099. */
const MIN_MTIME = Date.UTC(1980, 0, 2);
const MAX_MTIME = Date.UTC(2099, 11, 31);
/** Unix "regular file" type bits, for the external attributes. */
const REGULAR_FILE = 0o100000;
/** Unix "symbolic link" type bits: the entry's data is the link's target (as git archive and zip -y write). */
const SYMLINK = 0o120000;

const isStored = (rel: string): boolean =>
  STORED_EXTENSIONS.has(path.posix.extname(rel).slice(1).toLowerCase());

type Reproducible = ZipDirOptions['reproducible'];

/**
 * The Date whose local-time fields are `epochMs`'s UTC fields: fflate writes DOS times from local
 * time, so without this the same artifact would differ between two machines' time zones.
 */
function dosDateOf(epochMs: number): Date {
  const at = Math.floor(epochMs / 1000) * 1000;
  return new Date(at + new Date(at).getTimezoneOffset() * 60_000);
}

const normalisedMode = (mode: number): number => (mode & 0o111 ? 0o755 : 0o644);

function entryFor(file: WalkedFile, method: ZipMethod, prefix = '', fixed?: Reproducible): NativeZipEntry {
  const entry = new NativeZipEntry(prefix + file.rel, method);
  entry.mtime = fixed
    ? dosDateOf(fixed.epochMs)
    : new Date(Math.min(MAX_MTIME, Math.max(MIN_MTIME, file.mtimeMs ?? Date.now())));
  // Unix permissions (os 3), so an executable script stays executable once unzipped.
  entry.os = 3;
  const mode = fixed ? normalisedMode(file.mode ?? 0o644) : (file.mode ?? 0o644) & 0o7777;
  entry.attrs = (mode | REGULAR_FILE) * 0x10000;
  return entry;
}

/** A link's entry: its target as stored data, with the link type in the Unix mode. */
function linkEntryFor(
  link: WalkedLink,
  prefix = '',
  fixed?: Reproducible,
): { entry: NativeZipEntry; target: Buffer } | null {
  const info = lstatSync(link.abs, { throwIfNoEntry: false });
  if (!info?.isSymbolicLink()) return null;
  const entry = new NativeZipEntry(prefix + link.rel, STORED);
  entry.mtime = fixed
    ? dosDateOf(fixed.epochMs)
    : new Date(Math.min(MAX_MTIME, Math.max(MIN_MTIME, info.mtimeMs)));
  entry.os = 3;
  entry.attrs = (SYMLINK | 0o777) * 0x10000;
  return { entry, target: Buffer.from(readlinkSync(link.abs)) };
}

/**
 * Whether a link stays inside `root` (a real path) both ways it can be read: its target as text from
 * where it stands, and followed to the end. Only such a link is zipped: extraction (capabilities/extract/
 * links.ts) keeps it as a link on the other side, so a project downloaded or sent to a worker keeps
 * its `CLAUDE.md -> AGENTS.md`; any other link is left out, as before.
 */
function linkStaysInside(root: string, link: WalkedLink): boolean {
  let target: string;
  try {
    target = readlinkSync(link.abs);
  } catch {
    return false;
  }
  if (path.isAbsolute(target) || target.includes('\\')) return false;
  // Where it stands, under the real root (the folder given may itself be reached through a link).
  const at = path.join(root, ...link.rel.split('/'));
  const lexical = path.resolve(path.dirname(at), target);
  if (lexical === root || !isWithin(root, lexical)) return false;
  let real: string | null;
  try {
    real = realWithinSync(root, at);
  } catch {
    real = null;
  }
  // Not the root nor a folder holding the link: tools that follow links would walk it forever.
  return real !== null && real !== root && !isWithin(real, at);
}

/** Unreadable files (gone since the listing, no permission) are left out of the ZIP. */
const SKIPPED_CODES = new Set(['ENOENT', 'EACCES', 'EPERM', 'EISDIR']);

function readableSync<T>(load: () => T): T | null {
  try {
    return load();
  } catch (error) {
    if (SKIPPED_CODES.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

async function readable<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (SKIPPED_CODES.has((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

/** A small file's entry data: deflated, or stored when compressed already or when it would not shrink. */
function payloadOf(rel: string, raw: Buffer): { method: ZipMethod; payload: Buffer } {
  if (raw.length > 0 && !isStored(rel)) {
    const deflated = deflateRawSync(raw, { level: DEFLATE_LEVEL, windowBits: windowBitsFor(raw.length) });
    if (deflated.length < raw.length) return { method: DEFLATED, payload: deflated };
  }
  return { method: STORED, payload: raw };
}

/**
 * Streams a ZIP of `dir` into `out` (an HTTP response, a file stream) and ends it. Names use forward
 * slashes and are UTF-8; a symbolic link is written as a link when it leads to a file or folder inside
 * `dir` (see linkStaysInside), else skipped, never followed; compressed formats (and files that would not
 * shrink) are stored, the rest deflated at level 6. Writes wait for `drain` when `out` is full. When
 * `out` closes early (the client went away) or `signal` aborts, the work stops, files are closed and
 * the result says `aborted`: nothing is thrown for that. Throws `ZipTooLargeError` (before writing)
 * when the tree needs ZIP64, and rethrows read/compression errors after destroying `out`. The caller
 * sets the response headers (Content-Type, Content-Disposition) before calling.
 */
export async function streamZipOfDir(
  dir: string,
  out: NodeJS.WritableStream,
  options: ZipDirOptions = {},
): Promise<ZipDirResult> {
  const { signal } = options;
  // Regular files depth first in name order, with size, mtime and mode; links never followed.
  const { files, links: found } = await walkFiles(path.resolve(dir), {
    stat: true,
    ...(options.exclude ? { exclude: options.exclude } : {}),
  });
  let realRoot: string | null = null;
  try {
    realRoot = realpathSync(path.resolve(dir));
  } catch {
    realRoot = null;
  }
  const links = realRoot === null ? [] : found.filter((link) => linkStaysInside(realRoot, link));
  const fixed = options.reproducible;
  /** The extra files, each as a walked file carrying its data, so they sort among the tree's. */
  const extraData = new Map<WalkedFile, Buffer>();
  for (const x of options.extra ?? []) {
    const file: WalkedFile = {
      name: path.posix.basename(x.name),
      rel: x.name,
      abs: '',
      kind: 'file',
      mode: 0o644,
      size: x.data.length,
    };
    extraData.set(file, x.data);
    files.push(file);
  }
  if (fixed) {
    // Byte order of the names, not the walk's folder-first order nor the locale's.
    const byName = (a: { rel: string }, b: { rel: string }) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0);
    files.sort(byName);
    links.sort(byName);
  }
  const inputTotal = files.reduce((sum, file) => sum + (file.size ?? 0), 0);
  if (files.length + links.length > MAX_ENTRIES || inputTotal >= MAX_BYTES) {
    throw new ZipTooLargeError(
      `${dir} holds ${files.length} files and ${inputTotal} bytes: more than a ZIP without ZIP64 can hold ` +
        `(${MAX_ENTRIES} entries, 4 GiB).`,
    );
  }

  const state: { aborted: boolean; complete: boolean; failure: unknown; needDrain: boolean } = {
    aborted: false,
    complete: false,
    failure: undefined,
    needDrain: false,
  };
  let bytes = 0;
  let inputBytes = 0;
  let count = 0;
  /** Ends the pending wait for 'drain' (also on abort). */
  let wake: (() => void) | undefined;
  /** Stops a file being streamed at once on abort. */
  const stopStreaming = new AbortController();

  const abort = () => {
    if (state.complete || state.aborted) return;
    state.aborted = true;
    stopStreaming.abort();
    wake?.();
  };
  const onClose = () => abort();
  // Stays attached: an error on the output after we are done must not become an uncaught exception.
  const onError = () => abort();
  out.on('close', onClose);
  out.on('error', onError);
  signal?.addEventListener('abort', abort, { once: true });
  if (signal?.aborted) abort();

  const zip = new Zip((error, chunk, final) => {
    if (error) {
      state.failure ??= error;
      abort();
      return;
    }
    if (state.aborted) return;
    bytes += chunk.length;
    if (!out.write(chunk)) state.needDrain = true;
    if (final) state.complete = true;
  });

  const drained = async (): Promise<void> => {
    if (!state.needDrain || state.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        wake = undefined;
        state.needDrain = false;
        resolve();
      };
      wake = done;
      out.on('drain', done);
    });
  };

  const streamFile = async (file: WalkedFile): Promise<boolean> => {
    const handle = await readable(() => open(file.abs, 'r'));
    if (handle === null) return false;
    const stored = isStored(file.rel);
    const entry = entryFor(file, stored ? STORED : DEFLATED, options.prefix, fixed);
    zip.add(entry);
    const source = handle.createReadStream({ highWaterMark: CHUNK_BYTES });
    // Raw bytes feed the entry's CRC and size on their way to the compressor.
    const measure = async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        entry.push(chunk, false);
        inputBytes += chunk.length;
        yield chunk;
      }
    };
    const write = async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) {
        entry.emit(chunk);
        await drained();
      }
    };
    try {
      if (stored) await pipeline(source, measure, write, { signal: stopStreaming.signal });
      else
        await pipeline(
          source,
          measure,
          createDeflateRaw({ level: DEFLATE_LEVEL, chunkSize: 64 * 1024 }),
          write,
          {
            signal: stopStreaming.signal,
          },
        );
    } catch (error) {
      // An abort ends the pipeline with an AbortError; only a real read or zlib error counts.
      if (state.aborted) return false;
      throw error;
    }
    if (state.aborted) return false;
    entry.push(new Uint8Array(0), true);
    return true;
  };

  const slicer = timeSlicer();
  try {
    for (const file of files) {
      if (state.aborted) break;
      if ((file.size ?? 0) > WHOLE_FILE_BYTES && !extraData.has(file)) {
        if (await streamFile(file)) count += 1;
        slicer.restart();
      } else {
        const raw = extraData.get(file) ?? readableSync(() => readFileSync(file.abs));
        if (raw !== null) {
          const { method, payload } = payloadOf(file.rel, raw);
          const entry = entryFor(file, method, options.prefix, fixed);
          zip.add(entry);
          entry.whole(raw, payload);
          inputBytes += raw.length;
          count += 1;
        }
      }
      if (state.failure !== undefined) throw state.failure;
      if (state.needDrain) {
        await drained();
        slicer.restart();
      } else {
        await slicer.pause();
      }
    }
    for (const link of links) {
      if (state.aborted) break;
      const made = readableSync(() => linkEntryFor(link, options.prefix, fixed));
      if (made === null) continue;
      zip.add(made.entry);
      made.entry.whole(made.target, made.target);
      count += 1;
      if (state.failure !== undefined) throw state.failure;
      if (state.needDrain) await drained();
    }
    if (!state.aborted) {
      zip.end();
      if (state.failure !== undefined) throw state.failure;
      out.end();
      try {
        await finished(out);
      } catch {
        // The client went away while the last bytes were in flight.
        state.aborted = true;
      }
    }
  } catch (error) {
    stopStreaming.abort();
    zip.terminate();
    destroy(out);
    throw error;
  } finally {
    out.off('close', onClose);
    signal?.removeEventListener('abort', abort);
  }

  if (state.aborted) {
    zip.terminate();
    destroy(out);
  }
  return { files: count, bytes, inputBytes, aborted: state.aborted };
}

function destroy(out: NodeJS.WritableStream): void {
  const stream = out as NodeJS.WritableStream & { destroy?: () => void; destroyed?: boolean };
  if (typeof stream.destroy === 'function' && !stream.destroyed) stream.destroy();
}

/**
 * Writes a ZIP of `dir` to `file` (tests, benchmarks, stored artifacts). A partial file is removed when
 * the ZIP fails or is aborted.
 */
export async function zipDirToFile(
  dir: string,
  file: string,
  options: ZipDirOptions = {},
): Promise<ZipDirResult> {
  const out = createWriteStream(file);
  try {
    const result = await streamZipOfDir(dir, out, options);
    if (result.aborted) {
      await finished(out).catch(() => undefined);
      await rm(file, { force: true });
    }
    return result;
  } catch (error) {
    destroy(out);
    await finished(out).catch(() => undefined);
    await rm(file, { force: true });
    throw error;
  }
}
