/**
 * A Python project's lockfile — uv.lock, poetry.lock or pdm.lock — read as what pip can honour: the
 * exact version of each package the lock takes from an index (a pip constraints file), and the
 * indexes it names. uv, Poetry and PDM are not run (none of them ships with Python or in Debian's
 * stable set with a lock format that matches today's); pip installs with their pins instead, so a
 * locked project builds with the versions its authors locked. What pip cannot be held to by name and
 * version (a git, path or URL source; a package locked at several versions, one per platform) is
 * listed as not pinned. The locks' hashes are not checked: pip checks hashes only when every
 * requirement is given with its hashes, which constraints are not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';

export type PythonLockTool = 'uv' | 'poetry' | 'pdm';

/** The lockfiles Forge reads, in the order it prefers them when a project has several. */
export const PYTHON_LOCKS: readonly (readonly [file: string, tool: PythonLockTool])[] = [
  ['uv.lock', 'uv'],
  ['poetry.lock', 'poetry'],
  ['pdm.lock', 'pdm'],
];

/** A lock is read whole (they list every wheel of every package, so a few MB is common); past this it is refused. */
export const MAX_LOCK_BYTES = 32 * 1024 * 1024;

/** In argv, the path of the constraints file Forge writes from the lock before the install runs. */
export const PINS_PLACEHOLDER = '{pins}';

/** The file Forge writes the pins to, inside the project's virtual environment (never in the project). */
export const PINS_FILE = 'forge-pins.txt';

/** PyPI's simple index, as uv writes it in its lock. */
export const PYPI_SIMPLE = 'https://pypi.org/simple';

/** PEP 503's normal form of a distribution name: lower-case, runs of -_. as one dash. */
export const normalizePypi = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');

/** The parts of pyproject.toml this file and the planner read. */
export interface PyProject {
  project?: { dependencies?: unknown };
  'build-system'?: unknown;
  tool?: {
    uv?: { package?: unknown };
    pdm?: { distribution?: unknown; source?: unknown };
    poetry?: { 'package-mode'?: unknown; dependencies?: unknown; source?: unknown };
  };
}

export interface PythonLock {
  file: string;
  tool: PythonLockTool;
  /** Every package the lock lists (the project itself left out), normalised name and version. */
  packages: { name: string; version: string }[];
  /** Normalised name → the exact version locked from an index. */
  pins: Map<string, string>;
  /** Locked packages pip is not held to, and why. */
  unpinned: { name: string; why: string }[];
  /** Indexes other than PyPI the locked packages come from, in the lock's order. */
  indexes: string[];
  /** Some locked packages come from PyPI itself. */
  pypi: boolean;
}

