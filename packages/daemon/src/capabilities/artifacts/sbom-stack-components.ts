import { Enums, Models } from '@cyclonedx/cyclonedx-library';
import { PackageURL } from 'packageurl-js';
import { normalizePypi } from '../detect/python-lock.ts';
import { stackPackages, type StackPackage } from './sbom-stacks.ts';

/** A package's purl: pypi names in their normal form, Go's and Composer's paths split at the last "/". */
export function stackPurl(p: StackPackage): string {
  if (p.type === 'pypi')
    return new PackageURL('pypi', undefined, normalizePypi(p.name), p.version).toString();
  const slash = p.name.lastIndexOf('/');
  const [namespace, name] =
    slash > 0 ? [p.name.slice(0, slash), p.name.slice(slash + 1)] : [undefined, p.name];
  return new PackageURL(p.type, namespace, name, p.version).toString();
}

const keyOf = (p: Pick<StackPackage, 'type'>, name: string) =>
  p.type === 'pypi' ? normalizePypi(name) : name.toLowerCase();

/**
 * Add the packages of a Python, Go or PHP build to the SBOM: each with its purl, hash and licence,
 * the root depending on what the project requires itself, each package on what it requires.
 * Returns how many were added and the file they came from; null for a JavaScript build.
 */
export function addStackComponents(
  bom: Models.Bom,
  root: Models.Component,
  input: {
    stack: string | undefined;
    dir: string;
    venv: string | null;
    licensesOf: (names: string[]) => Models.License[];
  },
): { components: number; lockfile: string | null } | null {
  const found = stackPackages(input.stack, input.dir, input.venv);
  if (!found) return null;
  const byName = new Map<string, Models.Component>();
  for (const p of found.packages) {
    const purl = stackPurl(p);
    const component = new Models.Component(Enums.ComponentType.Library, p.name, {
      bomRef: purl,
      version: p.version,
      purl,
    });
    if (p.hash) component.hashes.set(p.hash.alg as Enums.HashAlgorithm, p.hash.hex);
    for (const license of input.licensesOf(p.licenses)) component.licenses.add(license);
    if (p.development) component.properties.add(new Models.Property('forge:package:development', 'true'));
    byName.set(keyOf(p, p.name), component);
    bom.components.add(component);
  }
  for (const p of found.packages) {
    const component = byName.get(keyOf(p, p.name))!;
    for (const dep of p.requires) {
      const target = byName.get(keyOf(p, dep));
      if (target && target !== component) component.dependencies.add(target.bomRef);
    }
  }
  const type = found.packages[0]?.type ?? 'pypi';
  for (const name of found.direct) {
    const target = byName.get(keyOf({ type }, name));
    if (target) root.dependencies.add(target.bomRef);
  }
  return { components: found.packages.length, lockfile: found.lockfile };
}
