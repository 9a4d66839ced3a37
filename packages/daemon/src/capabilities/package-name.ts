import { builtinModules } from 'node:module';

/**
 * Which npm package an import specifier loads. One rule for ScanBot's diagnosis (a failed import
 * names the package to add), its scan (undeclared imports) and RepairBot (which adds it): all must
 * agree that `lodash/debounce` is `lodash` and that `node:fs` is nobody's package.
 */

const BUILTINS = new Set(builtinModules);

/** Node's own modules: `fs`, `fs/promises`, `node:test`, `node:sqlite` (the prefix marks them all). */
export function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier);
}

/** One segment of a package name: what npm accepts (legacy names may have capitals). */
const NAME_PART = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;

/**
 * The package a bare import specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`.
 * Null for a builtin, a relative or absolute path, a URL or protocol (`virtual:`, `https:`), a
 * subpath import (`#internal`) and a path alias that is no package name (`@/components`, `~/lib`).
 */
export function packageNameOf(specifier: string): string | null {
  const spec = specifier.trim();
  if (spec === '' || isNodeBuiltin(spec)) return null;
  if (/^[./#~\\]/.test(spec) || /^[A-Za-z][\w+.-]*:/.test(spec)) return null;
  const parts = spec.split('/');
  if (spec.startsWith('@')) {
    const [scope, name] = parts;
    if (!scope || !name || !NAME_PART.test(scope.slice(1)) || !NAME_PART.test(name)) return null;
    return `${scope}/${name}`;
  }
  const name = parts[0]!;
  return NAME_PART.test(name) && name.length <= 214 ? name : null;
}

/** "react@17.0.2" → "react", "@scope/x@^1" → "@scope/x", "vite" → "vite". */
export function stripVersion(spec: string): string {
  const at = spec.indexOf('@', 1);
  return at === -1 ? spec : spec.slice(0, at);
}

/** npm refuses longer names. */
const MAX_NAME = 214;
/** npm's rule for names (old mixed-case names included), without a leading "-": a name is put in argv. */
const NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*$/i;

/** Whether `name` is a package name npm would accept, safe to pass as one argument. */
export function isValidPackageName(name: string): boolean {
  return name.length <= MAX_NAME && NAME.test(name) && !name.startsWith('@/');
}
