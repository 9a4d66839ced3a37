import path from 'node:path';
import { FORGE_VERSION, formatDuration, testsVerdict, type Blueprint, type ErrorCode } from '@forge/shared';
import type { Logger } from '../logging/logger.ts';
import { diskFullMessage, isDiskFull } from '../fs/disk-full.ts';
import { listFiles } from '../fs/walk.ts';
import { recordArtifact } from '../capabilities/artifacts/record.ts';
import { keepFailedSource } from '../capabilities/artifacts/failed-source.ts';
import { pruneHistory } from './artifact-history.ts';
import type { BuildRun } from './build-run.ts';
import { stillWanted, Stop, type EngineContext } from './context.ts';
import { diagnoseFailure, probableCauseOf } from './diagnose-failure.ts';

/*
 * Every way a build ends, in one place: each says why in the build's log, then moves the build to
 * its final state through `BuildRun.end()` (or `succeed()`). The engine's flow ends builds here, and
 * so do the build service (refused uploads, recovery after a crash), the scale-out queue (a lost
 * worker, an unreachable Redis) and a worker (a project it could not fetch).
 */

/** Cancelled, on the word its signal carries (user, superseded, timeout, shutdown). */
export function endCancelled(run: BuildRun): void {
  if (run.finished) return;
  const reason = run.cancelReason ?? 'user';
  const message = `The build was cancelled (${reason}).`;
  run.log('SYSTEM', 'warn', message);
  run.end('cancelled', { cancelReason: reason, error: { code: 'CANCELLED', message } });
}

/** Failed outside any step (a refused upload, a queue that cannot be reached), said by `bot`. */
export function endFailed(
  run: BuildRun,
  bot: string,
  error: { code: ErrorCode; message: string; details?: unknown },
): void {
  if (run.finished) return;
  run.log(bot, 'error', error.message);
  run.end('failed', {
    error: { code: error.code, message: error.message },
    ...(error.details === undefined ? {} : { details: error.details }),
  });
}

/** Interrupted: whatever ran it stopped (the daemon, a worker) before it could end. */
export function endInterrupted(run: BuildRun, message: string): void {
  if (run.finished) return;
  run.log('SYSTEM', 'error', message);
  run.end('interrupted', { error: { code: 'BUILD_INTERRUPTED', message } });
}

/**
 * PackageBot: the build's reproducible artifact, SBOM, source ZIP and signed provenance
 * (docs/artifacts.md). A failure here is a warning: the output is there all the same.
 */
async function keepArtifact(
  ctx: EngineContext,
  run: BuildRun,
  buildPath: string,
  hash: string,
  bp: Blueprint,
): Promise<void> {
  const { layout } = ctx;
  const name = run.projectName;
  const started = Date.now();
  try {
    const snapshot = run.snapshot();
    const record = await recordArtifact({
      dir: path.join(layout.artifactsDir(name), run.id),
      projectName: name,
      buildId: run.id,
      outputDir: buildPath,
      projectDir: layout.projectDir(name),
      blueprint: bp,
      sourceHash: hash,
      startedOn: snapshot.createdAt,
      noCache: snapshot.noCache,
      forgeVersion: FORGE_VERSION,
      workerName: ctx.workerName,
      key: ctx.signingKey(),
    });
    // Off the hot path: pruned folders are renamed aside and deleted in the background.
    pruneHistory({ repo: ctx.repo, layout, name, keep: ctx.settings().keepArtifacts, alsoKeep: run.id });
    run.log(
      'PackageBot',
      'info',
      `Artifact ${record.name} (sha256 ${record.sha256.slice(0, 16)}…, ${record.files} files), SBOM of ${record.components} packages${record.lockfile ? ` from ${record.lockfile}` : ''}, provenance signed (key ${record.keyid.slice(0, 16)}…) in ${formatDuration(Date.now() - started)}.`,
    );
  } catch (err) {
    ctx.logger.warn({ err, buildId: run.id }, 'recording the artifact failed');
    run.log(
      'PackageBot',
      'warn',
      `ARTIFACT_RECORD_FAILED: no artifact, SBOM or provenance for this build: ${(err as Error).message}`,
    );
  }
}

