import { makeZip } from './zip.ts';

/**
 * A pure-Python wheel of one package whose `__init__.py` is `module`, as `pip wheel` writes it (a
 * RECORD without hashes is accepted): tests put it in a `--find-links` folder of the project, since
 * no Python package index is reachable from the test machines.
 */
export function pythonWheel(name: string, version: string, module: string): Buffer {
  const info = `${name}-${version}.dist-info`;
  const files: Record<string, string> = {
    [`${name}/__init__.py`]: module,
    [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`,
    [`${info}/WHEEL`]:
      'Wheel-Version: 1.0\nGenerator: forge-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
  };
  files[`${info}/RECORD`] = [...Object.keys(files), `${info}/RECORD`].map((f) => `${f},,`).join('\n') + '\n';
  return makeZip(files);
}
