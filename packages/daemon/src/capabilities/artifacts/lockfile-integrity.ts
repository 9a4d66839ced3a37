import fs from 'node:fs';
import path from 'node:path';
import { parseSyml } from '@yarnpkg/parsers';

/**
 * What a lockfile records about each package: `name@version` → the integrity the package manager
 * checked the tarball against (SRI, "sha512-<base64>"), and the lockfile it came from. Read as text
 * for the four lockfiles Forge installs from. Yarn Berry's checksums are not SRI (a hash of the zip
 * Yarn repacks, not of the registry's tarball): its packages are listed with an empty integrity.
 * Only the fields an SBOM needs; the installed tree gives the rest.
 */
export interface LockfileIntegrity {
  file: string | null;
  integrity: Map<string, string>;
}

const SRI = /^(sha512|sha384|sha256|sha1)-[A-Za-z0-9+/]+=*$/;

function fromPackageLock(text: string, into: Map<string, string>): void {
  const lock = JSON.parse(text) as {
    packages?: Record<string, { name?: string; version?: string; integrity?: string }>;
    dependencies?: Record<string, { version?: string; integrity?: string }>;
  };
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    const at = key.lastIndexOf('node_modules/');
    if (at < 0 || !entry.version || !entry.integrity) continue;
    into.set(`${entry.name ?? key.slice(at + 'node_modules/'.length)}@${entry.version}`, entry.integrity);
  }
  // lockfileVersion 1 keeps a nested tree of dependencies instead.
  const walk = (deps: Record<string, { version?: string; integrity?: string; dependencies?: never }>) => {
    for (const [name, entry] of Object.entries(deps)) {
      if (entry.version && entry.integrity) into.set(`${name}@${entry.version}`, entry.integrity);
      if (entry.dependencies) walk(entry.dependencies);
    }
  };
  if (!lock.packages && lock.dependencies) walk(lock.dependencies as never);
}

/** pnpm-lock.yaml v5 to v9: a package key line, then its `resolution: {integrity: …}`. */
function fromPnpmLock(text: string, into: Map<string, string>): void {
  let current: string | null = null;
  for (const line of text.split('\n')) {
    const key = /^ {2}['"]?\/?((?:@[^/@\s]+\/)?[^/@\s]+)[@/]([0-9][^('":\s]*)[^:]*['"]?:\s*$/.exec(line);
    if (key) {
      current = `${key[1]}@${key[2]}`;
      continue;
    }
    if (!line.startsWith('    ')) {
      if (line.trim() !== '') current = null;
      continue;
    }
    const integrity = /integrity:\s*([^,}\s]+)/.exec(line);
    if (current && integrity?.[1] && SRI.test(integrity[1])) into.set(current, integrity[1]);
  }
}

/**
 * yarn.lock v2+ (Yarn Berry): syml, read by Yarn's own parser. Each entry's `resolution` names the
 * package and where it came from (`clsx@npm:2.1.1`); the project's workspaces and patched copies
 * (whose unpatched package has an entry of its own) are not packages of the tree.
 */
function fromBerryLock(text: string, into: Map<string, string>): void {
  const lock = parseSyml(text) as Record<string, { version?: unknown; resolution?: unknown }>;
  for (const [key, entry] of Object.entries(lock)) {
    if (key === '__metadata' || typeof entry !== 'object' || entry === null) continue;
    const { version, resolution } = entry;
    if (typeof version !== 'string' || typeof resolution !== 'string') continue;
    const at = resolution.indexOf('@', 1);
    if (at <= 0) continue;
    const protocol = resolution.slice(at + 1).split(':', 1)[0];
    if (protocol === 'workspace' || protocol === 'patch' || protocol === 'portal' || protocol === 'link')
      continue;
    into.set(`${resolution.slice(0, at)}@${version}`, '');
  }
}

/** yarn.lock v1: a block of specs, then `version "x"` and `integrity sha512-…`. */
function fromYarnLock(text: string, into: Map<string, string>): void {
  if (/^__metadata:/m.test(text)) {
    fromBerryLock(text, into);
    return;
  }
  for (const block of text.split(/\n(?=\S)/)) {
    const head = /^"?((?:@[^@/"\s]+\/)?[^@"\s]+)@/.exec(block);
    const version = /\n\s+version:?\s+"?([^"\s]+)"?/.exec(block);
    const integrity = /\n\s+integrity:?\s+"?([^"\s]+)"?/.exec(block);
    if (head?.[1] && version?.[1] && integrity?.[1] && SRI.test(integrity[1])) {
      into.set(`${head[1]}@${version[1]}`, integrity[1]);
    }
  }
}

/** bun.lock: one package a line, `"key": ["name@version", "", {…}, "sha512-…"]`. */
function fromBunLock(text: string, into: Map<string, string>): void {
  const line =
    /\[\s*"((?:@[^@"/]+\/)?[^@"]+)@([^"]+)"[^\n]*?"((?:sha512|sha384|sha256|sha1)-[A-Za-z0-9+/]+=*)"\s*\]/g;
  for (const m of text.matchAll(line)) into.set(`${m[1]}@${m[2]}`, m[3]!);
}

const READERS: Array<[string, (text: string, into: Map<string, string>) => void]> = [
  ['package-lock.json', fromPackageLock],
  ['npm-shrinkwrap.json', fromPackageLock],
  ['pnpm-lock.yaml', fromPnpmLock],
  ['yarn.lock', fromYarnLock],
  ['bun.lock', fromBunLock],
];

/** The lockfiles read, in the order npm prefers them. */
export const LOCKFILE_NAMES: readonly string[] = READERS.map(([name]) => name);

/**
 * What the text of the lockfile called `name` records (`name@version` → integrity, empty when the
 * lockfile records no SRI), read by the
 * same readers as readLockfileIntegrity; null when Forge reads no lockfile of that name or it does
 * not parse.
 */
export function lockfileEntries(name: string, text: string): Map<string, string> | null {
  const read = READERS.find(([n]) => n === name)?.[1];
  if (!read) return null;
  const integrity = new Map<string, string>();
  try {
    read(text, integrity);
  } catch {
    return null;
  }
  return integrity;
}

/** The integrities the lockfile of `installDir` records (the first lockfile found, in npm's order). */
export function readLockfileIntegrity(installDir: string): LockfileIntegrity {
  for (const [name, read] of READERS) {
    const file = path.join(installDir, name);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const integrity = new Map<string, string>();
    try {
      read(text, integrity);
    } catch {
      // A lockfile that does not parse records nothing we can trust; the SBOM says which file it read.
    }
    return { file: name, integrity };
  }
  return { file: null, integrity: new Map() };
}

/** An SRI string as the hash algorithm's CycloneDX name and hex digest, or null. */
export function sriToHex(
  sri: string,
): { alg: 'SHA-512' | 'SHA-384' | 'SHA-256' | 'SHA-1'; hex: string } | null {
  const m = /^(sha512|sha384|sha256|sha1)-(.+)$/.exec(sri.split(/\s+/)[0] ?? '');
  if (!m) return null;
  const alg = ({ sha512: 'SHA-512', sha384: 'SHA-384', sha256: 'SHA-256', sha1: 'SHA-1' } as const)[
    m[1] as 'sha512'
  ];
  return { alg, hex: Buffer.from(m[2]!, 'base64').toString('hex') };
}
