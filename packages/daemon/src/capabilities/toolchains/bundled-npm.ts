import fs from 'node:fs';
import path from 'node:path';

/** The npm that ships with this Node, as its package.json says. */
export interface BundledNpm {
  version: string;
  /** Its engines.node: the Nodes it runs on (null when it names none). */
  engines: string | null;
}

let cached: BundledNpm | null | undefined;

/**
 * The npm that ships with this Node (the `npm` beside the `node` binary), or null when it cannot be
 * found. Read once: it is machine state like `process.versions.node`.
 */
export function bundledNpm(): BundledNpm | null {
  if (cached !== undefined) return cached;
  const bin = path.dirname(process.execPath);
  const candidates = [
    // The `npm` link beside node points into npm's package (…/lib/node_modules/npm/bin/npm-cli.js).
    () => path.resolve(fs.realpathSync(path.join(bin, 'npm')), '..', '..', 'package.json'),
    () => path.join(bin, '..', 'lib', 'node_modules', 'npm', 'package.json'),
    () => path.join(bin, 'node_modules', 'npm', 'package.json'),
  ];
  cached = null;
  for (const candidate of candidates) {
    try {
      const manifest = JSON.parse(fs.readFileSync(candidate(), 'utf8')) as {
        name?: unknown;
        version?: unknown;
        engines?: { node?: unknown };
      };
      if (manifest.name === 'npm' && typeof manifest.version === 'string') {
        const engines = manifest.engines?.node;
        cached = { version: manifest.version, engines: typeof engines === 'string' ? engines : null };
        break;
      }
    } catch {
      /* try the next place */
    }
  }
  return cached;
}

/**
 * The version of the npm that ships with this Node, or null. A project whose `packageManager` names
 * the same npm major needs no toolchain.
 */
export const bundledNpmVersion = (): string | null => bundledNpm()?.version ?? null;
