import AdmZip from 'adm-zip';
import { Refusal, refuseEntry } from './refusal.ts';

/**
 * The one ZIP reader (uploads are read here, planned in plan.ts and written by write-files.ts).
 * adm-zip parses the central directory, through its public API only (`getEntries`, each entry's
 * `rawEntryName`, `header` and `getCompressedData`); what Forge needs of an entry is copied into its
 * own plain shape, so nothing else in the daemon depends on adm-zip's types.
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
   * The entry's bytes as stored, found through its local header. Throws when the local header is
   * broken or the data lies outside the archive (adm-zip checks the bounds).
   */
  compressedData(): Buffer;
}

/**
 * Reads the central directory of an archive held in memory (uploads are capped at 50 MB), in
 * central-directory order so files are later read front to back. Throws a Refusal: ARCHIVE_CORRUPT
 * when it is not a ZIP or its directory cannot be parsed, ARCHIVE_DUPLICATE_ENTRY when two entries
 * have byte-identical names (adm-zip refuses those itself, GHSA-p634-w6r4-rjp2).
 */
export function readCentralDirectory(buffer: Buffer): ArchiveEntry[] {
  try {
    return new AdmZip(buffer, { noSort: true }).getEntries().map(toArchiveEntry);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const duplicate = /Duplicate entry name "(.*)"$/s.exec(message);
    if (duplicate?.[1] !== undefined) {
      throw refuseEntry('ARCHIVE_DUPLICATE_ENTRY', duplicate[1], 'appears twice in the archive.');
    }
    throw new Refusal('ARCHIVE_CORRUPT', null, `The file is not a ZIP archive or its directory is corrupt.`);
  }
}

function toArchiveEntry(entry: AdmZip.IZipEntry): ArchiveEntry {
  const { header } = entry;
  return {
    rawName: entry.rawEntryName,
    flags: header.flags,
    method: header.method,
    crc: header.crc,
    compressedSize: header.compressedSize,
    size: header.size,
    attr: header.attr,
    compressedData: () => entry.getCompressedData(),
  };
}
