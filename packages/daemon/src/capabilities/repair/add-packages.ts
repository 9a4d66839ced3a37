import path from 'node:path';
import type { Diagnosis } from '@forge/shared';
import { unifiedDiff } from './diff.ts';
import { addMember } from './json-edit.ts';
import { packageNameOf } from '../package-name.ts';
import { appManifest, lockfileOf, objectField, readManifest, type Manifest } from './project.ts';
import { resolveVersion } from './resolve-version.ts';
import type { PlanResult, RepairTarget } from './types.ts';

/** Every field a package can be declared in: one declared anywhere is not added again. */
const DEP_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** Config files (vite.config.ts, .eslintrc.cjs…) and tests need their packages at build time only. */
const DEV_IMPORTER = [
  /\.config\.[cm]?[jt]sx?$/,
  /^\.[\w-]+rc\.[cm]?[jt]s$/,
  /\.(?:test|spec)\.[cm]?[jt]sx?$/,
  /^(?:gulpfile|gruntfile)\.[cm]?[jt]s$/i,
];

const isDevImporter = (file: string | undefined): boolean =>
  file !== undefined && DEV_IMPORTER.some((re) => re.test(path.posix.basename(file)));

const hasEntries = (field: Record<string, unknown> | null): boolean =>
  field !== null && Object.keys(field).length > 0;

/** Where the package goes: devDependencies for a config file's import, or a project that keeps every dependency there (a Vite app). */
function targetField(manifest: Manifest, importer: string | undefined): 'dependencies' | 'devDependencies' {
  if (isDevImporter(importer)) return 'devDependencies';
  const allDev =
    !hasEntries(objectField(manifest, 'dependencies')) &&
    hasEntries(objectField(manifest, 'devDependencies'));
  return allDev ? 'devDependencies' : 'dependencies';
}

const declaredIn = (manifest: Manifest | null, name: string): string | null =>
  manifest ? (DEP_FIELDS.find((f) => objectField(manifest, f)?.[name] !== undefined) ?? null) : null;

const listed = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * ADD_MISSING_PACKAGES: each subject package the app's package.json does not declare, at `^` the
 * newest version the project's own package manager resolves; the lockfile (rewritten by the install
 * that follows) is saved and the install runs unlocked so it accepts the changed package.json.
 */
export async function planAddPackages(diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  const names = [
    ...new Set((diagnosis.subjects ?? []).map(packageNameOf).filter((n): n is string => n !== null)),
  ];
  if (names.length === 0) return { plan: null, reason: 'the diagnosis names no package to add' };
  if (!target.blueprint.install)
    return { plan: null, reason: 'the project has no install step to install a package with' };

  const manifest = await appManifest(target.projectDir, target.blueprint);
  if (!manifest) return { plan: null, reason: 'the app has no package.json that RepairBot can read' };
  // In a workspace, the root package.json may declare it for every app.
  const root =
    manifest.file === 'package.json' ? null : await readManifest(target.projectDir, 'package.json');

  const declared: string[] = [];
  const wanted: string[] = [];
  for (const name of names) {
    const field = declaredIn(manifest, name) ?? declaredIn(root, name);
    if (field) declared.push(`${name} (${field})`);
    else wanted.push(name);
  }
  if (wanted.length === 0) {
    return {
      plan: null,
      reason: `${listed(declared)} ${declared.length === 1 ? 'is' : 'are'} already declared in package.json: nothing to add`,
    };
  }

  const added: { name: string; range: string }[] = [];
  for (const name of wanted) {
    const lookup = await resolveVersion(target, name);
    if (lookup.ok) added.push({ name, range: `^${lookup.version}` });
    else if (lookup.missing) return { plan: null, reason: `${name} is not a package on the npm registry` };
    else return { plan: null, reason: `RepairBot could not resolve a version of ${name}: ${lookup.why}` };
  }

  const field = targetField(manifest, diagnosis.file);
  let text = manifest.text;
  try {
    if (objectField(manifest, field)) {
      for (const { name, range } of added) text = addMember(text, [field], name, range, { keepSorted: true });
    } else {
      // A new field, sorted as npm writes it, next to its sibling.
      const deps = Object.fromEntries(
        [...added].sort((a, b) => a.name.localeCompare(b.name, 'en')).map((a) => [a.name, a.range]),
      );
      text =
        field === 'dependencies'
          ? addMember(text, [], field, deps, { before: 'devDependencies' })
          : addMember(text, [], field, deps, { after: 'dependencies' });
    }
  } catch (error) {
    return { plan: null, reason: `RepairBot could not edit ${manifest.file}: ${(error as Error).message}` };
  }

  const lockfile = await lockfileOf(target.projectDir, target.blueprint);
  const what = added.map((a) => `${a.name}@${a.range}`).join(', ');
  return {
    plan: {
      code: 'ADD_MISSING_PACKAGES',
      summary: `RepairBot added ${what} to ${manifest.file}${field === 'devDependencies' ? ' (devDependencies)' : ''}`,
      files: [manifest.file, ...(lockfile?.exists ? [lockfile.file] : [])],
      diff: unifiedDiff([{ file: manifest.file, before: manifest.text, after: text }]),
      writes: [{ file: manifest.file, content: text }],
      backup: lockfile ? [lockfile.file] : [],
      install: 'unfrozen',
    },
  };
}
