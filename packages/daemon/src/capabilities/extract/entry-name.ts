import { refuseEntry } from './refusal.ts';

/** General-purpose flag bit 11: the name (and comment) are UTF-8. */
const FLAG_UTF8 = 0x0800;
/** Longest path segment any common file system accepts (NAME_MAX), in bytes. */
export const MAX_SEGMENT_BYTES = 255;
/** Longest project-relative path we write; leaves room for the data dir under macOS's PATH_MAX of 1024. */
export const MAX_PATH_BYTES = 1024;

/** IBM code page 437, bytes 0x80-0xFF: what a ZIP name without the UTF-8 flag means by the spec. */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function decodeCp437(raw: Uint8Array): string {
  let out = '';
  for (const byte of raw) out += byte < 0x80 ? String.fromCharCode(byte) : CP437_HIGH[byte - 0x80];
  return out;
}

/**
 * The entry's name as text. With the UTF-8 flag it must be valid UTF-8. Without it the spec says
 * CP437, but macOS, 7-Zip and most JS zippers write UTF-8 without setting the flag, so valid UTF-8
 * wins and CP437 is the fallback (what Info-ZIP and Python's zipfile do in effect).
 */
export function decodeEntryName(raw: Uint8Array, flags: number): string {
  try {
    return strictUtf8.decode(raw);
  } catch {
    if (flags & FLAG_UTF8) {
      const lossy = new TextDecoder('utf-8').decode(raw);
      throw refuseEntry('ARCHIVE_BAD_NAME', lossy, 'is marked UTF-8 but its name is not valid UTF-8.');
    }
    return decodeCp437(raw);
  }
}

/** A name that passed every syntactic check: relative, clean segments, nothing to interpret. */
export interface EntryPath {
  /** Non-empty segments, none "." or "..", no "/" or "\" inside. */
  segments: string[];
  /** The name ended with "/": a folder entry. */
  isDir: boolean;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const DRIVE = /^[A-Za-z]:/;

/**
 * Checks one entry name and splits it. Throws a Refusal naming the entry. The order matters only for
 * which code a name with several faults gets; every fault is refused.
 */
export function parseEntryName(name: string): EntryPath {
  if (CONTROL.test(name)) {
    throw refuseEntry('ARCHIVE_BAD_NAME', name, 'has a NUL or control character in its name.');
  }
  if (name.includes('\\')) {
    // A backslash is a separator on Windows and a plain character here: whichever we picked, some
    // reader of the same project would disagree about where the file lives.
    throw refuseEntry('ARCHIVE_BACKSLASH', name, 'has a backslash in its name.');
  }
  if (name.startsWith('/')) {
    throw refuseEntry('ARCHIVE_ABSOLUTE_PATH', name, 'is an absolute path.');
  }
  if (DRIVE.test(name)) {
    throw refuseEntry('ARCHIVE_ABSOLUTE_PATH', name, 'is a drive path.');
  }
  const isDir = name.endsWith('/');
  const segments = (isDir ? name.slice(0, -1) : name).split('/');
  if (segments.includes('..')) {
    throw refuseEntry('ARCHIVE_PATH_TRAVERSAL', name, 'climbs out of its folder with "..".');
  }
  if (segments.some((segment) => segment === '' || segment === '.')) {
    // "a//b" or "./a" mean the same file as "a/b" and "a" to most tools but not to a naive duplicate
    // check; refusing them keeps one spelling per path.
    throw refuseEntry('ARCHIVE_BAD_PATH', name, 'has an empty or "." path segment.');
  }
  if (segments.some((segment) => Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)) {
    throw refuseEntry('ARCHIVE_BAD_PATH', name, `has a path segment longer than ${MAX_SEGMENT_BYTES} bytes.`);
  }
  if (Buffer.byteLength(name) > MAX_PATH_BYTES) {
    throw refuseEntry('ARCHIVE_BAD_PATH', name, `is longer than ${MAX_PATH_BYTES} bytes.`);
  }
  return { segments, isDir };
}

/** The key two names collide under: Unicode NFC and lower case, as case-insensitive file systems compare. */
export function foldName(path: string): string {
  return path.normalize('NFC').toLowerCase();
}
