import fs from 'node:fs';
import path from 'node:path';

let cached: string | null | undefined;

/**
 * The version of the npm that ships with this Node (the `npm` beside the `node` binary), or null
 * when it cannot be found. A project whose `packageManager` names the same npm major needs no
 * toolchain; read once, it is machine state like `process.versions.node`.
 */
export function bundledNpmVersion(): string | null {
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
      };
      if (manifest.name === 'npm' && typeof manifest.version === 'string') {
        cached = manifest.version;
        break;
      }
    } catch {
      /* try the next place */
    }
  }
  return cached;
}
