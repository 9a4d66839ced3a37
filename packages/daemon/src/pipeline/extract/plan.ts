import { decodeEntryName, foldName, parseEntryName } from './entry-name.ts';
import type { ExtractLimits } from './limits.ts';
import { printable, Refusal, refuseEntry } from './refusal.ts';
import type { ArchiveEntry, CentralDirectory } from './zip-reader.ts';

/** A file that passed every check and will be inflated and written. */
export interface PlannedFile {
  readonly isDir: false;
  entry: ArchiveEntry;
  /** The name as it appears in the archive, for messages. */
  rawName: string;
  /** Project-relative path after the top-level folder is stripped; forward slashes. */
  path: string;
  /** Declared uncompressed size from the central directory; the inflated bytes must match it. */
  size: number;
  executable: boolean;
}

/** A folder to create: one the archive lists, or one its files need. */
export interface PlannedDir {
  readonly isDir: true;
  /** Project-relative; forward slashes. */
  path: string;
}

export interface ExtractionPlan {
  /** In central-directory order: reading the archive front to back. */
  files: PlannedFile[];
  /**
   * Every folder (listed or needed) and file of the project, in the order a walk of the written tree
   * yields them (fs/walk.ts): depth first, pre-order, each folder's entries sorted by name in UTF-16
   * code units. Folders come before what they hold, so creating them in this order never needs a
   * recursive mkdir; hashing in this order gives fs/tree-hash.ts's digest without reading back.
   */
  order: Array<PlannedFile | PlannedDir>;
  /** What was left out, sorted: junk folders with a trailing "/", junk files as they are. */
  dropped: string[];
  strippedPrefix: string | null;
  /** Sum of the kept files' declared sizes. */
  totalBytes: number;
}

const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;
/** WinZip AES: encrypted even if a tool forgot flag bit 0. */
const METHOD_AES = 99;
const FLAG_ENCRYPTED = 0x0001;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;
const DOS_DIRECTORY = 0x10;

interface KeptEntry {
  rawName: string;
  segments: string[];
  isDir: boolean;
  entry: ArchiveEntry;
  executable: boolean;
}

/**
 * Where a junk entry's dropped subtree starts ("a/node_modules/", "__MACOSX/", "src/.DS_Store"), or
 * null when the entry is kept. Case-insensitive: on macOS and Windows "Node_Modules" is node_modules.
 */
function junkRoot(segments: readonly string[], isDir: boolean): string | null {
  for (let i = 0; i < segments.length; i++) {
    const lower = (segments[i] as string).toLowerCase();
    if (lower === 'node_modules' || lower === '__macosx') {
      const isFolder = i < segments.length - 1 || isDir;
      return segments.slice(0, i + 1).join('/') + (isFolder ? '/' : '');
    }
  }
  if (!isDir && segments[segments.length - 1] === '.DS_Store') return segments.join('/');
  return null;
}

const formatCount = (n: number): string => n.toLocaleString('en-US');
const formatMiB = (bytes: number): string => `${formatCount(Math.round(bytes / (1024 * 1024)))} MB`;

/**
 * Validates every entry of the central directory and decides what gets written where, before a single
 * byte is written. Throws a Refusal for the first fault found.
 */
