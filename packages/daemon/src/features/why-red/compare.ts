import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import {
  MAX_DIFF_DEPENDENCIES,
  MAX_DIFF_FILES,
  MAX_DIFF_LINES,
  MAX_DIFF_PATCHES,
  formatCommand,
  type Blueprint,
  type Build,
  type BuildDiff,
  type DependencyChange,
  type DependencyVersion,
  type FileChange,
  type ValueChange,
} from '@forge/shared';
import { fileDiff } from '../../capabilities/repair/diff.ts';
import type { HomeLayout } from '../../home-layout.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { ARTIFACT_FILES } from '../../capabilities/artifacts/record.ts';
import { LOCKFILE_NAMES, lockfileEntries } from '../../capabilities/artifacts/lockfile-integrity.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import { failedSourceFile } from '../../capabilities/artifacts/failed-source.ts';
import { pointsAt, summaryOf } from './points-at.ts';
import { readSourceZip, type SourceEntry } from '../../capabilities/artifacts/source-zip.ts';

export interface CompareDeps {
  repo: Pick<BuildRepo, 'get' | 'list'>;
  layout: HomeLayout;
}

/** A file larger than this is listed as changed without a diff. */
const MAX_DIFF_BYTES = 512 * 1024;
/** Builds of a project looked through for its last green one. */
const HISTORY = 500;

const FAILED: ReadonlySet<Build['status']> = new Set(['failed', 'timed-out']);

/**
 * "Why is it red now?": a failed build compared with the last successful build of its project
 * before it that Forge still holds the source of (docs/artifacts.md) — the source files, the
 * lockfile's packages, the toolchain, the plan and the environment's names — and which of those
 * changes the failure points at.
 */
export async function compareWithLastGreen(deps: CompareDeps, buildId: string): Promise<BuildDiff> {
  const red = deps.repo.get(buildId);
  if (!red) throw new ForgeError('BUILD_NOT_FOUND', `There is no build ${buildId}.`);
  if (!FAILED.has(red.status)) {
    throw new ForgeError(
      'NOT_A_FAILED_BUILD',
      `Build ${red.id} of ${red.projectName} ${red.status === 'succeeded' ? 'succeeded' : red.status === 'queued' || red.status === 'running' ? 'has not finished' : `was ${red.status}`}: only a failed build is compared with the last green build.`,
    );
  }
  const { green, unrecorded } = lastGreen(deps, red);
  if (!green) {
    throw new ForgeError(
      'NO_GREEN_BUILD',
      unrecorded
        ? `${red.projectName} has no earlier successful build whose source Forge still holds (build ${unrecorded} succeeded before artifacts were kept, or its record was pruned): nothing to compare ${red.id} with.`
        : `${red.projectName} has no successful build before ${red.id}: it has never been green, so there is nothing to compare with. Fix this build first (forge fix ${red.projectName}).`,
    );
  }
  const redZip = failedSourceFile(deps.layout, red.projectName, red.id);
  if (!fs.existsSync(redZip)) {
    throw new ForgeError(
      'NO_BUILD_SOURCE',
      `The source of build ${red.id} was not kept (it stopped before its files were planned, it is older than the last 10 failed builds of ${red.projectName}, or it ran before Forge kept failed sources): build it again to compare.`,
    );
  }
  const before = await readSourceZip(
    path.join(deps.layout.artifactsDir(red.projectName), green.id, ARTIFACT_FILES.source),
  );
  const after = await readSourceZip(redZip);
  const greenBp = green.blueprint;
  const redBp = red.blueprint;

  const dependencies = compareLockfiles(before, greenBp, after, redBp);
  const toolchain = changes(toolsOf(greenBp), toolsOf(redBp));
  const plan = changes(planOf(greenBp), planOf(redBp));
  const envBefore = new Set(Object.keys(greenBp?.env ?? {}));
  const envAfter = new Set(Object.keys(redBp?.env ?? {}));
  const env = {
    added: [...envAfter].filter((n) => !envBefore.has(n)).sort(),
    removed: [...envBefore].filter((n) => !envAfter.has(n)).sort(),
  };

  const changed = changedPaths(before, after);
  const pointers = pointsAt({
    build: red,
    greenId: green.id,
    changedFiles: changed,
    dependencies,
    toolchain,
    plan,
    env,
  });
  const pointed = new Set(pointers.filter((p) => p.kind === 'file').map((p) => p.name));
  const files = fileChanges(before, after, changed, pointed);

  const diagnosis = red.diagnosis;
  const location = red.error?.location;
  const failure = {
    code: red.error?.code ?? 'INTERNAL',
    message: red.error?.firstLine ?? red.error?.message ?? 'The build failed.',
    diagnosis: diagnosis?.code ?? null,
    file: diagnosis?.file ?? location?.file ?? null,
    line: diagnosis?.file ? (diagnosis.line ?? null) : (location?.line ?? null),
  };
  const diff: Omit<BuildDiff, 'summary'> = {
    buildId: red.id,
    projectName: red.projectName,
    greenBuildId: green.id,
    greenEndedAt: green.endedAt,
    failure,
    pointsAt: pointers,
    files,
    dependencies,
    toolchain,
    plan,
    env,
  };
  return { ...diff, summary: summaryOf(diff) };
}

