import semver from 'semver';
import type { Diagnosis } from '@forge/shared';
import { unifiedDiff } from './diff.ts';
import { setMember } from './json-edit.ts';
import { lockstepPair } from '../lockstep.ts';
import { isValidPackageName, stripVersion } from '../package-name.ts';
import { appManifest, lockfileOf, objectField, readManifest, type Manifest } from './project.ts';
import type { PlanResult, RepairTarget } from './types.ts';

/** The dependency fields a version is pinned in, in the order a package is looked for. */
const DEP_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

/** "react@19.1.1" → { name: "react", version: "19.1.1" } when it is a valid name and an exact version. */
function nameAndVersion(subject: string | undefined): { name: string; version: string } | null {
  if (!subject) return null;
  const name = stripVersion(subject);
  const version = subject.slice(name.length + 1);
  return isValidPackageName(name) && semver.valid(version) === version ? { name, version } : null;
}

const fieldOf = (manifest: Manifest, name: string) =>
  DEP_FIELDS.find((f) => typeof objectField(manifest, f)?.[name] === 'string') ?? null;

/**
 * ALIGN_PACKAGE_VERSIONS: two packages released together are installed at different versions because
 * package.json asks for them apart (react 19.1.1, react-dom 19.1.0). The second is pinned to the first's
 * exact version — every release of the first has one of the second with the same number — in the
 * package.json that declares both, and the install runs unlocked so the lockfile follows; the next
 * build proves it. Nothing else in the file changes.
 */
export async function planAlignVersions(diagnosis: Diagnosis, target: RepairTarget): Promise<PlanResult> {
  const leader = nameAndVersion(diagnosis.subjects?.[0]);
  const follower = nameAndVersion(diagnosis.subjects?.[1]);
  if (!leader || !follower)
    return { plan: null, reason: 'the diagnosis names no two package versions to align' };
  const pair = lockstepPair(leader.name, follower.name);
  if (!pair || pair[0] !== leader.name) {
    return {
      plan: null,
      reason: `${leader.name} and ${follower.name} are not packages RepairBot knows to be released together`,
    };
  }
  if (!target.blueprint.install)
    return { plan: null, reason: 'the project has no install step to install the aligned version with' };

  const app = await appManifest(target.projectDir, target.blueprint);
  const root =
    app && app.file !== 'package.json' ? await readManifest(target.projectDir, 'package.json') : null;
  const manifest = [app, root].find((m): m is Manifest => m !== null && fieldOf(m, follower.name) !== null);
  if (!manifest) return { plan: null, reason: `no package.json of the app declares ${follower.name}` };
  const field = fieldOf(manifest, follower.name)!;
  if (!fieldOf(manifest, leader.name)) {
    return {
      plan: null,
      reason: `${manifest.file} does not declare ${leader.name}: pinning ${follower.name} to its version would not keep them together`,
    };
  }
  const spec = objectField(manifest, field)![follower.name] as string;
  if (semver.validRange(spec) !== null && semver.satisfies(leader.version, spec)) {
    return {
      plan: null,
      reason: `${manifest.file} already allows ${follower.name}@${leader.version} ("${spec}"): pinning it would change nothing (where they still differ, the lockfile holds them apart)`,
    };
  }
  let text: string;
  try {
    text = setMember(manifest.text, [field], follower.name, leader.version);
  } catch (error) {
    return { plan: null, reason: `RepairBot could not edit ${manifest.file}: ${(error as Error).message}` };
  }
  const lockfile = await lockfileOf(target.projectDir, target.blueprint);
  return {
    plan: {
      code: 'ALIGN_PACKAGE_VERSIONS',
      summary: `RepairBot set ${follower.name} to ${leader.version} in ${manifest.file} (was "${spec}"), the version of ${leader.name}`,
      files: [manifest.file, ...(lockfile?.exists ? [lockfile.file] : [])],
      diff: unifiedDiff([{ file: manifest.file, before: manifest.text, after: text }]),
      writes: [{ file: manifest.file, content: text }],
      backup: lockfile ? [lockfile.file] : [],
      install: 'unfrozen',
    },
  };
}
