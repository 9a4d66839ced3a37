import { Refusal } from './refusal.ts';

/**
 * The one ZIP reader (uploads are read here, planned in plan.ts and written by write-files.ts). It
 * reads the central directory of an archive held in memory straight from its bytes, per APPNOTE 6.3
 * (ZIP64 included), into plain records: no object per header, no copies of names or data, so 10,000
 * entries cost a few milliseconds and little heap (adm-zip took ~100 ms and ~95 MB for as many).
 * Every offset and length read from the archive is checked against the bytes that hold it before it
 * is used; the planner then checks what the entries say.
 */

/** One entry of the central directory: what the planner checks and the writer inflates. */
export interface ArchiveEntry {
  /** The name exactly as stored (UTF-8 when flag bit 11 is set; see entry-name.ts). */
  readonly rawName: Buffer;
  /** General purpose bit flags (bit 0 encrypted, bit 11 UTF-8 name). */
  readonly flags: number;
  /** Compression method (0 stored, 8 deflated, 99 WinZip AES…). */
  readonly method: number;
  /** CRC-32 of the uncompressed bytes, as declared. */
  readonly crc: number;
  readonly compressedSize: number;
  /** Uncompressed size, as declared. */
  readonly size: number;
  /** External attributes: Unix mode in the high 16 bits, MS-DOS attributes in the low ones. */
  readonly attr: number;
  /**
   * The entry's bytes as stored, found through its local header (a view, not a copy). Throws when
   * the local header is missing or the data does not lie between it and the central directory.
   */
  compressedData(): Buffer;
}

/** What the central directory lists. */
export interface CentralDirectory {
  /** In central-directory order, so files are later read front to back; at most `maxEntries + 1`. */
  entries: ArchiveEntry[];
  /** How many entries the archive declares (may exceed `entries.length` when over `maxEntries`). */
  total: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_ZIP64_END = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const LOCAL_SIZE = 30;
const CENTRAL_SIZE = 46;
const END_SIZE = 22;
const ZIP64_END_SIZE = 56;
const ZIP64_LOCATOR_SIZE = 20;
const MAX_COMMENT = 0xffff;
/** Extra field holding the 64-bit sizes and offset of an entry whose 32-bit fields are saturated. */
const EXTRA_ZIP64 = 0x0001;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;

/** Thrown for any structural fault; the caller turns it into ARCHIVE_CORRUPT. */
class Corrupt extends Error {}

class ZipEntry implements ArchiveEntry {
  constructor(
    private readonly archive: Buffer,
    /** Where the entries' data must end: the start of the central directory. */
    private readonly dataLimit: number,
    readonly rawName: Buffer,
    readonly flags: number,
    readonly method: number,
    readonly crc: number,
    readonly compressedSize: number,
    readonly size: number,
    readonly attr: number,
    private readonly localOffset: number,
  ) {}

