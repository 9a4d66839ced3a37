import fs from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { readCentralDirectory } from '../extract/zip-reader.ts';

/** One file of a stored source ZIP: compared by CRC and size, read only when it changed. */
export interface SourceEntry {
  crc: number;
  size: number;
  read(): Buffer;
}

/**
 * The files of a source ZIP Forge wrote itself (a build's source.zip, a failed build's kept source):
 * path → entry. Folders are left out; names are the `/`-separated project-relative paths it wrote.
 */
export async function readSourceZip(file: string): Promise<Map<string, SourceEntry>> {
  const buf = await fs.promises.readFile(file);
  const files = new Map<string, SourceEntry>();
  for (const e of readCentralDirectory(buf).entries) {
    const name = e.rawName.toString('utf8');
    if (name.endsWith('/')) continue;
    files.set(name, {
      crc: e.crc,
      size: e.size,
      read: () => {
        const stored = e.compressedData();
        return e.method === 0 ? stored : inflateRawSync(stored, { maxOutputLength: Math.max(e.size, 1) });
      },
    });
  }
  return files;
}
