import fs from 'node:fs';
import path from 'node:path';
import type { Build, HistoryEntry, ProjectHistory } from '@forge/shared';
import type { HomeLayout } from '../home-layout.ts';
import { discardDir } from '../fs/moves.ts';
import type { BuildRepo } from './build-repo.ts';
import { readArtifactRecord, type ArtifactRecord } from '../capabilities/artifacts/record.ts';

/**
 * A project's history (docs/artifacts.md): the successful builds whose artifact folder
 * FORGE_HOME/artifacts/<project>/<build>/ is still there. The folders are the truth — a build is
 * kept exactly as long as its recorded artifact is — and the build store adds when and what.
 */
export interface KeptBuild {
  record: ArtifactRecord;
  /** The stored build, or null when the store no longer has it (the artifact is still served). */
  build: Build | null;
  /** When it started: the build's createdAt, else the artifact folder's time. */
  createdAt: string;
  dir: string;
}

type RepoReads = Pick<BuildRepo, 'get' | 'project' | 'active'>;

/**
 * Artifact folders a rollback is extracting from right now, by absolute path: pruning leaves them
 * alone. Module-wide (not per service) because the pipeline prunes and the route rolls back.
 */
const rollingBack = new Set<string>();

/** Mark `dir` as a rollback's source until `work` settles. */
export async function whileRollingBackFrom<T>(dir: string, work: () => Promise<T>): Promise<T> {
  rollingBack.add(dir);
  try {
    return await work();
  } finally {
    rollingBack.delete(dir);
  }
}

/** A project's kept builds, newest first. */
export function keptBuilds(repo: RepoReads, layout: HomeLayout, name: string): KeptBuild[] {
  const root = layout.artifactsDir(name);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const kept: KeptBuild[] = [];
  for (const entry of entries) {
    // A record being written is a `.partial-` folder: not kept until it is renamed into place.
    if (!entry.isDirectory() || entry.name.includes('.partial-')) continue;
    const dir = path.join(root, entry.name);
    const record = readArtifactRecord(dir);
    if (!record || record.buildId !== entry.name) continue;
    const build = repo.get(record.buildId);
    const createdAt =
      build?.createdAt ?? new Date(fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? 0).toISOString();
    kept.push({ record, build, createdAt, dir });
  }
  // Ids are b<seq>-<random>: the sequence orders builds started in the same millisecond.
  const seq = (id: string) => Number(/^b(\d+)-/.exec(id)?.[1] ?? 0);
  return kept.sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || seq(b.record.buildId) - seq(a.record.buildId),
  );
}

/** Green: its tests did not fail (a successful build may carry failed optional tests). */
const isGreen = (k: KeptBuild): boolean => k.build?.verdict?.status !== 'failed';

/** The newest kept build whose tests did not fail, if any. */
export function lastGreenOf(kept: readonly KeptBuild[]): KeptBuild | null {
  return kept.find(isGreen) ?? null;
}

/**
 * The build a rollback without a named build returns to: the newest green build older than the
 * current one (any green build but the current one when the current is not kept).
 */
export function previousGreenOf(kept: readonly KeptBuild[], currentId: string | null): KeptBuild | null {
  const at = kept.findIndex((k) => k.record.buildId === currentId);
  const older = at === -1 ? kept.filter((k) => k.record.buildId !== currentId) : kept.slice(at + 1);
  return older.find(isGreen) ?? null;
}

/** GET /api/projects/:name/history. */
export function projectHistory(
  repo: RepoReads,
  layout: HomeLayout,
  name: string,
  keep: number,
): ProjectHistory {
  const kept = keptBuilds(repo, layout, name);
  const currentBuildId = repo.project(name)?.output?.buildId ?? null;
  const green = lastGreenOf(kept)?.record.buildId ?? null;
  const builds: HistoryEntry[] = kept.map(({ record, build, createdAt }) => ({
    buildId: record.buildId,
    createdAt,
    endedAt: build?.endedAt ?? null,
    sourceHash: build?.sourceHash ?? null,
    sourceSha256: record.sourceSha256,
    artifactSha256: record.sha256,
    bytes: record.bytes,
    files: record.files,
    verdict: build?.verdict ?? null,
    current: record.buildId === currentBuildId,
    lastGreen: record.buildId === green,
  }));
  return { projectName: name, currentBuildId, keep, builds };
}

export interface PruneInput {
  repo: RepoReads;
  layout: HomeLayout;
  name: string;
  /** How many of the newest kept builds stay (the keepArtifacts setting). */
  keep: number;
  /** A build that must stay whatever its rank: the one just recorded, not yet current. */
  alsoKeep?: string;
}

/**
 * Keep the project's newest `keep` artifacts and remove the older ones, except the current build,
 * the last green one, any build still running and any a rollback is reading. Each folder is renamed
 * out of the way and deleted in the background (fs/moves.ts): a build never waits on a mass delete.
 * Returns the ids removed.
 */
export function pruneHistory(input: PruneInput): string[] {
  const { repo, layout, name } = input;
  const kept = keptBuilds(repo, layout, name);
  const protectedIds = new Set<string>();
  const current = repo.project(name)?.output?.buildId;
  if (current) protectedIds.add(current);
  const green = lastGreenOf(kept);
  if (green) protectedIds.add(green.record.buildId);
  if (input.alsoKeep) protectedIds.add(input.alsoKeep);
  for (const { build } of repo.active()) protectedIds.add(build.id);
  const removed: string[] = [];
  for (const old of kept.slice(Math.max(1, input.keep))) {
    if (protectedIds.has(old.record.buildId) || rollingBack.has(old.dir)) continue;
    discardDir(old.dir, layout.tmpDir);
    removed.push(old.record.buildId);
  }
  return removed;
}