  compressedData(): Buffer {
    const buf = this.archive;
    const at = this.localOffset;
    if (at + LOCAL_SIZE > this.dataLimit || buf.readUInt32LE(at) !== SIG_LOCAL) {
      throw new Error('no local header where the central directory says');
    }
    // The local header's own sizes may be zero (data descriptor); only its name and extra lengths
    // are taken from it, to find where the data starts.
    const start = at + LOCAL_SIZE + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
    const end = start + this.compressedSize;
    if (end > this.dataLimit) throw new Error('entry data runs into the central directory');
    return buf.subarray(start, end);
  }
}

/** Where the end of central directory record starts: the last one whose comment fits the file. */
function findEnd(buf: Buffer): number {
  const lowest = Math.max(0, buf.length - END_SIZE - MAX_COMMENT);
  for (let at = buf.length - END_SIZE; at >= lowest; at--) {
    if (buf[at] === 0x50 && buf.readUInt32LE(at) === SIG_END) {
      if (at + END_SIZE + buf.readUInt16LE(at + 20) <= buf.length) return at;
    }
  }
  throw new Corrupt('no end of central directory record');
}

/** A 64-bit field as a number; anything past the archive is corrupt whatever its exact value. */
function readU64(buf: Buffer, at: number, limit: number): number {
  const value = buf.readBigUInt64LE(at);
  if (value > BigInt(limit)) throw new Corrupt('a 64-bit size or offset points past the archive');
  return Number(value);
}

interface Directory {
  total: number;
  start: number;
  size: number;
  /** The first byte after the central directory that belongs to the end records. */
  limit: number;
}

function locateDirectory(buf: Buffer): Directory {
  const end = findEnd(buf);
  let total = buf.readUInt16LE(end + 10);
  let size = buf.readUInt32LE(end + 12);
  let start = buf.readUInt32LE(end + 16);
  let limit = end;
  if (total === U16_MAX || size === U32_MAX || start === U32_MAX) {
    const locator = end - ZIP64_LOCATOR_SIZE;
    if (locator >= 0 && buf.readUInt32LE(locator) === SIG_ZIP64_LOCATOR) {
      const at = readU64(buf, locator + 8, locator - ZIP64_END_SIZE);
      if (buf.readUInt32LE(at) !== SIG_ZIP64_END) throw new Corrupt('no ZIP64 end record');
      total = readU64(buf, at + 32, buf.length);
      size = readU64(buf, at + 40, buf.length);
      start = readU64(buf, at + 48, buf.length);
      limit = at;
    }
  }
  if (start + size > limit) throw new Corrupt('the central directory overlaps its end record');
  // Every entry takes at least 46 bytes: a count the directory cannot hold is a lie.
  if (total * CENTRAL_SIZE > size) throw new Corrupt('more entries declared than the directory holds');
  return { total, start, size, limit };
}

/** The ZIP64 extra field's values for the 32-bit fields that are saturated, in the spec's order. */
function zip64Values(
  buf: Buffer,
  from: number,
  to: number,
  want: { size: boolean; compressedSize: boolean; offset: boolean },
  limit: number,
): { size?: number; compressedSize?: number; offset?: number } {
  for (let at = from; at + 4 <= to;) {
    const id = buf.readUInt16LE(at);
    const length = buf.readUInt16LE(at + 2);
    const body = at + 4;
    if (body + length > to) break;
    if (id === EXTRA_ZIP64) {
      const out: { size?: number; compressedSize?: number; offset?: number } = {};
      let field = body;
      const take = (bounded: boolean): number => {
        if (field + 8 > body + length) throw new Corrupt('a ZIP64 extra field is too short');
        // An uncompressed size may exceed the archive (the limits judge it); where bytes lie may not.
        const value = bounded ? readU64(buf, field, limit) : Number(buf.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      if (want.size) out.size = take(false);
      if (want.compressedSize) out.compressedSize = take(true);
      if (want.offset) out.offset = take(true);
      return out;
    }
    at = body + length;
  }
  throw new Corrupt('a saturated size or offset has no ZIP64 extra field');
}

/**
 * Reads the central directory of an archive held in memory (uploads are capped at 50 MB), in
 * central-directory order. Stops after `maxEntries + 1` entries: the planner refuses the archive
 * then, naming the first entry over, and a hostile count costs no memory. Throws a Refusal
 * (ARCHIVE_CORRUPT) when it is not a ZIP or its directory does not hold together.
 */
export function readCentralDirectory(buf: Buffer, maxEntries = Number.POSITIVE_INFINITY): CentralDirectory {
  try {
    const dir = locateDirectory(buf);
    const end = dir.start + dir.size;
    const entries: ArchiveEntry[] = [];
    const count = Math.min(dir.total, maxEntries + 1);
    let at = dir.start;
    for (let i = 0; i < count; i++) {
      if (at + CENTRAL_SIZE > end || buf.readUInt32LE(at) !== SIG_CENTRAL) {
        throw new Corrupt('a central directory record is missing');
      }
      const nameLength = buf.readUInt16LE(at + 28);
      const extraLength = buf.readUInt16LE(at + 30);
      const nameStart = at + CENTRAL_SIZE;
      const extraStart = nameStart + nameLength;
      const next = extraStart + extraLength + buf.readUInt16LE(at + 32);
      if (next > end) throw new Corrupt('a central directory record runs past the directory');
      let compressedSize = buf.readUInt32LE(at + 20);
      let size = buf.readUInt32LE(at + 24);
      let offset = buf.readUInt32LE(at + 42);
      if (compressedSize === U32_MAX || size === U32_MAX || offset === U32_MAX) {
        const wide = zip64Values(
          buf,
          extraStart,
          extraStart + extraLength,
          { size: size === U32_MAX, compressedSize: compressedSize === U32_MAX, offset: offset === U32_MAX },
          buf.length,
        );
        size = wide.size ?? size;
        compressedSize = wide.compressedSize ?? compressedSize;
        offset = wide.offset ?? offset;
      }
      entries.push(
        new ZipEntry(
          buf,
          dir.start,
          buf.subarray(nameStart, extraStart),
          buf.readUInt16LE(at + 8),
          buf.readUInt16LE(at + 10),
          buf.readUInt32LE(at + 16),
          compressedSize,
          size,
          buf.readUInt32LE(at + 38),
          offset,
        ),
      );
      at = next;
    }
    return { entries, total: dir.total };
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal('ARCHIVE_CORRUPT', null, 'The file is not a ZIP archive or its directory is corrupt.');
  }
}
