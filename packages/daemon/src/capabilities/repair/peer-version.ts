import path from 'node:path';
import semver from 'semver';
import type { Diagnosis } from '@forge/shared';
import { unifiedDiff } from './diff.ts';
import { setMember } from './json-edit.ts';
import { appManifest, lockfileOf, objectField, readInside } from './project.ts';
import type { RepairPlan, RepairTarget } from './types.ts';

/** Time one registry look-up may take. */
const LOOKUP_TIMEOUT_MS = 60_000;
const DEP_FIELDS = ['dependencies', 'devDependencies'] as const;

interface Declared {
  field: (typeof DEP_FIELDS)[number];
  range: string;
}

/**
 * USE_PEER_COMPATIBLE_VERSION, tried before any legacy peer mode: for a package of the conflict that
 * package.json declares (react-helmet-async), the newest version on the registry, newer than the one
 * declared, whose peer dependencies accept every other package of the conflict at the version
 * package.json asks for (react 19.3.1). package.json then asks for that version (the same prefix:
 * exact stays exact) and the install runs unlocked so the lockfile follows. Null when the registry
 * has none (legacy peer mode is then the last resort), or when it cannot be asked. A new major may be
 * chosen: the trial on a copy (or the rebuild) proves the project still builds with it.
 */
export async function planPeerVersion(
  diagnosis: Diagnosis,
  target: RepairTarget,
): Promise<RepairPlan | null> {
  const manifest = await appManifest(target.projectDir, target.blueprint);
  if (!manifest) return null;
  const declared = new Map<string, Declared>();
  for (const field of DEP_FIELDS) {
    for (const [name, range] of Object.entries(objectField(manifest, field) ?? {})) {
      if (typeof range === 'string' && semver.validRange(range)) declared.set(name, { field, range });
    }
  }
  const subjects = (diagnosis.subjects ?? []).filter((s) => declared.has(s));
  for (const name of subjects) {
    const own = declared.get(name)!;
    const current = semver.minVersion(own.range);
    if (!current) continue;
    // The other packages of the conflict, at the version package.json asks for.
    const peers = subjects
      .filter((s) => s !== name)
      .map((s) => ({ name: s, version: semver.minVersion(declared.get(s)!.range)?.version }))
      .filter((p): p is { name: string; version: string } => !!p.version);
    if (peers.length === 0) continue;
    const versions = await peerDependenciesOf(target, name, `>${current.version}`);
    const fits = versions
      .filter(
        (v) =>
          !semver.prerelease(v.version) &&
          peers.some((p) => v.peers[p.name] !== undefined) &&
          peers.every((p) => v.peers[p.name] === undefined || semver.satisfies(p.version, v.peers[p.name]!)),
      )
      .sort((a, b) => semver.rcompare(a.version, b.version));
    const chosen = fits[0];
    if (!chosen) continue;
    const prefix = /^[~^]/.exec(own.range.trim())?.[0] ?? '';
    const range = `${prefix}${chosen.version}`;
    const file = manifest.file;
    const before = await readInside(target.projectDir, file);
    if (before === null) return null;
    const after = setMember(before, [own.field], name, range);
    const lockfile = await lockfileOf(target.projectDir, target.blueprint);
    const accepts = peers.map((p) => `${p.name}@${p.version}`).join(', ');
    return {
      code: 'USE_PEER_COMPATIBLE_VERSION',
      summary: `RepairBot changed ${name} from "${own.range}" to "${range}" in ${file}: the newest version on the registry whose peer dependencies accept ${accepts}`,
      files: [file, ...(lockfile?.exists ? [lockfile.file] : [])],
      diff: unifiedDiff([{ file, before, after }]),
      writes: [{ file, content: after }],
      backup: lockfile ? [lockfile.file] : [],
      install: 'unfrozen',
    };
  }
  return null;
}

/** Every version of `name` in `range` with its peer dependencies, as `npm view --json` prints them. */
async function peerDependenciesOf(
  target: RepairTarget,
  name: string,
  range: string,
): Promise<{ version: string; peers: Record<string, string> }[]> {
  const out: string[] = [];
  const result = await target.run({
    argv: ['npm', 'view', `${name}@${range}`, 'peerDependencies', 'version', '--json'],
    cwd: path.join(target.projectDir, target.blueprint.installDir),
    env: target.blueprint.env,
    timeoutMs: LOOKUP_TIMEOUT_MS,
    onLine: (text, stream) => {
      if (stream === 'stdout') out.push(text);
    },
  });
  if (result.outcome !== 'succeeded') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(out.join('\n') || '[]');
  } catch {
    return [];
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.flatMap((entry) => {
    if (!entry || typeof entry !== 'object') return [];
    const { version, peerDependencies } = entry as { version?: unknown; peerDependencies?: unknown };
    if (typeof version !== 'string' || !semver.valid(version)) return [];
    const peers =
      peerDependencies && typeof peerDependencies === 'object'
        ? Object.fromEntries(
            Object.entries(peerDependencies).filter((e): e is [string, string] => typeof e[1] === 'string'),
          )
        : {};
    return [{ version, peers }];
  });
}
