import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACT_SBOM_ENTRY, type Blueprint, type RollbackResult, type ServerMessage } from '@forge/shared';
import { ForgeError } from '../../http/forge-error.ts';
import type { HomeLayout } from '../../home-layout.ts';
import { discardDir, swapDir } from '../../fs/moves.ts';
import type { Logger } from '../../logging/logger.ts';
import { extractArchive } from '../../capabilities/extract/index.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import type { PreviewRegistry } from '../../capabilities/preview/preview-registry.ts';
import { markRolledBackTree, rolledBackTreeOf } from '../../capabilities/artifacts/rolled-back.ts';
import { LOCKFILE_NAMES } from '../../capabilities/artifacts/lockfile-integrity.ts';
import {
  keptBuilds,
  previousGreenOf,
  whileRollingBackFrom,
  type KeptBuild,
} from '../../engine/artifact-history.ts';

export interface RollbackDeps {
  repo: Pick<BuildRepo, 'get' | 'project' | 'active' | 'setProjectOutput' | 'setPreviewPid'>;
  layout: HomeLayout;
  previews: Pick<PreviewRegistry, 'serveStatic' | 'runServer'>;
  /** Whether a server app runs in the sandbox, as its builds' preview does (default: yes). */
  sandbox?: boolean;
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
  if (!blueprint || (blueprint.kind === 'server' && !blueprint.start) || blueprint.kind === 'unknown') {
    throw new ForgeError(
      'ROLLBACK_UNSUPPORTED',
      `Build ${record.buildId} of ${name} ${blueprint ? 'has no start command to run' : 'is not in the build store any more'}: its plan is needed to serve it again without building.`,
    );
  }
  const previousBuildId = deps.repo.project(name)?.output?.buildId ?? null;
  // A built site's output is the stored output; a plain static site or a server app is its tree,
  // served from beside the project's own files (capabilities/artifacts/rolled-back.ts).
  const built = blueprint.kind === 'static-build';
  const servedDir = built ? deps.layout.outputDir(name) : rolledBackTreeOf(deps.layout, name);

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
      if (blueprint.kind === 'server') linkInstalls(deps, name, record.buildId, blueprint, staging);
      swapDir(staging, servedDir, deps.layout.tmpDir);
    } catch (err) {
      if (fs.existsSync(staging)) discardDir(staging, deps.layout.tmpDir);
      throw err;
    }
    // No await between the swap and this: two rollbacks at once leave the output and the record agreeing.
    if (!built) markRolledBackTree(deps.layout, name, record.buildId);
    // A build stored without its source hash gets one no tree hashes to: the cache never reuses it.
    const hash = target.build?.sourceHash ?? `artifact:${record.sourceSha256}`;
    deps.repo.setProjectOutput(name, hash, record.buildId);
  });

  // The output is switched either way; a preview that cannot start leaves the download working.
  const previewUrl = await startPreview(deps, name, blueprint, servedDir).catch((err: unknown) => {
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

/** Serve the rolled-back tree: a site statically, a server app by its recorded start command. */
async function startPreview(
  deps: RollbackDeps,
  name: string,
  bp: Blueprint,
  served: string,
): Promise<string> {
  if (bp.kind !== 'server') {
    return (await deps.previews.serveStatic(name, served, { site: bp.site ?? null })).url;
  }
  deps.repo.setPreviewPid(name, null);
  const sandbox = deps.sandbox ?? true;
  // Linked into the project's node_modules (linkInstalls): the sandbox hides FORGE_HOME but what it
  // binds, so the project is bound too, as its build's preview had it (links inside node_modules,
  // e.g. npm's to a `file:` package, point into the project).
  const project = deps.layout.projectDir(name);
  const linked = fs.existsSync(path.join(served, bp.installDir, 'node_modules'));
  const started = await deps.previews.runServer(name, {
    argv: bp.start!,
    cwd: path.join(served, bp.appDir),
    projectDir: served,
    env: bp.env,
    home: deps.layout.buildHome(name),
    // An app of a workspace runs through links into the whole tree, as its build's preview does.
    sandbox:
      sandbox && (bp.appDir !== '.' || linked)
        ? { writable: linked ? [served, project] : [served] }
        : sandbox,
  });
  deps.repo.setPreviewPid(name, started.pid);
  return started.url;
}

/** The files that say what an install put in node_modules. */
const INSTALL_INPUTS = ['package.json', ...LOCKFILE_NAMES, 'yarn.lock', 'bun.lockb'];

const sameFile = (a: string, b: string): boolean =>
  fs.existsSync(b) && fs.readFileSync(a).equals(fs.readFileSync(b));

/**
 * A server app's artifact holds its files without node_modules. It runs against the project's
 * installed packages, linked into the tree, when the earlier build installed the same ones (its
 * package.json and lockfile are the project's current ones, byte for byte); when they differ it is
 * refused rather than run against packages it was not built with.
 */
function linkInstalls(deps: RollbackDeps, name: string, buildId: string, bp: Blueprint, tree: string): void {
  const project = deps.layout.projectDir(name);
  const folders = [...new Set([bp.installDir, bp.appDir])];
  const declares = folders.some((dir) => {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(tree, dir, 'package.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      return ['dependencies', 'devDependencies', 'optionalDependencies'].some(
        (field) => Object.keys((manifest[field] as object | undefined) ?? {}).length > 0,
      );
    } catch {
      return false;
    }
  });
  if (!declares) return;
  const differs = folders.flatMap((dir) =>
    INSTALL_INPUTS.map((file) => path.posix.join(dir, file)).filter((rel) => {
      const [kept, current] = [path.join(tree, rel), path.join(project, rel)];
      if (!fs.existsSync(kept)) return fs.existsSync(current);
      return !sameFile(kept, current);
    }),
  );
  if (differs.length > 0 || !fs.existsSync(path.join(project, bp.installDir, 'node_modules'))) {
    throw new ForgeError(
      'ROLLBACK_UNSUPPORTED',
      differs.length > 0
        ? `Build ${buildId} of ${name} installed other packages than the project has now (${differs.slice(0, 3).join(', ')} differ${differs.length > 3 ? `, and ${differs.length - 3} more` : ''}): a server app is rolled back without installing, so it would run against packages it was not built with.`
        : `Build ${buildId} of ${name} needs its packages installed and the project has none: a server app is rolled back without installing.`,
    );
  }
  for (const dir of folders) {
    const installed = path.join(project, dir, 'node_modules');
    if (fs.existsSync(installed)) fs.symlinkSync(installed, path.join(tree, dir, 'node_modules'), 'dir');
  }
}
