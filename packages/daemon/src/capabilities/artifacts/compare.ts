import crypto from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import type { RebuildFileDiff } from '@forge/shared';
import { readCentralDirectory } from '../extract/zip-reader.ts';
import { decodeEntryName } from '../extract/entry-name.ts';

/** A file of a ZIP by its content: size and sha256 of its uncompressed bytes. */
export interface ZipFileDigest {
  bytes: number;
  sha256: string;
}

/**
 * Every file of a ZIP Forge wrote (stored or deflated entries), by name, with the digest of its
 * content: what `verify --rebuild` compares, so a difference is named by file, not by ZIP bytes.
 */
export function zipDigests(file: string): Map<string, ZipFileDigest> {
  const { entries } = readCentralDirectory(fs.readFileSync(file));
  const out = new Map<string, ZipFileDigest>();
  for (const entry of entries) {
    const name = decodeEntryName(entry.rawName, entry.flags);
    if (name.endsWith('/')) continue;
    const stored = entry.compressedData();
    let data: Buffer;
    if (entry.method === 0) data = stored;
    else if (entry.method === 8) data = zlib.inflateRawSync(stored);
    else
      throw new Error(`${name} is stored with compression method ${entry.method}, which Forge never writes`);
    out.set(name, { bytes: data.length, sha256: crypto.createHash('sha256').update(data).digest('hex') });
  }
  return out;
}

/**
 * The files of two artifacts that differ: in one and not the other, or with other content. The
 * ZIPs' own bytes (dates, modes, order) are compared by the digest of the whole; these are the
 * files a reader can look into.
 */
export function compareArtifacts(artifact: string, rebuild: string): RebuildFileDiff[] {
  const a = zipDigests(artifact);
  const b = zipDigests(rebuild);
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  const diffs: RebuildFileDiff[] = [];
  for (const name of names) {
    const left = a.get(name) ?? null;
    const right = b.get(name) ?? null;
    if (left && right && left.sha256 === right.sha256) continue;
    diffs.push({ path: name, artifact: left, rebuild: right });
  }
  return diffs;
}
