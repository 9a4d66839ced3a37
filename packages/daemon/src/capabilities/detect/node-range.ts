import type { NodeCandidate } from '@forge/shared';
import semver from 'semver';

/**
 * How Forge reads what a project says about its Node, as semver ranges (pure: no files, no network).
 *
 * - A constraint (engines.node, devEngines.runtime) is a range the project supports, taken as written.
 * - A pin (volta.node, .nvmrc, .node-version, .tool-versions, mise) is what its developers run: it
 *   names a major, and any release of that major at or above it serves ("20.11.1" → >=20.11.1 <21).
 * - A tool's need (the package manager's engines.node) is a range like a constraint.
 *
 * The range Forge resolves is every constraint and the tool's need together, narrowed by the pin when
 * the pin fits inside them; a pin that does not is dropped (the constraint wins) and the plan says so.
 */

/** nvm's LTS lines: codename, major, and the day it became LTS (so `lts/*` moves on with time). */
const LTS_LINES: readonly (readonly [codename: string, major: number, since: string])[] = [
  ['argon', 4, '2015-10-12'],
  ['boron', 6, '2016-10-18'],
  ['carbon', 8, '2017-10-31'],
  ['dubnium', 10, '2018-10-30'],
  ['erbium', 12, '2019-10-21'],
  ['fermium', 14, '2020-10-27'],
  ['gallium', 16, '2021-10-26'],
  ['hydrogen', 18, '2022-10-25'],
  ['iron', 20, '2023-10-24'],
  ['jod', 22, '2024-10-29'],
  ['krypton', 24, '2025-10-28'],
  ['lithium', 26, '2026-10-28'],
];

/**
 * The major an nvm LTS alias names: `lts/*` the newest line that is LTS on `today`, `lts/-N` the Nth
 * before it, `lts/<codename>` by name. Null for a codename Forge does not know.
 */