export function planExtraction(directory: CentralDirectory, limits: ExtractLimits): ExtractionPlan {
  const { entries, total } = directory;
  if (total > limits.maxEntries) {
    const first = entries[limits.maxEntries];
    const name = first === undefined ? '' : new TextDecoder().decode(first.rawName);
    throw refuseEntry(
      'ARCHIVE_TOO_MANY_ENTRIES',
      name,
      `is entry ${formatCount(limits.maxEntries + 1)} of ${formatCount(total)}; ` +
        `an archive may have at most ${formatCount(limits.maxEntries)}.`,
    );
  }

  const kept: KeptEntry[] = [];
  const dropped = new Set<string>();
  let totalBytes = 0;

  for (const entry of entries) {
    const rawName = decodeEntryName(entry.rawName, entry.flags);
    const parsed = parseEntryName(rawName);

    // Junk is dropped before the content checks: a zipped node_modules routinely holds symlinks
    // (.bin) and big binaries, and none of it reaches the disk. Its name was still checked above.
    const junk = junkRoot(parsed.segments, parsed.isDir);
    if (junk !== null) {
      dropped.add(junk);
      continue;
    }

    // Unix mode lives in the high 16 bits of the external attributes (zip's "version made by" Unix).
    // Checked whatever host the archive claims: a forged host byte must not hide a link.
    const mode = entry.attr >>> 16;
    if ((mode & S_IFMT) === S_IFLNK) {
      throw refuseEntry('ARCHIVE_SYMLINK', rawName, 'is a symbolic link.');
    }
    if (entry.flags & FLAG_ENCRYPTED || entry.method === METHOD_AES) {
      throw refuseEntry('ARCHIVE_ENCRYPTED', rawName, 'is encrypted.');
    }
    const markedDir = (mode & S_IFMT) === S_IFDIR || (entry.attr & DOS_DIRECTORY) !== 0;
    const isDir = parsed.isDir || (markedDir && entry.size === 0 && entry.compressedSize === 0);
    if (isDir) {
      kept.push({ rawName, segments: parsed.segments, isDir: true, entry, executable: false });
      continue;
    }

    if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATED) {
      throw refuseEntry(
        'ARCHIVE_CORRUPT',
        rawName,
        `uses compression method ${entry.method}; Forge reads stored and deflated entries only.`,
      );
    }
    if (entry.size > limits.ratioMinBytes) {
      const ratio = entry.compressedSize === 0 ? Infinity : entry.size / entry.compressedSize;
      if (ratio > limits.maxRatio) {
        const shown = Number.isFinite(ratio) ? `${formatCount(Math.round(ratio))}:1` : 'from nothing';
        throw refuseEntry(
          'ARCHIVE_RATIO',
          rawName,
          `expands ${shown} (the limit is ${formatCount(limits.maxRatio)}:1 for files over ` +
            `${formatMiB(limits.ratioMinBytes)}); refusing a possible ZIP bomb.`,
        );
      }
    }
    totalBytes += entry.size;
    if (totalBytes > limits.maxTotalBytes) {
      throw refuseEntry(
        'ARCHIVE_TOO_LARGE',
        rawName,
        `brings the archive's uncompressed size over ${formatMiB(limits.maxTotalBytes)}.`,
      );
    }
    kept.push({ rawName, segments: parsed.segments, isDir: false, entry, executable: (mode & 0o111) !== 0 });
  }

  checkCollisions(kept);

  if (!kept.some((k) => !k.isDir)) {
    const junk = dropped.size > 0 ? ` (besides dropped ${[...dropped].sort().slice(0, 3).join(', ')})` : '';
    throw new Refusal('ARCHIVE_EMPTY', null, `The archive has no files${junk}.`);
  }

  const strippedPrefix = commonTopFolder(kept);
  const skip = strippedPrefix === null ? 0 : 1;
  const files: PlannedFile[] = [];
  const tree = new TreeNode();
  for (const k of kept) {
    const segments = skip === 0 ? k.segments : k.segments.slice(1);
    if (segments.length === 0) continue; // the stripped top folder's own entry
    const node = segments.reduce((parent, name) => parent.child(name), tree);
    if (k.isDir) continue;
    const file: PlannedFile = {
      isDir: false,
      entry: k.entry,
      rawName: k.rawName,
      path: segments.join('/'),
      size: k.entry.size,
      executable: k.executable,
    };
    node.file = file;
    files.push(file);
  }
  const order: Array<PlannedFile | PlannedDir> = [];
  tree.list('', order);
  return { files, order, dropped: [...dropped].sort(), strippedPrefix, totalBytes };
}

/** The project as a tree, to list it in walk order. Names are unique per folder (checkCollisions). */
class TreeNode {
  children: Map<string, TreeNode> | null = null;
  file: PlannedFile | null = null;

