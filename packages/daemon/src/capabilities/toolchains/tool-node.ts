import type { PackageManager } from '@forge/shared';
import semver from 'semver';

/**
 * The Node each package manager needs, as its package.json's engines.node says (checked with
 * `npm view <tool>@<major> engines.node`). Only a forecast for the plan: DependencyBot reads the
 * engines of the tool it actually provisions.
 */
const FORECAST: Readonly<Record<PackageManager, readonly (readonly [fromMajor: number, range: string])[]>> = {
  pnpm: [
    [11, '>=22.13'],
    [9, '>=18.12'],
    [8, '>=16.14'],
    [7, '>=14.6'],
  ],
  // Yarn 1 asks for Node >=4, which every Node Forge can run satisfies; Berry 4 for 18.12.
  yarn: [[4, '>=18.12.0']],
  npm: [
    [11, '^20.17.0 || >=22.9.0'],
    [10, '^18.17.0 || >=20.5.0'],
    [9, '^14.17.0 || ^16.13.0 || >=18.0.0'],
    [8, '^12.13.0 || ^14.15.0 || >=16'],
  ],
  // bun is a native binary: it does not run on Node.
  bun: [],
};

/** The Node range a package manager's major is known to need, or null when Forge does not know one. */
export function forecastToolNode(tool: PackageManager, major: number): string | null {
  return FORECAST[tool].find(([from]) => major >= from)?.[1] ?? null;
}

/**
 * The npm major to run on a Node the machine's own npm does not run on: the newest whose engines
 * admit it (npm 10 for Node 18.17+, npm 9 for older 18s and 16, npm 8 for 12 and 14). Null when none does.
 */
export function npmMajorFor(nodeVersion: string): number | null {
  for (const [major, range] of FORECAST.npm) {
    if (semver.satisfies(nodeVersion, range)) return major;
  }
  return null;
}
