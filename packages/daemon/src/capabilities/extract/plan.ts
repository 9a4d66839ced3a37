import { decodeEntryName, foldName, parseEntryName } from './entry-name.ts';
import { findInstallTrees } from './install-trees.ts';
import type { ExtractLimits } from './limits.ts';
import { placeLinks, readLinkTarget, type LinkEntry, type LinkPolicy } from './links.ts';
import { printable, Refusal, refuseEntry } from './refusal.ts';
import type { ArchiveEntry, CentralDirectory } from './zip-reader.ts';

/** A file that passed every check and will be inflated and written. */
export interface PlannedFile {
  readonly isDir: false;
  readonly kind: 'file';
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
  readonly kind: 'dir';
  /** Project-relative; forward slashes. */
  path: string;
}

/** A symbolic link kept: its target leads to a file or folder the archive writes (links.ts). */
export interface PlannedLink {
  readonly isDir: false;
  readonly kind: 'link';
  rawName: string;
  /** Project-relative; forward slashes. */
  path: string;
  /** The target as the archive stores it (relative, forward slashes), written as is. */
  target: string;
}

/** A symbolic link the archive holds that is not written, and why (for the log and the record). */
export interface DroppedLink {
  /** Project-relative path (after the top folder is stripped), printable. */
  path: string;
  /** Its target as stored, printable; null when it could not be read as text. */
  target: string | null;
  reason: string;
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
  order: Array<PlannedFile | PlannedDir | PlannedLink>;
  /** What was left out, sorted: junk folders with a trailing "/", junk files as they are. */
  dropped: string[];
  /** The links kept, in walk order; written after every file. */
  links: PlannedLink[];
  /** The links left out, in archive order, each with its reason. */
  droppedLinks: DroppedLink[];
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

/** One entry with its checked name, before anything about its content is decided. */
interface NamedEntry {
  entry: ArchiveEntry;
  rawName: string;
  segments: string[];
  isDir: boolean;
  mode: number;
  /** A link's target, once read (install-trees.ts may read it first, to tell installs apart). */
  link?: ReturnType<typeof readLinkTarget>;
}

/**
 * Where a junk entry's dropped subtree starts ("__MACOSX/", "a/.git/", "src/.DS_Store"), or null
 * when the entry is not junk. Case-insensitive: on macOS and Windows ".GIT" is .git.
 */
function junkRoot(segments: readonly string[], isDir: boolean): string | null {
  for (let i = 0; i < segments.length; i++) {
    const lower = (segments[i] as string).toLowerCase();
    // A repository's history (or a submodule's pointer file) is no part of the project's files.
    if (lower === '__macosx' || lower === '.git') {
      const isFolder = i < segments.length - 1 || isDir;
      return segments.slice(0, i + 1).join('/') + (isFolder ? '/' : '');
    }
  }
  if (!isDir && segments[segments.length - 1] === '.DS_Store') return segments.join('/');
  return null;
}

const formatCount = (n: number): string => n.toLocaleString('en-US');
const formatMiB = (bytes: number): string => `${formatCount(Math.round(bytes / (1024 * 1024)))} MB`;

const isLinkMode = (mode: number): boolean => (mode & S_IFMT) === S_IFLNK;

/**
 * Validates every entry of the central directory and decides what gets written where, before a single
 * byte is written. Throws a Refusal for the first fault found; a link that cannot be kept is left out
 * on its own (`droppedLinks`), never the archive.
 */
export function planExtraction(
  directory: CentralDirectory,
  limits: ExtractLimits,
  linkPolicy: LinkPolicy = 'keep',
): ExtractionPlan {
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

  // Every name is checked first, junk included: a hostile name is refused wherever it sits.
  const named: NamedEntry[] = entries.map((entry) => {
    const rawName = decodeEntryName(entry.rawName, entry.flags);
    const parsed = parseEntryName(rawName);
    // Unix mode lives in the high 16 bits of the external attributes (zip's "version made by" Unix).
    // Checked whatever host the archive claims: a forged host byte must not hide a link.
    return { entry, rawName, segments: parsed.segments, isDir: parsed.isDir, mode: entry.attr >>> 16 };
  });

  const dropped = new Set<string>();
  const candidates = named.filter((n) => {
    const junk = junkRoot(n.segments, n.isDir);
    if (junk !== null) dropped.add(junk);
    return junk === null;
  });
  // A workspace package's node_modules is told apart by its links into the root's install: the
  // finder reads those targets, and an unreadable one is simply no evidence.
  const installs = findInstallTrees(
    candidates.map((n) => ({
      segments: n.segments,
      ...(isLinkMode(n.mode)
        ? {
            readLink: () => {
              try {
                n.link ??= linkOf(n);
                return n.link.target;
              } catch {
                return null;
              }
            },
          }
        : {}),
    })),
    commonTopFolder(candidates.filter((n) => n.segments[0]?.toLowerCase() !== 'node_modules')),
  );

  const kept: KeptEntry[] = [];
  const links: LinkEntry[] = [];
  let totalBytes = 0;

  for (const n of candidates) {
    const { entry, rawName, mode } = n;
    // Installs are dropped before the content checks: they routinely hold links (.bin) and big
    // binaries, and none of it reaches the disk. Their names were still checked above.
    const install = installs.rootOf(n.segments);
    if (install !== null) {
      dropped.add(`${install}/`);
      continue;
    }
    if (entry.flags & FLAG_ENCRYPTED || entry.method === METHOD_AES) {
      throw refuseEntry('ARCHIVE_ENCRYPTED', rawName, 'is encrypted.');
    }
    if (isLinkMode(mode)) {
      if (linkPolicy === 'refuse') throw refuseEntry('ARCHIVE_SYMLINK', rawName, 'is a symbolic link.');
      checkMethod(entry, rawName);
      const link = n.link ?? linkOf(n);
      links.push({
        rawName,
        segments: n.segments,
        target: link.target,
        text: link.target ?? link.text,
        reason: link.target === null ? link.reason : null,
      });
      continue;
    }
    const markedDir = (mode & S_IFMT) === S_IFDIR || (entry.attr & DOS_DIRECTORY) !== 0;
    const isDir = n.isDir || (markedDir && entry.size === 0 && entry.compressedSize === 0);
    if (isDir) {
      kept.push({ rawName, segments: n.segments, isDir: true, entry, executable: false });
      continue;
    }

    checkMethod(entry, rawName);
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
    kept.push({ rawName, segments: n.segments, isDir: false, entry, executable: (mode & 0o111) !== 0 });
  }

  checkCollisions(kept);

  if (!kept.some((k) => !k.isDir)) {
    const junk = dropped.size > 0 ? ` (besides dropped ${[...dropped].sort().slice(0, 3).join(', ')})` : '';
    throw new Refusal('ARCHIVE_EMPTY', null, `The archive has no files${junk}.`);
  }

  const strippedPrefix = commonTopFolder([
    ...kept,
    ...links.map((l) => ({ segments: l.segments, isDir: false })),
  ]);
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
      kind: 'file',
      entry: k.entry,
      rawName: k.rawName,
      path: segments.join('/'),
      size: k.entry.size,
      executable: k.executable,
    };
    node.file = file;
    files.push(file);
  }
  for (const link of links) link.segments = skip === 0 ? link.segments : link.segments.slice(1);

  const written = kept.map((k) => ({
    segments: skip === 0 ? k.segments : k.segments.slice(1),
    isDir: k.isDir,
  }));
  const placed = placeLinks(links, written);
  // A standing link's folders are written whatever becomes of it: other links may lead into them.
  for (const link of placed.standing)
    link.segments.slice(0, -1).reduce((node, name) => node.child(name), tree);
  for (const link of placed.kept) {
    const node = link.segments.reduce((parent, name) => parent.child(name), tree);
    node.link = {
      isDir: false,
      kind: 'link',
      rawName: link.rawName,
      path: link.segments.join('/'),
      target: link.target as string,
    };
  }
  const order: Array<PlannedFile | PlannedDir | PlannedLink> = [];
  tree.list('', order);
  return {
    files,
    order,
    dropped: [...dropped].sort(),
    links: order.filter((node) => node.kind === 'link'),
    droppedLinks: links
      .filter((l) => l.reason !== null)
      .map((l) => ({
        path: printable(l.segments.join('/')),
        target: l.text === null ? null : printable(l.text),
        reason: l.reason as string,
      })),
    strippedPrefix,
    totalBytes,
  };
}

