import { crc32, inflateRawSync } from 'node:zlib';
import { foldName, MAX_PATH_BYTES, MAX_SEGMENT_BYTES } from './entry-name.ts';
import { refuseEntry } from './refusal.ts';
import type { ArchiveEntry } from './zip-reader.ts';

/**
 * Symbolic links of an archive (git archive keeps them: `CLAUDE.md -> AGENTS.md`, a linked folder).
 * A link is kept, and recreated as a link, only when its target leads to a file or folder the
 * archive itself writes, inside the project, through links that are kept themselves. Every other
 * link is left out on its own, with the reason: an absolute or drive target, one that climbs out of
 * the project, one that leads nowhere (dangling, or into a folder that is left out), a loop or a
 * chain longer than the kernel follows, a link to a folder that holds it (tools that follow links
 * would walk it forever), a target that is not plain text. Links are written last (write-files.ts),
 * once every file is in place, so nothing is ever written through one.
 */

/** `keep`: links that lead inside are kept, the others left out; `refuse`: any link refuses the archive. */
export type LinkPolicy = 'keep' | 'refuse';

/** Longest link target read (PATH_MAX): a longer one is no path any system resolves. */
export const MAX_LINK_TARGET_BYTES = 4096;
/** Links followed in one resolution before giving up, as Linux's ELOOP (MAXSYMLINKS). */
export const MAX_LINK_HOPS = 40;

const METHOD_STORED = 0;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const DRIVE = /^[A-Za-z]:/;

/** A link's target text, or why it cannot be one. Corrupt data refuses the archive, as for a file. */
export function readLinkTarget(
  entry: ArchiveEntry,
  rawName: string,
): { target: string } | { target: null; reason: string; text: string | null } {
  if (entry.size > MAX_LINK_TARGET_BYTES) {
    return { target: null, reason: `its target is longer than ${MAX_LINK_TARGET_BYTES} bytes`, text: null };
  }
  let bytes: Buffer;
  try {
    const stored = entry.compressedData();
    bytes =
      entry.method === METHOD_STORED || stored.length === 0
        ? stored
        : inflateRawSync(stored, { maxOutputLength: Math.max(entry.size, 1) });
  } catch {
    throw refuseEntry(
      'ARCHIVE_CORRUPT',
      rawName,
      'has corrupt data (a symbolic link whose target cannot be read).',
    );
  }
  if (bytes.length !== entry.size || crc32(bytes) >>> 0 !== entry.crc >>> 0) {
    throw refuseEntry('ARCHIVE_CORRUPT', rawName, 'fails its CRC or size check (corrupt data).');
  }
  let target: string;
  try {
    target = strictUtf8.decode(bytes);
  } catch {
    return { target: null, reason: 'its target is not UTF-8 text', text: null };
  }
  const why = targetFault(target);
  return why === null ? { target } : { target: null, reason: why, text: target };
}

