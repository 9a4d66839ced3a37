import semver from 'semver';
import type { Diagnosis } from '@forge/shared';
import { REPAIR_HINT, type Context } from './context.ts';
import { lockstepPair } from '../lockstep.ts';

/**
 * MISMATCHED_PACKAGE_VERSIONS: two packages that must be the exact same version are not — React's
 * "Incompatible React versions: The "react" and "react-dom" packages must have the exact same
 * version. Instead got: - react: 19.1.1 - react-dom: 19.1.0" (react-dom throws it when it loads; React
 * Router's build prefixes "[react-router]"), Vue 2's "Vue packages version mismatch: - vue@2.7.16 (…)
 * - vue-template-compiler@2.7.15 (…)". The package.json entries are read to say which one pins them
 * apart: a package.json that asks for two versions gets the repair; ranges that both allow the same
 * version mean the lockfile resolved them apart, which is said instead.
 */

interface Pair {
  index: number;
  /** As the output lists them: the package whose version is kept first (react), then the one that must match. */
  versions: [{ name: string; version: string }, { name: string; version: string }];
}

function findPair(ctx: Context): Pair | null {
  for (let i = 0; i < ctx.lines.length; i += 1) {
    const line = ctx.lines[i]!;
    const react =
      /Incompatible React versions: The "([^"]+)" and "([^"]+)" packages must have the exact same version/.exec(
        line,
      );
    const vue = /Vue packages version mismatch/.test(line);
    if (!react && !vue) continue;
    const listed: { name: string; version: string }[] = [];
    for (const next of ctx.lines.slice(i + 1, i + 10)) {
      // React: "  - react:      19.1.1"; Vue: "- vue@2.7.16 (/path/…)".
      const m =
        /^\s*-\s+((?:@[\w.-]+\/)?[\w.-]+):\s+(\S+)\s*$/.exec(next) ??
        /^\s*-\s+((?:@[\w.-]+\/)?[\w.-]+)@(\S+)(?:\s+\(.*\))?\s*$/.exec(next);
      if (m && semver.valid(m[2]!)) listed.push({ name: m[1]!, version: m[2]! });
      if (listed.length === 2) break;
    }
    if (listed.length !== 2) continue;
    const pair = lockstepPair(listed[0]!.name, listed[1]!.name);
    if (react && !pair) continue;
    // The leader first, whatever order the message used.
    const ordered = pair && listed[0]!.name !== pair[0] ? [listed[1]!, listed[0]!] : listed;
    return { index: i, versions: [ordered[0]!, ordered[1]!] };
  }
  return null;
}

/** MISMATCHED_PACKAGE_VERSIONS, with ALIGN_PACKAGE_VERSIONS when package.json pins them apart. */
export async function mismatchedVersions(ctx: Context): Promise<Diagnosis | null> {
  const pair = findPair(ctx);
  if (!pair) return null;
  const [leader, follower] = pair.versions;
  if (leader.version === follower.version) return null;
  const ofLeader = await ctx.declaration(leader.name);
  const ofFollower = await ctx.declaration(follower.name);
  const base = `${leader.name} ${leader.version} and ${follower.name} ${follower.version} must be the exact same version`;
  const subjects = [`${leader.name}@${leader.version}`, `${follower.name}@${follower.version}`];
  const pinsApart =
    ofFollower !== null &&
    semver.validRange(ofFollower.spec) !== null &&
    !semver.satisfies(leader.version, ofFollower.spec);
  if (ofFollower && pinsApart) {
    const entries = [
      ...(ofLeader && ofLeader.file === ofFollower.file ? [`"${leader.name}": "${ofLeader.spec}"`] : []),
      `"${follower.name}": "${ofFollower.spec}"`,
    ].join(', ');
    const repairable = lockstepPair(leader.name, follower.name) !== null && ofLeader !== null;
    return {
      code: 'MISMATCHED_PACKAGE_VERSIONS',
      summary: `${base}, and ${ofFollower.file} asks for them apart (${entries}).`,
      file: ofFollower.file,
      suggestion: `Set ${ofFollower.field}."${follower.name}" in ${ofFollower.file} to "${leader.version}", ${leader.name}'s version, so both are ${leader.version}, and update the lockfile.${repairable ? ` ${REPAIR_HINT}` : ''}`,
      subjects,
      ...(repairable ? { repair: 'ALIGN_PACKAGE_VERSIONS' as const } : {}),
    };
  }
  const both = ofLeader && ofFollower && ofLeader.file === ofFollower.file;
  const allowed = both
    ? ` ${ofFollower.file} allows the same version for both ("${leader.name}": "${ofLeader.spec}", "${follower.name}": "${ofFollower.spec}"): the lockfile (or the installed node_modules) has them apart.`
    : '';
  return {
    code: 'MISMATCHED_PACKAGE_VERSIONS',
    summary: `${base}.${allowed}`,
    ...(ofFollower ? { file: ofFollower.file } : {}),
    suggestion: `Install ${follower.name} at ${leader.version} (e.g. npm install ${follower.name}@${leader.version}, or the same with the project's package manager) so both are ${leader.version}, and upload the updated lockfile.`,
    subjects,
  };
}
