import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACT_SBOM_ENTRY, type RollbackResult, type ServerMessage } from '@forge/shared';
import { ForgeError } from '../../http/forge-error.ts';
import type { HomeLayout } from '../../home-layout.ts';
import { discardDir, swapDir } from '../../fs/moves.ts';
import type { Logger } from '../../logging/logger.ts';
import { extractArchive } from '../../capabilities/extract/index.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import type { PreviewRegistry } from '../../capabilities/preview/preview-registry.ts';
import {
  keptBuilds,
  previousGreenOf,
  whileRollingBackFrom,
  type KeptBuild,
} from '../../engine/artifact-history.ts';

export interface RollbackDeps {
  repo: Pick<BuildRepo, 'get' | 'project' | 'active' | 'setProjectOutput'>;
  layout: HomeLayout;
  previews: Pick<PreviewRegistry, 'serveStatic'>;
  broadcast: (message: ServerMessage) => void;
  logger: Logger;
  /** The keepArtifacts setting, for the message about a pruned build. */
  keep: () => number;
}

/** The kept build a rollback asks for (or the previous green one), or the error that says why not. */
function targetOf(deps: RollbackDeps, name: string, asked: string | undefined): KeptBuild {
  const kept = keptBuilds(deps.repo, deps.layout, name);
  const current = deps.repo.project(name)?.output?.buildId ?? null;
  if (asked === undefined) {
    const previous = previousGreenOf(kept, current);
    if (!previous) {
      throw new ForgeError(
        'NO_EARLIER_BUILD',
        `Project "${name}" has no earlier successful build to roll back to (${kept.length} kept).`,
      );
    }
    return previous;
  }
  const build = deps.repo.get(asked);
  const found = kept.find((k) => k.record.buildId === asked);
  if (found) return found;
  if (!build || build.projectName !== name) {
    throw new ForgeError('BUILD_NOT_FOUND', `Project "${name}" has no build "${asked}".`);
  }
  throw new ForgeError(
    'BUILD_NOT_KEPT',
    build.status === 'succeeded'
      ? `Build ${asked} of ${name} is no longer kept: its artifact was pruned (each project keeps its last ${deps.keep()} successful builds, the keepArtifacts setting).`
      : `Build ${asked} of ${name} ${build.status === 'running' || build.status === 'queued' ? 'has not finished' : 'did not succeed'}: only a successful build can be rolled back to.`,
  );
}

/**
 * Make a kept build the project's current preview and download, without building: its recorded
 * artifact is extracted beside the stored output and swapped in by renames (the old output is
 * deleted in the background), the project's output points at it (so "Download App" gives its
 * artifact and the build cache keys on its source), its preview is served, and /ws is told.
 */
export async function rollback(
  deps: RollbackDeps,
  name: string,
  asked: string | undefined,
): Promise<RollbackResult> {
  const started = performance.now();
  // A running build replaces the stored output when it ends: one writer at a time.
  if (deps.repo.active().some(({ build }) => build.projectName === name)) {
    throw new ForgeError('ROLLBACK_BUSY', `A build of "${name}" is running: roll back once it has finished.`);
  }
  const target = targetOf(deps, name, asked);
  const { record, dir } = target;
  const blueprint = target.build?.blueprint ?? null;
  if (blueprint?.kind !== 'static-build') {
    throw new ForgeError(
      'ROLLBACK_UNSUPPORTED',
      `Build ${record.buildId} of ${name} is ${blueprint ? `a ${blueprint.kind === 'server' ? 'server app' : 'plain static site'}` : 'not in the build store any more'}: only a built site's output can be switched back without building.`,
    );
  }
  const previousBuildId = deps.repo.project(name)?.output?.buildId ?? null;
  const outputDir = deps.layout.outputDir(name);

  await whileRollingBackFrom(dir, async () => {
    const staging = path.join(
      deps.layout.tmpDir,
      `rollback-${name}-${record.buildId}-${crypto.randomBytes(4).toString('hex')}`,
    );
    try {
      // The artifact is Forge's own ZIP, but it is read like any archive: nothing lands outside staging.
      await extractArchive(path.join(dir, record.name), {
        targetDir: staging,
        workDir: deps.layout.tmpDir,
        limits: { maxEntries: Math.max(record.files + 16, 1) },
      });
      // The SBOM rides in the download, not in the served site.
      fs.rmSync(path.join(staging, ARTIFACT_SBOM_ENTRY), { force: true });
      const forgeDir = path.join(staging, path.dirname(ARTIFACT_SBOM_ENTRY));
      if (fs.existsSync(forgeDir) && fs.readdirSync(forgeDir).length === 0) fs.rmdirSync(forgeDir);
      swapDir(staging, outputDir, deps.layout.tmpDir);
    } catch (err) {
      if (fs.existsSync(staging)) discardDir(staging, deps.layout.tmpDir);
      throw err;
    }
    // No await between the swap and this: two rollbacks at once leave the output and the record agreeing.
    // A build stored without its source hash gets one no tree hashes to: the cache never reuses it.
    const hash = target.build?.sourceHash ?? `artifact:${record.sourceSha256}`;
    deps.repo.setProjectOutput(name, hash, record.buildId);
  });

  // The output is switched either way; a preview that cannot start leaves the download working.
  const previewUrl = await deps.previews
    .serveStatic(name, outputDir, { site: blueprint.site ?? null })
    .then((info) => info.url)
    .catch((err: unknown) => {
      deps.logger.warn({ err, project: name }, 'the rolled-back output could not be previewed');
      return null;
    });
  const durationMs = Math.round(performance.now() - started);
  deps.logger.info(
    { project: name, buildId: record.buildId, previousBuildId, durationMs },
    'rolled back to an earlier build',
  );
  deps.broadcast({
    type: 'build-rollback',
    projectName: name,
    currentBuildId: record.buildId,
    previousBuildId,
    previewUrl,
    timestamp: new Date().toISOString(),
  });
  return {
    projectName: name,
    buildId: record.buildId,
    previousBuildId,
    artifactSha256: record.sha256,
    previewUrl,
    durationMs,
  };
}
