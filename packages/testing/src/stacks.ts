import { makeZip } from './zip.ts';

/**
 * A pure-Python wheel of one module, as `pip wheel` writes it (RECORD without hashes is accepted):
 * pip installs it offline from a --find-links folder in the project. `metadata`: more METADATA
 * headers ("License: MIT").
 */
export function pythonWheel(name: string, version: string, module: string, metadata = ''): Buffer {
  const info = `${name}-${version}.dist-info`;
  const files: Record<string, string> = {
    [`${name}/__init__.py`]: module,
    [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n${metadata}`,
    [`${info}/WHEEL`]:
      'Wheel-Version: 1.0\nGenerator: forge-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
  };
  files[`${info}/RECORD`] = [...Object.keys(files), `${info}/RECORD`].map((f) => `${f},,`).join('\n') + '\n';
  return makeZip(files);
}