interface LockedPackage {
  name?: unknown;
  version?: unknown;
  source?: Record<string, unknown>;
  git?: unknown;
  path?: unknown;
  url?: unknown;
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');
const isPypi = (url: string): boolean =>
  /^https?:\/\/(?:pypi\.org|pypi\.python\.org)\/simple$/.test(trimSlash(url));

/**
 * Where a locked package comes from: an index URL, PyPI, the project itself (uv lists it, as a
 * virtual or editable source of "."), or a source pip cannot be pinned to by version.
 */
function sourceOf(
  tool: PythonLockTool,
  p: LockedPackage,
): { index: string | null } | { self: true } | { other: string } {
  if (tool === 'uv') {
    const source = p.source ?? {};
    if (typeof source.registry === 'string')
      return { index: isPypi(source.registry) ? null : trimSlash(source.registry) };
    if ((source.virtual === '.' || source.editable === '.') && Object.keys(source).length === 1)
      return { self: true };
    const kind = Object.keys(source)[0];
    return { other: kind ? `a ${kind} source` : 'no source' };
  }
  if (tool === 'poetry') {
    const type = typeof p.source?.type === 'string' ? p.source.type : null;
    if (!type) return { index: null };
    if (type === 'legacy' && typeof p.source?.url === 'string')
      return { index: isPypi(p.source.url) ? null : trimSlash(p.source.url) };
    return { other: `a ${type} source` };
  }
  for (const key of ['git', 'path', 'url'] as const)
    if (p[key] !== undefined) return { other: `a ${key} source` };
  return { index: null };
}

/** The indexes a PDM project names ([[tool.pdm.source]]); one named "pypi" stands in for PyPI. */
function pdmIndexes(pyproject: PyProject | null): { indexes: string[]; replacesPypi: boolean } {
  const sources = Array.isArray(pyproject?.tool?.pdm?.source) ? (pyproject.tool.pdm.source as unknown[]) : [];
  const indexes: string[] = [];
  let replacesPypi = false;
  for (const s of sources) {
    const source = s as { name?: unknown; url?: unknown; type?: unknown };
    if (typeof source.url !== 'string' || (source.type !== undefined && source.type !== 'index')) continue;
    if (source.name === 'pypi') replacesPypi = true;
    if (!isPypi(source.url)) indexes.push(trimSlash(source.url));
  }
  return { indexes, replacesPypi };
}

/**
 * The pins of a lockfile's text. Throws an Error whose message says what is wrong when the text is not
 * the lock it is named as (not TOML, no [[package]] list).
 */
export function parsePythonLock(
  file: string,
  tool: PythonLockTool,
  text: string,
  pyproject: PyProject | null,
): PythonLock {
  let data: { package?: unknown };
  try {
    data = parseToml(text) as { package?: unknown };
  } catch (err) {
    throw new Error(`${file} is not readable TOML (${(err as Error).message.split('\n')[0]})`);
  }
  if (data.package !== undefined && !Array.isArray(data.package))
    throw new Error(`${file} has no [[package]] list`);
  const byName = new Map<string, { versions: Set<string>; why: string | null; index: string | null }>();
  const indexes: string[] = [];
  const packages: { name: string; version: string }[] = [];
  let pypi = false;
  for (const entry of (data.package ?? []) as LockedPackage[]) {
    if (typeof entry?.name !== 'string' || typeof entry.version !== 'string') continue;
    const source = sourceOf(tool, entry);
    if ('self' in source) continue;
    const name = normalizePypi(entry.name);
    packages.push({ name, version: entry.version });
    const seen = byName.get(name) ?? { versions: new Set<string>(), why: null, index: null };
    seen.versions.add(entry.version);
    if ('other' in source) seen.why ??= source.other;
    else if (source.index === null) pypi = true;
    else if (!indexes.includes(source.index)) indexes.push(source.index);
    byName.set(name, seen);
  }
  const pins = new Map<string, string>();
  const unpinned: { name: string; why: string }[] = [];
  for (const [name, seen] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    if (seen.why) unpinned.push({ name, why: seen.why });
    else if (seen.versions.size > 1)
      unpinned.push({ name, why: `locked at ${[...seen.versions].join(' and ')}, one per platform` });
    else pins.set(name, [...seen.versions][0]!);
  }
  if (tool === 'pdm') {
    // pdm.lock does not say where a package came from: the project's sources do.
    const named = pdmIndexes(pyproject);
    return { file, tool, packages, pins, unpinned, indexes: named.indexes, pypi: !named.replacesPypi };
  }
  return { file, tool, packages, pins, unpinned, indexes, pypi };
}

/** The constraints file pip reads: one `name==version` a line. */
export const constraintsText = (lock: PythonLock): string =>
  [
    `# The versions ${lock.file} pins, written by Forge for pip (-c).`,
    ...[...lock.pins].map(([n, v]) => `${n}==${v}`),
  ].join('\n') + '\n';

/**
 * pip's index options for the lock: its first non-PyPI index as the index, the others (and PyPI,
 * when packages come from it too) as extra indexes. Empty when everything comes from PyPI: pip's own
 * default (or the machine's pip configuration) stands.
 */
export function lockIndexEnv(lock: PythonLock): Record<string, string> {
  if (lock.indexes.length === 0) return {};
  const [first, ...rest] = lock.indexes;
  const extra = [...rest, ...(lock.pypi ? [PYPI_SIMPLE] : [])];
  return { PIP_INDEX_URL: first!, ...(extra.length ? { PIP_EXTRA_INDEX_URL: extra.join(' ') } : {}) };
}

/**
 * Why the project is not a package pip can build (`pip install .`) but only a set of dependencies,
 * as its tool sees it ("no [build-system]", "package-mode = false"), or null when it is one: uv and
 * PDM build a project only when it has a [build-system] (or says package/distribution = true);
 * Poetry builds one unless `package-mode = false`.
 */
export function notPackagedBecause(pyproject: PyProject, tool: PythonLockTool | null): string | null {
  if (tool === 'poetry')
    return pyproject.tool?.poetry?.['package-mode'] === false ? 'package-mode = false' : null;
  const key = tool === 'uv' ? 'package' : 'distribution';
  const says =
    tool === 'uv'
      ? pyproject.tool?.uv?.package
      : tool === 'pdm'
        ? pyproject.tool?.pdm?.distribution
        : undefined;
  if (typeof says === 'boolean') return says ? null : `[tool.${tool}] ${key} = false`;
  return tool === null || pyproject['build-system'] !== undefined ? null : 'no [build-system]';
}

/** A requirement pip can be given as an argument: PEP 508 starts with a name (never an option). */
const REQUIREMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\])?\s*(?:[<>=!~@;(].*)?$/;

/** Poetry's version constraint as PEP 440: ^1.2 → >=1.2,<2.0; ~1.2 → >=1.2,<1.3; 1.2 → ==1.2; * → none. */
export function poetryConstraint(constraint: string): string | null {
  const parts = constraint
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0 || constraint.includes('||')) return null;
  const out: string[] = [];
  for (const part of parts) {
    if (part === '*') continue;
    const caret = /^\^\s*(\d+(?:\.\d+)*)$/.exec(part);
    const tilde = /^~\s*(\d+(?:\.\d+)*)$/.exec(part);
    if (caret || tilde) {
      const version = (caret ?? tilde)![1]!;
      const nums = version.split('.').map(Number);
      let bump: number;
      if (caret) {
        const firstNonZero = nums.findIndex((n) => n !== 0);
        bump = firstNonZero === -1 ? Math.max(nums.length - 1, 0) : firstNonZero;
      } else bump = nums.length === 1 ? 0 : 1;
      const upper = nums.slice(0, bump + 1).map((n, i) => (i === bump ? n + 1 : n));
      while (upper.length < Math.min(nums.length, 3)) upper.push(0);
      out.push(`>=${version}`, `<${upper.join('.')}`);
    } else if (/^\d/.test(part)) out.push(`==${part}`);
    else if (/^(?:[<>]=?|==|!=|~=)\s*\d[\w.*+!-]*$/.test(part)) out.push(part.replace(/\s+/g, ''));
    else return null;
  }
  return out.join(',');
}

