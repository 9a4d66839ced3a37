import { isBuiltin } from 'node:module';

/**
 * Package names from import specifiers. RepairBot's own small helper, so that it does not depend on
 * the diagnosis engine: a subject arrives as a package name, but a specifier with a subpath is
 * accepted too.
 */

/** npm's rule for names (old mixed-case names included), without a leading "-": a name is put in argv. */
const NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/i;
/** npm refuses longer names. */
const MAX_NAME = 214;

/** The package a bare specifier imports ("lodash/fp" → "lodash", "@a/b/c" → "@a/b"), or null for a relative path, URL or built-in. */
export function packageNameOf(specifier: string): string | null {
  const spec = specifier.trim();
  if (spec === '' || spec.startsWith('.') || spec.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(spec)) {
    return null;
  }
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  if (!isValidPackageName(name) || isBuiltin(name)) return null;
  return name;
}

/** Whether `name` is a package name npm would accept, safe to pass as one argument. */
export function isValidPackageName(name: string): boolean {
  return name.length <= MAX_NAME && NAME.test(name) && !name.startsWith('@/');
}
