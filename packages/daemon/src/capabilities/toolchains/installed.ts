import fs from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';

/**
 * The toolchains folder: one complete folder per `<package>@<version>` (scoped names with `+` for `/`),
 * each with the package under node_modules/, its commands in bin/ and a marker written before the
 * folder was renamed into place, so a folder that has the marker is whole.
 *
 *   toolchains/pnpm@10.34.9/{node_modules/pnpm, bin/pnpm, bin/pnpx, toolchain.json}
 *   toolchains/.staging/   fetches in progress
 *   toolchains/.locks/     one lock per package while it is fetched
 */

export const MARKER_FILE = 'toolchain.json';
export const BIN_DIR = 'bin';
export const STAGING_DIR = '.staging';
export const LOCKS_DIR = '.locks';

/** What the marker of a toolchain folder says. */
export interface ToolchainMarker {
  package: string;
  version: string;
  /** npm's integrity of the package's tarball (sha512-…), when npm recorded one. */
  integrity: string | null;
  fetchedAt: string;
}

/** A complete toolchain folder. */
export interface InstalledToolchain {
  dir: string;
  binDir: string;
  marker: ToolchainMarker;
}

/** Folder name of a package at a version, e.g. "@yarnpkg+cli-dist@4.18.1". */
export const toolchainDirName = (pkg: string, version: string): string =>
  `${pkg.replace('/', '+')}@${version}`;

export async function readMarker(dir: string): Promise<ToolchainMarker | null> {
  try {
    const marker = JSON.parse(await fs.readFile(path.join(dir, MARKER_FILE), 'utf8')) as ToolchainMarker;
    return typeof marker.version === 'string' && typeof marker.package === 'string' ? marker : null;
  } catch {
    return null;
  }
}

const installed = (dir: string, marker: ToolchainMarker): InstalledToolchain => ({
  dir,
  binDir: path.join(dir, BIN_DIR),
  marker,
});

/** Every complete toolchain folder of `pkg`, newest version first (pre-releases too). */
export async function installedReleases(toolchainsDir: string, pkg: string): Promise<InstalledToolchain[]> {
  const prefix = `${toolchainDirName(pkg, '')}`;
  let names: string[];
  try {
    names = await fs.readdir(toolchainsDir);
  } catch {
    return [];
  }
  const versions = names
    .filter((name) => name.startsWith(prefix))
    .map((name) => name.slice(prefix.length))
    .filter((v) => semver.valid(v) === v)
    .sort(semver.rcompare);
  const found: InstalledToolchain[] = [];
  for (const version of versions) {
    const dir = path.join(toolchainsDir, toolchainDirName(pkg, version));
    const marker = await readMarker(dir);
    if (marker?.package === pkg && marker.version === version) found.push(installed(dir, marker));
  }
  return found;
}

/**
 * The installed toolchain that satisfies `request` without the network: the exact version's folder,
 * or for a major the newest installed release of that major (pre-releases only when asked exactly).
 */
export async function findInstalled(
  toolchainsDir: string,
  pkg: string,
  request: string,
): Promise<InstalledToolchain | null> {
  if (semver.valid(request)) {
    const dir = path.join(toolchainsDir, toolchainDirName(pkg, request));
    const marker = await readMarker(dir);
    return marker?.package === pkg && marker.version === request ? installed(dir, marker) : null;
  }
  const major = Number(request);
  const all = await installedReleases(toolchainsDir, pkg);
  return (
    all.find(
      (t) => semver.major(t.marker.version) === major && semver.prerelease(t.marker.version) === null,
    ) ?? null
  );
}

/** engines.node of the package in a toolchain folder, or null when it names none. */
export async function toolEngines(found: InstalledToolchain): Promise<string | null> {
  try {
    const manifest = JSON.parse(
      await fs.readFile(path.join(found.dir, 'node_modules', found.marker.package, 'package.json'), 'utf8'),
    ) as { engines?: { node?: unknown } };
    return typeof manifest.engines?.node === 'string' ? manifest.engines.node : null;
  } catch {
    return null;
  }
}