/**
 * The requirements a project that is not a package installs: [project].dependencies as written, or
 * Poetry's [tool.poetry.dependencies] in PEP 508 (Python itself and optional ones left out). What is
 * not a requirement (an option, a path) is returned as refused, with why.
 */
export function dependencySpecs(pyproject: PyProject): { specs: string[]; refused: string[] } {
  const specs: string[] = [];
  const refused: string[] = [];
  const take = (spec: string) =>
    REQUIREMENT.test(spec.trim()) ? specs.push(spec.trim()) : refused.push(spec);
  const declared = pyproject.project?.dependencies;
  if (Array.isArray(declared)) {
    for (const spec of declared) if (typeof spec === 'string') take(spec);
    return { specs, refused };
  }
  const poetry = pyproject.tool?.poetry?.dependencies;
  if (!poetry || typeof poetry !== 'object') return { specs, refused };
  for (const [name, value] of Object.entries(poetry as Record<string, unknown>)) {
    if (name.toLowerCase() === 'python') continue;
    const table = (typeof value === 'object' && value !== null ? value : { version: value }) as {
      version?: unknown;
      extras?: unknown;
      optional?: unknown;
      markers?: unknown;
      git?: unknown;
      url?: unknown;
      path?: unknown;
    };
    if (table.optional === true) continue;
    if (table.path !== undefined) {
      refused.push(`${name} (a path dependency)`);
      continue;
    }
    const extras = Array.isArray(table.extras)
      ? `[${table.extras.filter((e) => typeof e === 'string').join(',')}]`
      : '';
    const markers = typeof table.markers === 'string' ? ` ; ${table.markers}` : '';
    if (typeof table.git === 'string' || typeof table.url === 'string') {
      const url = typeof table.git === 'string' ? `git+${table.git}` : (table.url as string);
      take(`${name}${extras} @ ${url}${markers}`);
      continue;
    }
    const version = typeof table.version === 'string' ? poetryConstraint(table.version) : '';
    take(`${name}${extras}${version ?? ''}${markers}`);
  }
  return { specs, refused };
}

