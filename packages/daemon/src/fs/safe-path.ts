import fs from 'node:fs';
import path from 'node:path';
import { isWithin } from './contain.ts';
import { ForgeError } from '../http/forge-error.ts';

/** Longest name of one path segment, in bytes (ext4, APFS and NTFS all stop at 255). */
const MAX_SEGMENT_BYTES = 255;
/** Longest relative path accepted (Linux PATH_MAX is 4096 for the whole absolute path). */
const MAX_PATH_CHARS = 1024;
const DRIVE = /^[A-Za-z]:/;
// C0 controls and DEL: no editor or tree can show them, and NUL truncates paths in C.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

const invalid = (why: string, input: string): never => {
  throw new ForgeError('PATH_INVALID', `The path "${printable(input)}" is not valid: ${why}.`);
};
const outside = (why: string, input: string): never => {
  throw new ForgeError(
    'PATH_OUTSIDE_PROJECT',
    `The path "${printable(input)}" leads outside the project: ${why}.`,
  );
};
// NUL and other controls are shown escaped, so the message itself stays one clean line.
const printable = (s: string): string =>
  s
    .slice(0, 200)
    .replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(LONE_SURROGATES, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/**
 * Check a client-given project-relative path and return it normalised ("a/b/c"), or "" for the
 * project root when `allowRoot`. The path arrives already decoded (query string or JSON body) and is
 * never decoded again: "%2e%2e" is a file name, not "..".
 */
export function checkRelPath(input: string, opts: { allowRoot?: boolean } = {}): string {
  if (input.includes('\0')) invalid('it contains a NUL byte', input);
  if (CONTROL.test(input)) invalid('it contains a control character', input);
  // A lone surrogate ("\ud800" in JSON) has no UTF-8 form: the file system would get U+FFFD instead,
  // so two different paths would name one file.
  if (LONE_SURROGATE.test(input)) invalid('it is not valid Unicode (a lone surrogate)', input);
  if (input.startsWith('/') || input.startsWith('\\')) outside('it is an absolute path', input);
  if (DRIVE.test(input)) outside('it starts with a drive letter', input);
  if (input.includes('\\')) invalid('use forward slashes (/), not backslashes', input);
  if (input.length > MAX_PATH_CHARS) invalid(`it is longer than ${MAX_PATH_CHARS} characters`, input);
  if (input === '') {
    if (opts.allowRoot) return '';
    invalid('it is empty', input);
  }
  const segments = input.split('/');
  for (const segment of segments) {
    if (segment === '..') outside('it contains a ".." segment', input);
    if (segment === '') invalid('it has an empty segment (// or a leading or trailing /)', input);
    if (segment === '.') invalid('it has a "." segment', input);
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
      invalid(`a name is longer than ${MAX_SEGMENT_BYTES} bytes`, input);
  }
  return segments.join('/');
}

const realpathOrNull = (p: string): string | null => {
  try {
    return fs.realpathSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
      return null;
    throw err;
  }
};

export interface ProjectRoot {
  /** realpath of the project folder: every resolved path must stay inside it. */
  real: string;
}

export function projectRoot(dir: string): ProjectRoot {
  return { real: fs.realpathSync(dir) };
}

const requireWithin = (root: ProjectRoot, real: string, input: string): string =>
  isWithin(root.real, real) ? real : outside('it goes through a link that points out of the project', input);

/**
 * An existing file or folder, links followed: its real path, which must stay inside the project.
 * For reads and saves of existing files.
 */
export function resolveExisting(root: ProjectRoot, rel: string): string {
  const real = realpathOrNull(path.join(root.real, rel));
  if (real !== null) return requireWithin(root, real, rel);
  // Missing, or a dangling link: one that points out must read as "outside", not as "missing".
  const entry = resolveLinkParent(root, rel);
  const stat = lstatOrNull(entry);
  if (stat?.isSymbolicLink()) {
    requireWithin(root, path.resolve(path.dirname(entry), fs.readlinkSync(entry)), rel);
  }
  throw new ForgeError('FILE_NOT_FOUND', `There is no file or folder "${rel}" in the project.`);
}

/**
 * A path that is about to be created (create, rename target, save of a new file): its nearest
 * existing ancestor, links followed, must be inside the project. Returns the absolute path to create
 * (the real ancestor plus the missing segments), and whether something already exists there.
 */
export function resolveNew(root: ProjectRoot, rel: string): { abs: string; exists: boolean } {
  const segments = rel.split('/');
  // The nearest existing ancestor folder (links followed) decides where the new path lands.
  for (let i = segments.length - 1; i >= 0; i--) {
    const ancestor = path.join(root.real, ...segments.slice(0, i));
    if (!lstatOrNull(ancestor)) continue;
    const where = segments.slice(0, i).join('/');
    const real = realpathOrNull(ancestor);
    if (real === null) invalid(`"${where}" is a link that points nowhere`, rel);
    requireWithin(root, real!, rel);
    if (!fs.statSync(real!).isDirectory()) invalid(`"${where}" is a file, not a folder`, rel);
    const abs = path.join(real!, ...segments.slice(i));
    // lstat: a link at the target (even a dangling one) counts as "exists" and is never followed.
    const exists = i === segments.length - 1 && lstatOrNull(abs) !== null;
    return { abs, exists };
  }
  // Unreachable while the root exists; the caller checked that it does.
  throw new ForgeError('FILE_NOT_FOUND', 'The project folder is gone.');
}

/**
 * The entry itself, without following a link at its last segment (delete and rename-from act on a
 * link, never on what it points to). Its parent folder, links followed, must be inside the project.
 */
export function resolveLinkParent(root: ProjectRoot, rel: string): string {
  const parentRel = path.posix.dirname(rel);
  const parent = parentRel === '.' ? root.real : realpathOrNull(path.join(root.real, parentRel));
  if (parent === null)
    throw new ForgeError('FILE_NOT_FOUND', `There is no folder "${parentRel}" in the project.`);
  requireWithin(root, parent, rel);
  return path.join(parent, path.posix.basename(rel));
}

export function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}
