import fs from 'node:fs';
import { MAX_OPEN_FILE_BYTES } from '@forge/shared';
import { ForgeError } from '../../http/forge-error.ts';

/** Files with a NUL byte in their first 8 KB are binary (git's own heuristic). */
const SNIFF_BYTES = 8 * 1024;
// ignoreBOM keeps a byte-order mark in the text, so opening and saving a file does not strip it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `bytes`, or null when they are binary (a NUL early on, or not valid UTF-8). */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The text of a project file for the editor: a regular file of at most `maxBytes` holding UTF-8
 * text, else a catalogue error the client can show as is.
 */
export function readTextFile(abs: string, rel: string, maxBytes = MAX_OPEN_FILE_BYTES): string {
  const stat = fs.statSync(abs);
  if (!stat.isFile())
    throw new ForgeError('NOT_A_FILE', `"${rel}" is a folder or a special file, not a file.`);
  if (stat.size > maxBytes) {
    throw new ForgeError('FILE_TOO_LARGE_TO_OPEN', undefined, {
      path: rel,
      size: stat.size,
      limit: maxBytes,
    });
  }
  const text = decodeText(fs.readFileSync(abs));
  if (text === null) throw new ForgeError('FILE_BINARY', undefined, { path: rel });
  return text;
}
