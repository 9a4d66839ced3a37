/**
 * The tests' ZIP writer, one for every package: `makeZip` / `writeZip` for ordinary project
 * archives, and `forgeZip` for what real zippers refuse to write (any name bytes, attributes, flags,
 * methods, CRCs and declared sizes) to test the daemon's defences. Local headers + data + central
 * directory + end record, per APPNOTE 6.3 (no zip64). Written out on purpose: it shares no code with
 * the reader it tests.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE), written out so the forger does not share code with what it tests. */
export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export const S_IFREG = 0o100000;
export const S_IFDIR = 0o040000;
export const S_IFLNK = 0o120000;
/** "Version made by": Unix (3), spec 2.0. */
const MADE_BY_UNIX = (3 << 8) | 20;
const FLAG_UTF8 = 0x0800;
const FLAG_DESCRIPTOR = 0x0008;

export interface ForgedEntry {
  /** The name; a Buffer is written byte for byte. A trailing "/" makes a folder entry. */
  name: string | Buffer;
  /** Uncompressed content; omit for folders. */
  data?: string | Buffer;
  /** 0 stored, 8 deflate (default for non-empty data), anything else is written as given. */
  method?: number;
  /** Bytes written as the entry's data instead of compressing `data`. */
  raw?: Buffer;
  /** Overrides of what the headers declare. */
  size?: number;
  compressedSize?: number;
  crc?: number;
  /** General purpose flags; the UTF-8 bit is added for non-ASCII string names unless `utf8Flag: false`. */
  flags?: number;
  utf8Flag?: boolean;
  /** Unix mode for the high 16 bits of the external attributes, e.g. 0o100755 or S_IFLNK | 0o777. */
  unixMode?: number;
  /** Low 16 bits of the external attributes (MS-DOS attributes, 0x10 = directory). */
  dosAttr?: number;
  /** Write sizes and CRC only in the central directory and a trailing data descriptor (flag bit 3). */
  descriptor?: boolean;
  /** Point the central record at this local header offset instead of the real one. */
  localOffset?: number;
}

interface Prepared {
  entry: ForgedEntry;
  nameBytes: Buffer;
  flags: number;
  method: number;
  body: Buffer;
  crc: number;
  size: number;
  compressedSize: number;
  offset: number;
}

function prepare(entry: ForgedEntry): Omit<Prepared, 'offset'> {
  const nameBytes = typeof entry.name === 'string' ? Buffer.from(entry.name, 'utf8') : entry.name;
  const data = entry.data === undefined ? Buffer.alloc(0) : Buffer.from(entry.data);
  const method = entry.method ?? (data.length > 0 ? 8 : 0);
  const body = entry.raw ?? (method === 8 ? deflateRawSync(data) : data);
  let flags = entry.flags ?? 0;
  const nonAscii = typeof entry.name === 'string' && /[^\x20-\x7e]/.test(entry.name);
  if (entry.utf8Flag ?? nonAscii) flags |= FLAG_UTF8;
  if (entry.descriptor) flags |= FLAG_DESCRIPTOR;
  return {
    entry,
    nameBytes,
    flags,
    method,
    body,
    crc: entry.crc ?? crc32(data),
    size: entry.size ?? data.length,
    compressedSize: entry.compressedSize ?? body.length,
  };
}

const DOS_TIME = 0x6000; // 12:00:00
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1;

/** Builds a ZIP archive from forged entries. */
export function forgeZip(entries: readonly ForgedEntry[], options: { comment?: string } = {}): Buffer {
  const parts: Buffer[] = [];
  const prepared: Prepared[] = [];
  let offset = 0;
  for (const entry of entries) {
    const p = { ...prepare(entry), offset };
    prepared.push(p);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(p.flags, 6);
    local.writeUInt16LE(p.method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(entry.descriptor ? 0 : p.crc, 14);
    local.writeUInt32LE(entry.descriptor ? 0 : p.compressedSize, 18);
    local.writeUInt32LE(entry.descriptor ? 0 : p.size, 22);
    local.writeUInt16LE(p.nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, p.nameBytes, p.body);
    offset += local.length + p.nameBytes.length + p.body.length;
    if (entry.descriptor) {
      const desc = Buffer.alloc(16);
      desc.writeUInt32LE(0x08074b50, 0);
      desc.writeUInt32LE(p.crc, 4);
      desc.writeUInt32LE(p.compressedSize, 8);
      desc.writeUInt32LE(p.size, 12);
      parts.push(desc);
      offset += desc.length;
    }
  }
  const cdStart = offset;
  for (const p of prepared) {
    const isDir = p.nameBytes[p.nameBytes.length - 1] === 0x2f;
    const mode = p.entry.unixMode ?? (isDir ? S_IFDIR | 0o755 : S_IFREG | 0o644);
    const dos = p.entry.dosAttr ?? (isDir ? 0x10 : 0);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(MADE_BY_UNIX, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(p.flags, 8);
    central.writeUInt16LE(p.method, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(p.crc, 16);
    central.writeUInt32LE(p.compressedSize, 20);
    central.writeUInt32LE(p.size, 24);
    central.writeUInt16LE(p.nameBytes.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(((mode << 16) | dos) >>> 0, 38);
    central.writeUInt32LE(p.entry.localOffset ?? p.offset, 42);
    parts.push(central, p.nameBytes);
    offset += central.length + p.nameBytes.length;
  }
  const comment = Buffer.from(options.comment ?? '', 'utf8');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(prepared.length, 8);
  end.writeUInt16LE(prepared.length, 10);
  end.writeUInt32LE(offset - cdStart, 12);
  end.writeUInt32LE(cdStart, 16);
  end.writeUInt16LE(comment.length, 20);
  parts.push(end, comment);
  return Buffer.concat(parts);
}

/**
 * Raw deflate data that inflates to `mib` MiB of zeros while staying ~1/1000 of that, built without
 * ever holding the output: one flushed (byte-aligned, non-final) block of 1 MiB repeated, then an
 * empty final block.
 */
export function zeroBomb(mib: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_SYNC_FLUSH });
  const end = Buffer.from([0x03, 0x00]);
  return Buffer.concat([...Array.from({ length: mib }, () => block), end]);
}

/** Files of a project by path ("src/app.js"); a Buffer is written byte for byte. */
export type ProjectFiles = Record<string, string | Buffer>;

/** A project archive: every file deflated, as `zip -r` would write it. */
export function makeZip(files: ProjectFiles): Buffer {
  return forgeZip(Object.entries(files).map(([name, data]) => ({ name, data })));
}

/** `makeZip` written to `dir/name`; returns the path. */
export function writeZip(dir: string, name: string, files: ProjectFiles): string {
  const file = join(dir, name);
  writeFileSync(file, makeZip(files));
  return file;
}

/** The entry names of a ZIP, read from its central directory (enough to check an artifact). */
export function listZip(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a ZIP: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