/** Succeeded: the artifact kept, the output made the project's, `build_complete` with its files. */
export async function complete(
  ctx: EngineContext,
  run: BuildRun,
  buildPath: string,
  hash: string,
  bp: Blueprint,
): Promise<void> {
  stillWanted(run);
  await keepArtifact(ctx, run, buildPath, hash, bp);
  stillWanted(run);
  const files = await listFiles(buildPath, (rel) => rel === 'node_modules' || rel.startsWith('.'));
  ctx.repo.setProjectOutput(run.projectName, hash, run.id);
  run.log(
    'IntegrationBot',
    'success',
    `Build complete: ${files.length} files ready to integrate or download.`,
  );
  run.record({ verdict: testsVerdict(run.snapshot()) ?? null });
  run.succeed({ projectName: run.projectName, buildPath, files });
}

/**
 * A step stopped the build: cancelled when it was asked to stop, else with the step's failure,
 * ScanBot's reading of it, and the failed source kept (so "why is it red now?" can compare it as
 * soon as the build is red).
 */
async function stop(ctx: EngineContext, run: BuildRun, s: Stop): Promise<void> {
  if (run.finished) return;
  let diagnosis = s.context.diagnosis;
  if (diagnosis === undefined && !run.signal.aborted && s.failure.status !== 'cancelled') {
    diagnosis = await diagnoseFailure(
      ctx,
      run,
      { failure: s.failure, bot: s.bot, step: s.context.step ?? null },
      run.snapshot().blueprint,
    ).catch((err: unknown) => {
      ctx.logger.error({ err, buildId: run.id }, 'ScanBot could not diagnose the failure');
      return null;
    });
  }
  if (run.finished) return;
  if (run.signal.aborted || s.failure.status === 'cancelled') return endCancelled(run);
  run.log(s.bot, 'error', s.failure.message);
  const evidence = s.failure.evidence ?? {};
  if (evidence.firstLine && evidence.firstLine !== s.failure.message) {
    run.log(s.bot, 'error', `First error: ${evidence.firstLine}`);
  }
  const probableCause = probableCauseOf(run.snapshot().blueprint, s.failure.code);
  if (probableCause) run.log(s.bot, 'warn', probableCause);
  await keepFailedSource(ctx.layout, run.projectName, run.id, run.snapshot().blueprint);
  run.end(s.failure.status, {
    error: {
      code: s.failure.code,
      message: s.failure.message,
      ...evidence,
      ...(probableCause ? { probableCause } : {}),
      ...(s.failure.hint ? { hint: s.failure.hint } : {}),
    },
    ...(diagnosis ? { diagnosis } : {}),
    ...(s.failure.details === undefined ? {} : { details: s.failure.details }),
  });
}

/** End a build that stopped early: a Stop, a full disk, or a bug in the engine. Never throws. */
export async function endEarly(ctx: EngineContext, run: BuildRun, err: unknown): Promise<void> {
  try {
    if (err instanceof Stop) return await stop(ctx, run, err);
    const full = isDiskFull(err);
    if (!full) ctx.logger.error({ err, buildId: run.id }, 'the build engine failed');
    endFailed(run, 'SYSTEM', {
      code: full ? 'DISK_FULL' : 'INTERNAL',
      message: full
        ? diskFullMessage('The build', err)
        : `Forge failed inside the build: ${(err as Error).message}`,
    });
  } catch (endErr) {
    ctx.logger.error({ err: endErr, buildId: run.id }, 'could not end the build as it failed');
  }
}

/** Whatever went wrong on the way, no build is left `running`. */
export function endUnfinished(logger: Logger, run: BuildRun): void {
  try {
    endFailed(run, 'SYSTEM', { code: 'INTERNAL', message: 'Forge could not finish this build.' });
  } catch (endErr) {
    logger.error({ err: endErr, buildId: run.id }, 'could not end the build');
  }
}