  /** The child called `name`, made if missing. */
  child(name: string): TreeNode {
    this.children ??= new Map();
    let child = this.children.get(name);
    if (child === undefined) {
      child = new TreeNode();
      this.children.set(name, child);
    }
    return child;
  }

  /** Appends this folder's entries, depth first, each folder's by name as walk.ts sorts them. */
  list(rel: string, out: Array<PlannedFile | PlannedDir>): void {
    if (this.children === null) return;
    // The default sort compares UTF-16 code units, exactly like walk.ts's byName.
    for (const name of [...this.children.keys()].sort()) {
      const child = this.children.get(name) as TreeNode;
      const path = rel === '' ? name : `${rel}/${name}`;
      if (child.file !== null) {
        out.push(child.file);
      } else {
        out.push({ isDir: true, path });
        child.list(path, out);
      }
    }
  }
}

/**
 * Two entries must never land on the same path, on any file system Forge or the user may copy the
 * project to: names are compared after Unicode NFC and case folding, trailing "/" ignored. A path may
 * be a file or a folder, not both ("a" and "a/b"), and a folder keeps one spelling ("App/x", "app/y").
 */
function checkCollisions(kept: readonly KeptEntry[]): void {
  const files = new Map<string, string>();
  const dirs = new Map<string, string>();
  const explicitDirs = new Map<string, string>();

  const claimDir = (path: string, k: KeptEntry): void => {
    const key = foldName(path);
    const file = files.get(key);
    if (file !== undefined) {
      throw refuseEntry(
        'ARCHIVE_DUPLICATE_ENTRY',
        k.rawName,
        `needs a folder "${printable(path)}", but "${printable(file)}" is a file.`,
      );
    }
    const seen = dirs.get(key);
    if (seen === undefined) dirs.set(key, path);
    else if (seen !== path) {
      throw refuseEntry(
        'ARCHIVE_DUPLICATE_ENTRY',
        k.rawName,
        `has a folder "${printable(path)}" that differs from "${printable(seen)}" only in case or Unicode form.`,
      );
    }
  };

  // Claiming the same exact folder twice changes nothing: a later file with its name is refused when
  // that file is claimed. Skipping repeats keeps this linear in the number of distinct folders.
  const claimed = new Set<string>();
  for (const k of kept) {
    let prefix = '';
    for (let depth = 0; depth < k.segments.length - 1; depth++) {
      prefix = depth === 0 ? (k.segments[0] as string) : `${prefix}/${k.segments[depth] as string}`;
      if (claimed.has(prefix)) continue;
      claimed.add(prefix);
      claimDir(prefix, k);
    }
    const path = k.segments.join('/');
    const key = foldName(path);
    if (k.isDir) {
      const twin = explicitDirs.get(key);
      if (twin !== undefined) {
        throw refuseEntry(
          'ARCHIVE_DUPLICATE_ENTRY',
          k.rawName,
          `has the same name as "${printable(twin)}" (ignoring case).`,
        );
      }
      explicitDirs.set(key, k.rawName);
      claimDir(path, k);
    } else {
      const twin = files.get(key);
      if (twin !== undefined) {
        throw refuseEntry(
          'ARCHIVE_DUPLICATE_ENTRY',
          k.rawName,
          `has the same name as "${printable(twin)}" (ignoring case).`,
        );
      }
      if (dirs.has(key)) {
        throw refuseEntry(
          'ARCHIVE_DUPLICATE_ENTRY',
          k.rawName,
          `is a file, but "${printable(dirs.get(key) ?? path)}" is also a folder.`,
        );
      }
      files.set(key, path);
    }
  }
}

/** The one folder every kept entry lives in ("myapp" for myapp/src/…, myapp/package.json), if any. */
function commonTopFolder(kept: readonly KeptEntry[]): string | null {
  const top = kept[0]?.segments[0];
  if (top === undefined) return null;
  const allInside = kept.every((k) => k.segments[0] === top && (k.segments.length > 1 || k.isDir));
  return allInside ? top : null;
}