/** The newest succeeded build before `red` with a recorded source; else the newest one without. */
function lastGreen(deps: CompareDeps, red: Build): { green: Build | null; unrecorded: string | null } {
  const builds = deps.repo.list({ project: red.projectName, limit: HISTORY });
  const at = builds.findIndex((b) => b.id === red.id);
  const earlier = at >= 0 ? builds.slice(at + 1) : builds.filter((b) => b.createdAt < red.createdAt);
  let unrecorded: string | null = null;
  for (const b of earlier) {
    if (b.status !== 'succeeded') continue;
    const source = path.join(deps.layout.artifactsDir(red.projectName), b.id, ARTIFACT_FILES.source);
    if (fs.existsSync(source)) return { green: b, unrecorded: null };
    unrecorded ??= b.id;
  }
  return { green: null, unrecorded };
}

/** Paths added, removed or modified (CRC or size differ), in byte order. */
function changedPaths(
  before: Map<string, SourceEntry>,
  after: Map<string, SourceEntry>,
): Map<string, FileChange['status']> {
  const changed = new Map<string, FileChange['status']>();
  for (const [name, a] of after) {
    const b = before.get(name);
    if (!b) changed.set(name, 'added');
    else if (b.crc !== a.crc || b.size !== a.size) changed.set(name, 'modified');
  }
  for (const name of before.keys()) if (!after.has(name)) changed.set(name, 'removed');
  return new Map([...changed].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

const isLockfile = (file: string): boolean =>
  LOCKFILE_NAMES.includes(path.posix.basename(file)) ||
  ['bun.lockb', 'yarn.lock'].includes(path.posix.basename(file));

const textOf = (entry: SourceEntry | undefined): { text: string | null; noDiff?: FileChange['noDiff'] } => {
  if (!entry) return { text: null };
  if (entry.size > MAX_DIFF_BYTES) return { text: null, noDiff: 'large' };
  const data = entry.read();
  if (data.subarray(0, 8000).includes(0)) return { text: null, noDiff: 'binary' };
  return { text: data.toString('utf8') };
};

/**
 * The changed files as the comparison lists them: those the failure points at first, then
 * package.json files, then the rest; at most MAX_DIFF_FILES, the first MAX_DIFF_PATCHES of them
 * with their unified diff cut at MAX_DIFF_LINES lines.
 */
function fileChanges(
  before: Map<string, SourceEntry>,
  after: Map<string, SourceEntry>,
  changed: Map<string, FileChange['status']>,
  pointed: ReadonlySet<string>,
): BuildDiff['files'] {
  const rank = (file: string) =>
    pointed.has(file) ? 0 : path.posix.basename(file) === 'package.json' ? 1 : isLockfile(file) ? 3 : 2;
  const ordered = [...changed.keys()].sort((x, y) => rank(x) - rank(y));
  const counts = { added: 0, removed: 0, modified: 0 };
  for (const status of changed.values()) counts[status]++;
  const listed: FileChange[] = [];
  let patches = 0;
  for (const file of ordered.slice(0, MAX_DIFF_FILES)) {
    const status = changed.get(file)!;
    if (isLockfile(file)) {
      listed.push({ path: file, status, noDiff: 'lockfile', linesMore: 0 });
      continue;
    }
    if (patches >= MAX_DIFF_PATCHES) {
      listed.push({ path: file, status, noDiff: 'limit', linesMore: 0 });
      continue;
    }
    const a = textOf(before.get(file));
    const b = textOf(after.get(file));
    const noDiff = a.noDiff ?? b.noDiff;
    if (noDiff) {
      listed.push({ path: file, status, noDiff, linesMore: 0 });
      continue;
    }
    const lines = fileDiff(file, a.text, b.text).replace(/\n$/, '').split('\n');
    patches++;
    listed.push({
      path: file,
      status,
      diff: `${lines.slice(0, MAX_DIFF_LINES).join('\n')}\n`,
      linesMore: Math.max(0, lines.length - MAX_DIFF_LINES),
    });
  }
  return { changes: listed, ...counts, more: Math.max(0, ordered.length - MAX_DIFF_FILES) };
}

/** The lockfile of a source (in the plan's install folder): its name and `name` → versions. */
function lockfileOf(
  files: Map<string, SourceEntry>,
  bp: Blueprint | null,
): { file: string | null; packages: Map<string, Set<string>> } {
  const installDir = bp?.installDir ?? '.';
  for (const name of LOCKFILE_NAMES) {
    const rel = path.posix.join(installDir, name);
    const entry = files.get(rel);
    if (!entry) continue;
    const entries = lockfileEntries(name, entry.read().toString('utf8'));
    const packages = new Map<string, Set<string>>();
    for (const key of entries?.keys() ?? []) {
      const at = key.lastIndexOf('@');
      if (at <= 0) continue;
      const [pkg, version] = [key.slice(0, at), key.slice(at + 1)];
      if (!packages.has(pkg)) packages.set(pkg, new Set());
      packages.get(pkg)!.add(version);
    }
    return { file: rel, packages };
  }
  return { file: null, packages: new Map() };
}

const newest = (versions: Iterable<string>): string | null =>
  [...versions].filter((v) => semver.valid(v)).sort(semver.rcompare)[0] ?? null;
const listOf = (versions: Set<string>): string =>
  [...versions]
    .sort((a, b) => (semver.valid(a) && semver.valid(b) ? semver.compare(a, b) : a.localeCompare(b)))
    .join(', ');

/** The packages of the two builds' lockfiles (in each plan's install folder): added, removed, changed. */
export function compareLockfiles(
  beforeFiles: Map<string, SourceEntry>,
  greenBp: Blueprint | null,
  afterFiles: Map<string, SourceEntry>,
  redBp: Blueprint | null,
): BuildDiff['dependencies'] {
  const before = lockfileOf(beforeFiles, greenBp);
  const after = lockfileOf(afterFiles, redBp);
  const added: DependencyVersion[] = [];
  const removed: DependencyVersion[] = [];
  const changed: DependencyChange[] = [];
  const names = [...new Set([...before.packages.keys(), ...after.packages.keys()])].sort();
  for (const name of names) {
    const from = before.packages.get(name);
    const to = after.packages.get(name);
    if (!from) for (const version of to!) added.push({ name, version });
    else if (!to) for (const version of from) removed.push({ name, version });
    else if (from.size !== to.size || [...from].some((v) => !to.has(v))) {
      const a = newest(from);
      const b = newest(to);
      changed.push({ name, from: listOf(from), to: listOf(to), upgrade: !!a && !!b && semver.gt(b, a) });
    }
  }
  const more =
    Math.max(0, added.length - MAX_DIFF_DEPENDENCIES) +
    Math.max(0, removed.length - MAX_DIFF_DEPENDENCIES) +
    Math.max(0, changed.length - MAX_DIFF_DEPENDENCIES);
  return {
    lockfile: { from: before.file, to: after.file },
    added: added.slice(0, MAX_DIFF_DEPENDENCIES),
    removed: removed.slice(0, MAX_DIFF_DEPENDENCIES),
    changed: changed.slice(0, MAX_DIFF_DEPENDENCIES),
    more,
  };
}

/** Node and the package manager a build ran with (the versions DependencyBot recorded in its plan). */
function toolsOf(bp: Blueprint | null): Map<string, string | null> {
  const tools = new Map<string, string | null>();
  tools.set('node', bp?.node?.resolved?.version ?? bp?.node?.current ?? null);
  const pm = bp?.toolchain ? bp.toolchain.package : (bp?.packageManager ?? null);
  tools.set(
    'package manager',
    pm ? `${pm}@${bp?.toolchain?.version ?? bp?.toolchain?.request ?? 'bundled'}` : null,
  );
  return tools;
}

/** The plan's fields a user would see change: what it is, with what, from where, into where. */
function planOf(bp: Blueprint | null): Map<string, string | null> {
  const cmd = (c: string[] | null | undefined) => (c ? formatCommand(c) : null);
  return new Map<string, string | null>([
    ['kind', bp?.kind ?? null],
    ['framework', bp?.framework ?? null],
    ['packageManager', bp?.packageManager ?? null],
    ['appDir', bp?.appDir ?? null],
    ['install', cmd(bp?.install)],
    ['build', cmd(bp?.build)],
    ['test', cmd(bp?.test)],
    ['start', cmd(bp?.start)],
    ['outputDir', bp?.outputDir ?? null],
  ]);
}

function changes(before: Map<string, string | null>, after: Map<string, string | null>): ValueChange[] {
  const out: ValueChange[] = [];
  for (const [name, from] of before) {
    const to = after.get(name) ?? null;
    if (from !== to) out.push({ name, from, to });
  }
  return out;
}
