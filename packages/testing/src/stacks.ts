import fs from 'node:fs';
import path from 'node:path';
import { makeZip } from './zip.ts';

/** A wheel of these files (package paths → contents) with its metadata, as `pip wheel` writes it. */
function wheelOf(
  name: string,
  version: string,
  files: Record<string, string | Buffer>,
  metadata = '',
): Buffer {
  const info = `${name}-${version}.dist-info`;
  const all: Record<string, string | Buffer> = {
    ...files,
    [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n${metadata}`,
    [`${info}/WHEEL`]:
      'Wheel-Version: 1.0\nGenerator: forge-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
  };
  // A RECORD without hashes is accepted by pip.
  all[`${info}/RECORD`] = [...Object.keys(all), `${info}/RECORD`].map((f) => `${f},,`).join('\n') + '\n';
  return makeZip(all);
}

/**
 * A pure-Python wheel of one module, as `pip wheel` writes it: pip installs it offline from a
 * --find-links folder in the project. `metadata`: more METADATA headers ("License: MIT").
 */
export function pythonWheel(name: string, version: string, module: string, metadata = ''): Buffer {
  return wheelOf(name, version, { [`${name}/__init__.py`]: module }, metadata);
}

/**
 * A wheel of a pure-Python package installed on this machine (Debian's python3-django in
 * /usr/lib/python3/dist-packages/django…), for a test that needs the real package without an index.
 */
export function pythonWheelOfInstalled(name: string, version: string, packageDir: string): Buffer {
  const files: Record<string, Buffer> = {};
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '__pycache__') continue;
      const abs = path.join(dir, entry.name);
      const to = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(abs, to);
      else if (entry.isFile()) files[to] = fs.readFileSync(abs);
    }
  };
  walk(packageDir, path.basename(packageDir));
  return wheelOf(name, version, files);
}