/** What makes a target text unusable before it is resolved, or null. */
function targetFault(target: string): string | null {
  if (target === '') return 'its target is empty';
  if (CONTROL.test(target)) return 'its target has a NUL or control character';
  // Windows reads a backslash as a separator, Linux as a character: the link would lead to two places.
  if (target.includes('\\')) return 'its target has a backslash';
  if (target.startsWith('/')) return 'its target is an absolute path (outside the project)';
  if (DRIVE.test(target)) return 'its target is a drive path (outside the project)';
  if (Buffer.byteLength(target) > MAX_PATH_BYTES) return `its target is longer than ${MAX_PATH_BYTES} bytes`;
  if (target.split('/').some((part) => Buffer.byteLength(part) > MAX_SEGMENT_BYTES)) {
    return `its target has a name longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return null;
}

/** What the project holds at a path, as the plan will write it. */
export type TreeKind = 'file' | 'dir' | 'link';

/** A link to judge: its project path and target text. */
export interface LinkToJudge {
  path: string;
  target: string;
}

export type LinkVerdict =
  /** `leadsTo`: the project path it resolves to ("" never: the root is refused); `hops`: links followed. */
  { kept: true; leadsTo: string; hops: number } | { kept: false; reason: string };

/** Path components walked for all links together; past it the rest are left out (a hostile listing). */
const MAX_RESOLVE_STEPS = 1_000_000;

/**
 * Judges every link against the project as it will be written: `kinds` maps each project path (files,
 * folders, listed and implied, and the links) to what it is. A link is kept when its target, resolved
 * the way the kernel does (each component in turn, through the links that are kept, ".." from where
 * a link really leads, at most MAX_LINK_HOPS links in all), ends at a file or folder of the project
 * that does not hold it.
 */
export function judgeLinks(
  links: readonly LinkToJudge[],
  kinds: ReadonlyMap<string, TreeKind>,
): Map<string, LinkVerdict> {
  const targets = new Map(links.map((l) => [l.path, l.target]));
  const folded = new Map<string, string>();
  for (const p of kinds.keys()) folded.set(foldName(p), p);
  const verdicts = new Map<string, LinkVerdict>();
  const judging = new Set<string>();
  let steps = 0;

  type Walked = { at: string[]; kind: 'file' | 'dir'; hops: number } | { fail: string; final: boolean };

  /** Follows `components` from the folder `from`, through links judged on the way. */
  const walk = (from: readonly string[], components: readonly string[], depth: number): Walked => {
    const at = [...from];
    let kind: 'file' | 'dir' = 'dir';
    let hops = 0;
    for (const part of components) {
      if (++steps > MAX_RESOLVE_STEPS)
        return { fail: 'the archive has too many links to resolve', final: true };
      // After a file nothing may follow, not even "/" or "/." (the kernel answers ENOTDIR).
      if (kind === 'file')
        return { fail: `it leads through "${at.join('/')}", which is a file`, final: true };
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (at.length === 0) return { fail: 'it leads out of the project', final: true };
        at.pop();
        continue;
      }
      const next = at.length === 0 ? part : `${at.join('/')}/${part}`;
      const what = kinds.get(next);
      if (what === undefined) {
        const twin = folded.get(foldName(next));
        const fail =
          twin === undefined
            ? `it leads to "${next}", which the archive does not write (dangling)`
            : `it leads to "${next}", which differs from "${twin}" in case only`;
        return { fail, final: true };
      }
      if (what !== 'link') {
        at.push(part);
        kind = what;
        continue;
      }
      const verdict = judge(next, depth + 1);
      if (!verdict.kept) {
        // Too deep from here is no fault of the link on its own: the verdict is not final.
        if (verdict === TOO_DEEP) return { fail: verdict.reason, final: false };
        const fail = verdict.reason.startsWith('it loops')
          ? verdict.reason
          : `it leads through "${next}", a link that is left out (${verdict.reason})`;
        return { fail, final: true };
      }
      hops += verdict.hops;
      // The link being resolved counts too, as the kernel counts it.
      if (hops + 1 > MAX_LINK_HOPS) return { fail: TOO_DEEP.reason, final: depth === 0 };
      at.splice(0, at.length, ...verdict.leadsTo.split('/'));
      kind = kinds.get(verdict.leadsTo) === 'file' ? 'file' : 'dir';
    }
    return { at, kind, hops };
  };

  const judge = (linkPath: string, depth: number): LinkVerdict => {
    const known = verdicts.get(linkPath);
    if (known) return known;
    // Reached again while it is being resolved: it leads back to itself, whichever link started it.
    if (judging.has(linkPath)) return remember(linkPath, { kept: false, reason: LOOP });
    if (depth > MAX_LINK_HOPS) return TOO_DEEP;
    const segments = linkPath.split('/');
    const components = (targets.get(linkPath) as string).split('/');
    // Read as text, too, it must stay inside: tools that normalise a path before they follow it
    // ("a/l/../.." is "a/.." to them, whatever "l" leads to) must not be led out either.
    if (!staysInside(segments.length - 1, components)) {
      return remember(linkPath, { kept: false, reason: 'it leads out of the project' });
    }
    judging.add(linkPath);
    const walked = walk(segments.slice(0, -1), components, depth);
    judging.delete(linkPath);
    if ('fail' in walked) {
      const verdict: LinkVerdict = { kept: false, reason: walked.fail };
      return walked.final ? remember(linkPath, verdict) : TOO_DEEP;
    }
    const leadsTo = walked.at.join('/');
    // The root, or a folder above the link: whatever follows links (glob, copy, watch) never ends.
    if (leadsTo === '' || linkPath.startsWith(`${leadsTo}/`)) {
      return remember(linkPath, {
        kept: false,
        reason: `it loops: it leads to "${leadsTo || '.'}", a folder that holds it`,
      });
    }
    return remember(linkPath, { kept: true, leadsTo, hops: walked.hops + 1 });
  };

  const remember = (linkPath: string, verdict: LinkVerdict): LinkVerdict => {
    verdicts.set(linkPath, verdict);
    return verdict;
  };

  for (const link of links) {
    // A chain that runs too deep from the top is that link's own fault.
    if (judge(link.path, 0) === TOO_DEEP) verdicts.set(link.path, TOO_DEEP);
  }
  return verdicts;
}

/** Whether `components`, read from a folder `depth` levels below the root, never climb above it. */
function staysInside(depth: number, components: readonly string[]): boolean {
  let level = depth;
  for (const part of components) {
    if (part === '..') level -= 1;
    else if (part !== '' && part !== '.') level += 1;
    if (level < 0) return false;
  }
  return true;
}

const LOOP = 'it loops: its target leads back to itself';
/** A shared object so a caller can tell "too deep from here" from a verdict on the link itself. */
const TOO_DEEP: { kept: false; reason: string } = {
  kept: false,
  reason: `it loops: more than ${MAX_LINK_HOPS} links are followed to resolve it`,
};

/** A link entry on its way through the plan. */
export interface LinkEntry {
  rawName: string;
  /** Project-relative (after the top folder is stripped). */
  segments: string[];
  /** The target, when it is one a link may have. */
  target: string | null;
  /** The target text as stored, for the note, when it could be read as text. */
  text: string | null;
  /** Set once the link is left out. */
  reason: string | null;
}

/**
 * Decides which links are written: first where they stand (a link may not take the path of another
 * entry, nor be a folder other entries are in, nor sit in a file or a link), then where they lead
 * (judgeLinks). `written` is every other entry the plan writes. Each left-out link gets its reason;
 * `standing` are the links whose place was free (their folders are written), `kept` those written.
 */
export function placeLinks(
  links: readonly LinkEntry[],
  written: ReadonlyArray<{ segments: readonly string[]; isDir: boolean }>,
): { standing: LinkEntry[]; kept: LinkEntry[] } {
  const kinds = new Map<string, TreeKind>();
  const foldedKinds = new Map<string, string>();
  const claim = (p: string, kind: TreeKind): void => {
    kinds.set(p, kind);
    foldedKinds.set(foldName(p), p);
  };
  for (const { segments, isDir } of written) {
    for (let i = 1; i < segments.length; i++) claim(segments.slice(0, i).join('/'), 'dir');
    if (segments.length > 0) claim(segments.join('/'), isDir ? 'dir' : 'file');
  }

  const standing: LinkEntry[] = [];
  for (const link of links) {
    if (link.reason !== null) continue;
    const p = link.segments.join('/');
    if (link.segments.length === 0) {
      link.reason = 'it is the top folder itself';
      continue;
    }
    const parents = link.segments.slice(0, -1).map((_, i) => link.segments.slice(0, i + 1).join('/'));
    let inside: string | null = null;
    for (const parent of parents) {
      const seen = foldedKinds.get(foldName(parent));
      if (seen === undefined) continue;
      const kind = kinds.get(seen);
      if (kind === 'link') inside = `its folder "${seen}" is a link: nothing is written through a link`;
      else if (kind === 'file') inside = `its folder "${seen}" is a file in the archive`;
      else if (seen !== parent) inside = `its folder "${parent}" is spelt "${seen}" elsewhere in the archive`;
      if (inside !== null) break;
    }
    const twin = foldedKinds.get(foldName(p));
    if (inside !== null) {
      link.reason = inside;
    } else if (twin !== undefined) {
      link.reason =
        kinds.get(twin) === 'dir'
          ? `the archive has entries inside "${twin}": a folder of files cannot also be a link`
          : `another entry of the archive has the same name ("${twin}")`;
    } else {
      standing.push(link);
      for (const parent of parents) claim(parent, 'dir');
      claim(p, 'link');
    }
  }

  const judged = judgeLinks(
    standing.map((l) => ({ path: l.segments.join('/'), target: l.target as string })),
    kinds,
  );
  const kept: LinkEntry[] = [];
  for (const link of standing) {
    const verdict = judged.get(link.segments.join('/'));
    if (verdict?.kept) kept.push(link);
    else link.reason = verdict?.reason ?? 'it could not be resolved';
  }
  return { standing, kept };
}
