import { BlueprintError } from './blueprint-error.ts';
import { jsonErrorPlace } from './json-place.ts';
import type { DecisionLog } from './decisions.ts';
import { MAX_READ_BYTES, type ProjectFiles } from './project-files.ts';

export const PACKAGE_JSON = 'package.json';

const DEP_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;
type DepField = (typeof DEP_FIELDS)[number];
const ENTRY_FIELDS = ['exports', 'module', 'types', 'typings', 'main'] as const;

/** What detection needs from package.json, with malformed parts dropped (and noted) rather than fatal. */
export interface PackageInfo {
  /** Scripts whose command is a string. */
  scripts: Record<string, string>;
  /** The `packageManager` field, e.g. "pnpm@9.1.0", when it is a string. */
  packageManager: string | null;
  /** The raw "forge" key (the project's forge config), if present. */
  forge: unknown;
  /** Dependencies to install (dependencies, devDependencies, optionalDependencies). */
  installable: number;
  /** A "workspaces" field: packages elsewhere in the tree may have dependencies. */
  workspaces: boolean;
  /** The folder patterns of "workspaces" (its array, or Yarn's `{ packages: […] }`); [] when none. */
  workspacePatterns: string[];
  /** The "name" field, when it is a non-empty string. */
  name: string | null;
  /**
   * The fields that make a package importable (exports, module, types, typings, main) that it sets:
   * what a library has and an app usually does not.
   */
  entryFields: string[];
  /** Which field declares a package, or null. */
  depField(name: string): DepField | null;
  /** The version range a package is declared with ("^1.131.0"), or null when absent or not a string. */
  depVersion(name: string): string | null;
  /** Every package it declares, in any dependency field. */
  depNames(): string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Read and parse package.json; null when there is none. A broken one is an error, not "no package.json". */
export async function readPackageJson(files: ProjectFiles, log: DecisionLog): Promise<PackageInfo | null> {
  const file = await files.read(PACKAGE_JSON);
  if (!file) return null;
  if (file.truncated) {
    throw new BlueprintError(
      'BLUEPRINT_INVALID_PACKAGE_JSON',
      `package.json is ${file.size} bytes; Forge reads package.json files up to ${MAX_READ_BYTES} bytes.`,
      PACKAGE_JSON,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(file.text);
  } catch (err) {
    const place = jsonErrorPlace(file.text, err);
    throw new BlueprintError(
      'BLUEPRINT_INVALID_PACKAGE_JSON',
      place
        ? `package.json is not valid JSON at ${place.line}:${place.column}: ${place.what}.`
        : `package.json is not valid JSON: ${(err as Error).message}`,
      PACKAGE_JSON,
      [],
      place ? { line: place.line, column: place.column } : undefined,
    );
  }
  if (!isRecord(data)) {
    throw new BlueprintError(
      'BLUEPRINT_INVALID_PACKAGE_JSON',
      'package.json must hold a JSON object ({ … }).',
      PACKAGE_JSON,
    );
  }

  const scripts: Record<string, string> = {};
  if (data.scripts !== undefined && !isRecord(data.scripts)) {
    log.add('scripts', 'ignored', PACKAGE_JSON, '"scripts" is not an object, so no script is used');
  } else if (isRecord(data.scripts)) {
    for (const [name, command] of Object.entries(data.scripts)) {
      if (typeof command === 'string') scripts[name] = command;
    }
  }

  const deps = new Map<string, DepField>();
  const versions = new Map<string, string>();
  let installable = 0;
  for (const field of DEP_FIELDS) {
    const block = data[field];
    if (!isRecord(block)) continue;
    for (const [name, version] of Object.entries(block)) {
      if (!deps.has(name)) deps.set(name, field);
      if (!versions.has(name) && typeof version === 'string') versions.set(name, version);
      if (field !== 'peerDependencies') installable++;
    }
  }

  const workspaces = data.workspaces;
  const patterns = Array.isArray(workspaces)
    ? workspaces
    : isRecord(workspaces) && Array.isArray(workspaces.packages)
      ? workspaces.packages
      : [];

  return {
    scripts,
    packageManager: typeof data.packageManager === 'string' ? data.packageManager : null,
    forge: data.forge,
    installable,
    workspaces: data.workspaces !== undefined,
    workspacePatterns: patterns.filter((p): p is string => typeof p === 'string' && p.trim() !== ''),
    name: typeof data.name === 'string' && data.name.trim() !== '' ? data.name.trim() : null,
    entryFields: ENTRY_FIELDS.filter((field) => data[field] !== undefined),
    depField: (name) => deps.get(name) ?? null,
    depVersion: (name) => versions.get(name) ?? null,
    depNames: () => [...deps.keys()],
  };
}