function checkMethod(entry: ArchiveEntry, rawName: string): void {
  if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATED) {
    throw refuseEntry(
      'ARCHIVE_CORRUPT',
      rawName,
      `uses compression method ${entry.method}; Forge reads stored and deflated entries only.`,
    );
  }
}

function linkOf(n: NamedEntry): ReturnType<typeof readLinkTarget> {
  if (n.entry.flags & FLAG_ENCRYPTED || n.entry.method === METHOD_AES) {
    throw refuseEntry('ARCHIVE_ENCRYPTED', n.rawName, 'is encrypted.');
  }
  checkMethod(n.entry, n.rawName);
  return readLinkTarget(n.entry, n.rawName);
}

/** The project as a tree, to list it in walk order. Names are unique per folder (checkCollisions). */
class TreeNode {
  children: Map<string, TreeNode> | null = null;
  file: PlannedFile | null = null;
  link: PlannedLink | null = null;

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
  list(rel: string, out: Array<PlannedFile | PlannedDir | PlannedLink>): void {
    if (this.children === null) return;
    // The default sort compares UTF-16 code units, exactly like walk.ts's byName.
    for (const name of [...this.children.keys()].sort()) {
      const child = this.children.get(name) as TreeNode;
      const path = rel === '' ? name : `${rel}/${name}`;
      if (child.file !== null) {
        out.push(child.file);
      } else if (child.link !== null) {
        out.push(child.link);
      } else {
        out.push({ isDir: true, kind: 'dir', path });
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
function commonTopFolder(
  kept: ReadonlyArray<{ segments: readonly string[]; isDir: boolean }>,
): string | null {
  const top = kept[0]?.segments[0];
  if (top === undefined) return null;
  const allInside = kept.every((k) => k.segments[0] === top && (k.segments.length > 1 || k.isDir));
  return allInside ? top : null;
}
