import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, forgeZip, S_IFREG, type ForgedEntry } from '@forge/testing';
import { Refusal } from './refusal.ts';
import { readCentralDirectory } from './zip-reader.ts';

const END_SIZE = 22;
const file = (name: string, data = `content of ${name}\n`): ForgedEntry => ({ name, data });

/** The end of central directory record of an archive without a comment. */
const endOf = (zip: Buffer): number => zip.length - END_SIZE;

function corrupt(zip: Buffer, maxEntries?: number): unknown {
  try {
    readCentralDirectory(zip, maxEntries);
  } catch (error) {
    return error;
  }
  return 'read without a refusal';
}

/**
 * A ZIP64 archive of stored files, written out by hand (nothing in the repo writes ZIP64): every
 * size and offset of the central directory and of the end record is saturated and carried in the
 * ZIP64 extra field and the ZIP64 end record instead, as zippers do past 4 GiB or 65,535 entries.
 */
function zip64(files: Array<{ name: string; data: Buffer }>): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of files) {
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(45, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    parts.push(local, nameBytes, data);

    const extra = Buffer.alloc(4 + 24);
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(24, 2);
    extra.writeBigUInt64LE(BigInt(data.length), 4); // uncompressed
    extra.writeBigUInt64LE(BigInt(data.length), 12); // compressed
    extra.writeBigUInt64LE(BigInt(offset), 20); // local header offset
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE((3 << 8) | 45, 4);
    record.writeUInt16LE(45, 6);
    record.writeUInt32LE(crc32(data), 16);
    record.writeUInt32LE(0xffffffff, 20);
    record.writeUInt32LE(0xffffffff, 24);
    record.writeUInt16LE(nameBytes.length, 28);
    record.writeUInt16LE(extra.length, 30);
    record.writeUInt32LE(((S_IFREG | 0o644) << 16) >>> 0, 38);
    record.writeUInt32LE(0xffffffff, 42);
    central.push(record, nameBytes, extra);
    offset += local.length + nameBytes.length + data.length;
  }
  const cdStart = offset;
  const cd = Buffer.concat(central);
  const end64 = Buffer.alloc(56);
  end64.writeUInt32LE(0x06064b50, 0);
  end64.writeBigUInt64LE(44n, 4);
  end64.writeUInt16LE(45, 12);
  end64.writeUInt16LE(45, 14);
  end64.writeBigUInt64LE(BigInt(files.length), 24);
  end64.writeBigUInt64LE(BigInt(files.length), 32);
  end64.writeBigUInt64LE(BigInt(cd.length), 40);
  end64.writeBigUInt64LE(BigInt(cdStart), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(cdStart + cd.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(END_SIZE);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([...parts, cd, end64, locator, end]);
}

describe('readCentralDirectory', () => {
  it('reads every field the planner checks, and finds each entry’s data through its local header', () => {
    const zip = forgeZip([
      file('src/index.js', 'export {};\n'.repeat(20)),
      { name: 'bin/run', data: '#!/bin/sh\n', method: 0, unixMode: S_IFREG | 0o755 },
      { name: 'assets/' },
      { name: 'late.txt', data: 'described after its data', descriptor: true },
    ]);
    const { entries, total } = readCentralDirectory(zip);
    expect(total).toBe(4);
    expect(
      entries.map((e) => ({
        name: e.rawName.toString(),
        method: e.method,
        size: e.size,
        mode: (e.attr >>> 16).toString(8),
        flags: e.flags,
      })),
    ).toEqual([
      { name: 'src/index.js', method: 8, size: 220, mode: '100644', flags: 0 },
      { name: 'bin/run', method: 0, size: 10, mode: '100755', flags: 0 },
      { name: 'assets/', method: 0, size: 0, mode: '40755', flags: 0 },
      { name: 'late.txt', method: 8, size: 24, mode: '100644', flags: 0x0008 },
    ]);
    const [index, run, , late] = entries;
    expect(index?.compressedData().equals(deflateRawSync('export {};\n'.repeat(20)))).toBe(true);
    expect(index?.crc).toBe(crc32(Buffer.from('export {};\n'.repeat(20))));
    expect(run?.compressedData().toString()).toBe('#!/bin/sh\n');
    expect(late?.compressedData().equals(deflateRawSync('described after its data'))).toBe(true);
  });

  it('reads ZIP64: counts, sizes and offsets from the ZIP64 end record and extra fields', () => {
    const files = [
      { name: 'a.txt', data: Buffer.from('first') },
      { name: 'dir/b.txt', data: Buffer.from('second file') },
    ];
    const { entries, total } = readCentralDirectory(zip64(files));
    expect(total).toBe(2);
    expect(entries.map((e) => [e.rawName.toString(), e.size, e.compressedSize])).toEqual([
      ['a.txt', 5, 5],
      ['dir/b.txt', 11, 11],
    ]);
    expect(entries.map((e) => e.compressedData().toString())).toEqual(['first', 'second file']);
  });

  it('reads an archive with a comment', () => {
    const zip = forgeZip([file('a.txt')], { comment: 'made by a zipper' });
    expect(readCentralDirectory(zip).entries.map((e) => e.rawName.toString())).toEqual(['a.txt']);
  });

  it('stops after maxEntries + 1 entries and says how many there are', () => {
    const zip = forgeZip(Array.from({ length: 50 }, (_, i) => file(`f${i}.txt`)));
    const { entries, total } = readCentralDirectory(zip, 10);
    expect(total).toBe(50);
    expect(entries.map((e) => e.rawName.toString())).toEqual(
      Array.from({ length: 11 }, (_, i) => `f${i}.txt`),
    );
  });

  it.each<[string, (zip: Buffer) => Buffer]>([
    ['not a ZIP at all', () => Buffer.from('just some text, long enough to hold an end record')],
    ['an empty file', () => Buffer.alloc(0)],
    [
      'more entries declared than the directory can hold',
      (zip) => {
        zip.writeUInt16LE(5_000, endOf(zip) + 8);
        zip.writeUInt16LE(5_000, endOf(zip) + 10);
        return zip;
      },
    ],
    [
      'a directory that overlaps the end record',
      (zip) => {
        zip.writeUInt32LE(zip.readUInt32LE(endOf(zip) + 12) + 40, endOf(zip) + 12);
        return zip;
      },
    ],
    [
      'a record whose name runs past the directory',
      (zip) => {
        zip.writeUInt16LE(60_000, zip.readUInt32LE(endOf(zip) + 16) + 28);
        return zip;
      },
    ],
    [
      'a record without its signature',
      (zip) => {
        zip.writeUInt32LE(0x12345678, zip.readUInt32LE(endOf(zip) + 16));
        return zip;
      },
    ],
    [
      'a saturated offset without a ZIP64 extra field',
      (zip) => {
        zip.writeUInt32LE(0xffffffff, zip.readUInt32LE(endOf(zip) + 16) + 42);
        return zip;
      },
    ],
  ])('refuses %s as ARCHIVE_CORRUPT', (_label, damage) => {
    const error = corrupt(damage(forgeZip([file('a.txt'), file('b.txt')])));
    expect(error).toBeInstanceOf(Refusal);
    expect(error).toMatchObject({ code: 'ARCHIVE_CORRUPT', entry: null });
  });

  it('refuses a ZIP64 end record that points past the archive', () => {
    const zip = zip64([{ name: 'a.txt', data: Buffer.from('x') }]);
    // The locator's offset of the ZIP64 end record: 20 bytes before the classic end record.
    zip.writeBigUInt64LE(BigInt(zip.length * 2), endOf(zip) - 20 + 8);
    expect(corrupt(zip)).toMatchObject({ code: 'ARCHIVE_CORRUPT' });
  });

  it('finds no data for an entry whose local header is elsewhere or whose data runs into the directory', () => {
    const zip = forgeZip([file('a.txt'), { name: 'lost.txt', data: 'x', localOffset: 5 }]);
    const [ok, lost] = readCentralDirectory(zip).entries;
    expect(ok?.compressedData().length).toBeGreaterThan(0);
    expect(() => lost?.compressedData()).toThrow(/local header/);

    const long = forgeZip([{ name: 'a.txt', data: 'stored', method: 0, compressedSize: 10_000 }]);
    const [entry] = readCentralDirectory(long).entries;
    expect(() => entry?.compressedData()).toThrow(/central directory/);
  });
});