/**
 * The constraints file of the lock in `dir` (the first of PYTHON_LOCKS there), written to `to`: what
 * the install's {pins} stands for. Throws an Error saying why when there is no readable lock.
 */
export function writePins(dir: string, to: string): PythonLock {
  const found = PYTHON_LOCKS.find(([file]) =>
    fs.statSync(path.join(dir, file), { throwIfNoEntry: false })?.isFile(),
  );
  if (!found) throw new Error(`no ${PYTHON_LOCKS.map(([f]) => f).join(', ')} in the project`);
  const [file, tool] = found;
  const size = fs.statSync(path.join(dir, file)).size;
  if (size > MAX_LOCK_BYTES) throw new Error(`${file} is larger than ${MAX_LOCK_BYTES / 1024 / 1024} MB`);
  const lock = parsePythonLock(file, tool, fs.readFileSync(path.join(dir, file), 'utf8'), null);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.writeFileSync(to, constraintsText(lock));
  return lock;
}

/** A PEP 440 version's release numbers ("1.2.3rc1" → [1, 2, 3]) and whether it is more than a release. */
function release(version: string): { nums: number[]; extra: boolean } | null {
  const m = /^v?(?:\d+!)?(\d+(?:\.\d+)*)(.*)$/i.exec(version.trim());
  if (!m) return null;
  return { nums: m[1]!.split('.').map(Number), extra: m[2]!.replace(/^\+.*$/, '') !== '' };
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/**
 * Whether `version` satisfies a PEP 440 specifier set (">=1.2,<2", "~=1.4", "==1.2.*"): true, false,
 * or null when Forge cannot tell (pre-releases and post-releases beside an equal release, `===`,
 * anything it does not read), so a caller never states more than it knows.
 */
export function satisfiesSpecifier(version: string, specifier: string): boolean | null {
  const v = release(version);
  if (!v) return null;
  for (const part of specifier
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(~=|==|!=|<=|>=|<|>)\s*(\S+)$/.exec(part);
    if (!m) return null;
    const [, op, target] = m;
    if (target!.endsWith('.*')) {
      const prefix = target!.slice(0, -2).split('.').map(Number);
      const same = compare(v.nums.slice(0, prefix.length), prefix) === 0;
      if (op === '==' ? !same : op === '!=' ? same : true) return op === '==' || op === '!=' ? false : null;
      continue;
    }
    const t = release(target!);
    if (!t) return null;
    const c = compare(v.nums, t.nums);
    if (c === 0 && (v.extra || t.extra)) return null;
    const ok =
      op === '=='
        ? c === 0
        : op === '!='
          ? c !== 0
          : op === '>='
            ? c >= 0
            : op === '<='
              ? c <= 0
              : op === '>'
                ? c > 0
                : op === '<'
                  ? c < 0
                  : c >= 0 &&
                    compare(
                      v.nums.slice(0, Math.max(t.nums.length - 1, 1)),
                      t.nums.slice(0, Math.max(t.nums.length - 1, 1)),
                    ) === 0;
    if (!ok) return false;
  }
  return true;
}