export function ltsMajor(alias: string, today: Date = new Date()): number | null {
  const name = alias.toLowerCase().replace(/^lts\//, '');
  const day = today.toISOString().slice(0, 10);
  const current = LTS_LINES.filter(([, , since]) => since <= day);
  if (name === '*') return current.at(-1)?.[1] ?? null;
  const back = /^-(\d+)$/.exec(name);
  if (back) return current.at(-1 - Number(back[1]))?.[1] ?? null;
  return LTS_LINES.find(([codename]) => codename === name)?.[1] ?? null;
}

/** nvm aliases for "any release" (`nvm use node` takes the newest it has; `system` is the machine's). */
const ANY_ALIAS = /^(node|stable|latest|current|system)$/i;
/** Aliases of lines that no longer exist. */
const DEAD_ALIAS = /^(iojs|unstable)$/i;

const stripV = (text: string): string => text.trim().replace(/^v(?=\d)/i, '');

/** A constraint as a range, or null when it is not one semver reads. */
export function constraintRange(text: string): string | null {
  const range = semver.validRange(stripV(text));
  return range === null ? null : range === '' ? '*' : range;
}

/** What a pin means as a range, and a note when it is an alias or cannot be read. */
export function pinRange(
  text: string,
  today: Date = new Date(),
): { range: string | null; note: string | null } {
  const value = stripV(text);
  if (ANY_ALIAS.test(value)) {
    return { range: '*', note: `"${value}" names no major: any release serves` };
  }
  if (DEAD_ALIAS.test(value)) return { range: null, note: `"${value}" is not a Node release line` };
  if (/^lts\//i.test(value)) {
    const major = ltsMajor(value, today);
    return major === null
      ? { range: null, note: `"${value}" is not an LTS line Forge knows` }
      : { range: `>=${major}.0.0 <${major + 1}.0.0-0`, note: `${value} is Node ${major}` };
  }
  // "20", "20.11", "20.11.1": that major, at or above what is written.
  const partial = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(value);
  if (partial) {
    const [, major, minor = '0', patch = '0'] = partial;
    return {
      range: `>=${Number(major)}.${Number(minor)}.${Number(patch)} <${Number(major) + 1}.0.0-0`,
      note: null,
    };
  }
  // A range in a pin file (some tools accept one): taken as written.
  const range = constraintRange(value);
  return range === null
    ? { range: null, note: `"${value}" is not a version Forge can read` }
    : { range, note: null };
}

/** Both ranges at once, as one range (ORs distributed); null when either is null. */
export function intersect(a: string, b: string): string {
  if (a === '*') return b;
  if (b === '*') return a;
  const left = new semver.Range(a).set;
  const right = new semver.Range(b).set;
  const parts: string[] = [];
  for (const l of left) {
    for (const r of right) {
      const both = [...l, ...r].map((c) => c.value).filter((v) => v !== '');
      const text = both.length > 0 ? both.join(' ') : '*';
      // A combination no version satisfies adds nothing.
      if (both.length === 0 || semver.intersects(text, text)) parts.push(text);
    }
  }
  return [...new Set(parts)].join(' || ');
}

/** Whether some version satisfies both ranges. */
export const overlaps = (a: string, b: string): boolean => {
  try {
    return semver.intersects(a, b, { includePrerelease: false });
  } catch {
    return false;
  }
};

/** Whether `version` is in `range` (pre-releases only when the range names one). */
export const inRange = (version: string, range: string): boolean =>
  semver.satisfies(version, range, { includePrerelease: false });

/** The candidates as Forge resolves them: which are used and why, and the range they make. */
export interface CombinedNode {
  candidates: NodeCandidate[];
  /** Null when nothing readable was stated. */
  range: string | null;
  /** The candidate that decides (the first constraint, else the pin, else the tool's need). */
  decisive: NodeCandidate | null;
  /** A tool's need that no version of the constraints admits: the build cannot have both. */
  conflict: string | null;
}

const label = (c: Pick<NodeCandidate, 'source' | 'file' | 'role'>): string =>
  c.role === 'tool'
    ? c.source
    : c.source.startsWith('.') || c.source.includes('toml')
      ? c.file
      : `${c.source} in ${c.file}`;

/** The place a candidate was read from, as the plan writes it ("engines.node in package.json", ".nvmrc"). */
export const candidateLabel = label;

/**
 * Apply the precedence: every constraint (a later one that excludes the earlier ones is dropped: the
 * nearest package.json wins), the tool's need, then the first pin that fits (later pins noted as not
 * used). Candidates come in reading order (the app's folder first); unreadable ones are never used.
 */
export function combineNode(read: readonly NodeCandidate[]): CombinedNode {
  const candidates = read.map((c) => ({ ...c, used: false }));
  let range: string | null = null;
  let conflict: string | null = null;
  const firstConstraint = candidates.find((c) => c.role === 'constraint' && c.range !== null);
  for (const c of candidates) {
    if (c.role !== 'constraint' || c.range === null) continue;
    if (range !== null && !overlaps(range, c.range)) {
      c.note = `excludes ${label(firstConstraint!)} (${firstConstraint!.value}): the nearest one wins`;
      continue;
    }
    range = range === null ? c.range : intersect(range, c.range);
    c.used = true;
  }
  for (const c of candidates) {
    if (c.role !== 'tool' || c.range === null) continue;
    if (range !== null && !overlaps(range, c.range)) {
      conflict = `${c.source} needs Node ${c.value}, which ${label(firstConstraint!)} (${firstConstraint!.value}) excludes`;
      c.note = 'excluded by the constraint';
      continue;
    }
    c.used = true;
    // A need the constraints already meet adds nothing to the range.
    if (range !== null && semver.subset(range, c.range)) continue;
    range = range === null ? c.range : intersect(range, c.range);
  }
  let pin: NodeCandidate | null = null;
  for (const c of candidates) {
    if (c.role !== 'pin' || c.range === null) continue;
    if (pin) {
      c.note ??= `${label(pin)} comes first`;
      continue;
    }
    if (range !== null && !overlaps(range, c.range)) {
      const by = candidates.find((o) => o.used);
      c.note = `outside ${by ? `${label(by)} (${by.value})` : 'the range'}: the constraint wins`;
      continue;
    }
    pin = c;
    range = range === null ? c.range : intersect(range, c.range);
    c.used = true;
  }
  const decisive =
    candidates.find((c) => c.used && c.role === 'constraint') ??
    candidates.find((c) => c.used && c.role === 'pin') ??
    candidates.find((c) => c.used) ??
    candidates[0] ??
    null;
  return { candidates, range, decisive, conflict };
}
