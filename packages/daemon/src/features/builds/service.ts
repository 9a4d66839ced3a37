import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_BUILDER_BOTS,
  formatBytes,
  type Blueprint,
  type Build,
  type CancelReason,
  type ServerMessage,
  type Settings,
  type UploadResult,
} from '@forge/shared';
import type { Logger } from '../../logging/logger.ts';
import type { Fleet } from '../../fleet/fleet.ts';
import { isValidProjectName, projectNameFromFile, type HomeLayout } from '../../home-layout.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { extractArchive, sweepExtractLeftovers } from '../../pipeline/extract/index.ts';
import { detectBlueprint } from '../../pipeline/detect/index.ts';
import { killProcessGroup } from '../../pipeline/run/index.ts';
import type { PreviewRegistry } from '../preview/preview-registry.ts';
import { BuildRun } from './build-run.ts';
import { discardDir } from './fs-moves.ts';
import { plural, runPipeline } from './pipeline.ts';
import type { BuildRepo } from './repo.ts';

export interface BuildServiceDeps {
  layout: HomeLayout;
  repo: BuildRepo;
  fleet: Fleet;
  previews: PreviewRegistry;
  logger: Logger;
  settings: () => Settings;
  broadcast: (message: ServerMessage) => void;
  sandbox: boolean;
}

/** How long shutdown waits for cancelled builds to wind down before leaving them to recovery. */
const SHUTDOWN_WAIT_MS = 4_000;

/**
 * Builds: uploads, rebuilds, cancel, supersede, recovery after a crash. One build per project at a
 * time: a newer upload or build of the same project cancels the older one ("superseded").
 */
export function createBuildService(deps: BuildServiceDeps) {
  const { layout, repo, logger } = deps;
  const current = new Map<string, BuildRun>();
  const runs = new Map<string, BuildRun>();
  const runDeps = { repo, broadcast: deps.broadcast, logger };
  const pipelineDeps = { ...deps };

  const track = (run: BuildRun) => {
    runs.set(run.id, run);
    const previous = current.get(run.projectName);
    current.set(run.projectName, run);
    void run.done.then(() => {
      runs.delete(run.id);
      if (current.get(run.projectName) === run) current.delete(run.projectName);
    });
    return previous;
  };

  /** Cancel a project's older build and wait until its processes are gone, before touching its files. */
  async function supersede(previous: BuildRun | undefined): Promise<void> {
    if (!previous || previous.finished) return;
    previous.log('SYSTEM', 'warn', 'A newer build of this project replaces this one.');
    previous.abort.abort('superseded' satisfies CancelReason);
    await previous.done;
  }

  function begin(projectName: string, noCache: boolean): { run: BuildRun; previous: BuildRun | undefined } {
    repo.touchProject(projectName, new Date());
    const run = new BuildRun(runDeps, repo.createBuild(projectName, { noCache, now: new Date() }));
    const previous = track(run);
    return { run, previous };
  }

  function assignBots(run: BuildRun): void {
    run.to('bot-assignment');
    for (const botName of DEFAULT_BUILDER_BOTS) {
      deps.broadcast({
        type: 'bot-assigned',
        botName,
        projectName: run.projectName,
        buildId: run.id,
        stage: 'bot-assignment',
      });
    }
  }

  /** Fail a build before the pipeline started (refused archive, broken package.json). */
  function failEarly(run: BuildRun, err: unknown): never {
    const forge = err instanceof ForgeError ? err : null;
    if (run.signal.aborted) {
      run.finish('cancelled', {
        cancelReason: 'superseded',
        error: { code: 'CANCELLED', message: 'Superseded by a newer upload.' },
      });
    } else {
      run.to('build-failed');
      run.log('ExtractBot', 'error', forge ? forge.message : `Upload failed: ${(err as Error).message}`);
      run.finish('failed', {
        error: { code: forge?.code ?? 'INTERNAL', message: forge?.message ?? (err as Error).message },
      });
    }
    throw err;
  }

  async function detect(run: BuildRun): Promise<Blueprint> {
    return deps.fleet.run(
      'BlueprintBot',
      { label: `plan ${run.projectName}`, projectName: run.projectName, buildId: run.id },
      async () => {
        const done = run.step('detect', 'BlueprintBot');
        let bp: Blueprint;
        try {
          bp = await detectBlueprint(layout.projectDir(run.projectName));
        } catch (err) {
          done('failed', (err as Error).message);
          throw err;
        }
        run.update((b) => (b.blueprint = bp));
        done('succeeded', `${bp.framework} (${bp.kind})`);
        run.log(
          'BlueprintBot',
          'info',
          `Plan: ${bp.framework} (${bp.kind})${bp.packageManager ? `, ${bp.packageManager}` : ''}${bp.outputDir && bp.kind === 'static-build' ? `, output ${bp.outputDir}/` : ''}`,
        );
        return bp;
      },
    );
  }

  /** Move installed dependencies aside before the source is replaced, so DependencyBot can reuse them. */
  function keepDependencies(projectName: string): () => void {
    const nodeModules = path.join(layout.projectDir(projectName), 'node_modules');
    if (!fs.existsSync(nodeModules)) return () => {};
    const kept = path.join(layout.depsDir(projectName), 'node_modules');
    discardDir(kept, layout.tmpDir);
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.renameSync(nodeModules, kept);
    return () => {
      // The upload failed: put them back, the project stays exactly as it was.
      if (fs.existsSync(layout.projectDir(projectName)) && !fs.existsSync(nodeModules))
        fs.renameSync(kept, nodeModules);
    };
  }

  return {
    /** Called when an upload starts streaming: the build exists in the store from its first byte. */
    beginUpload(fileName: string, opts: { noCache: boolean; rapid: boolean }): BuildRun {
      const projectName = projectNameFromFile(fileName);
      const { run, previous } = begin(projectName, opts.noCache);
      (run as BuildRun & { previous?: BuildRun }).previous = previous;
      if (opts.rapid)
        deps.broadcast({ type: 'rapid-build-start', projectName, buildId: run.id, stage: 'starting' });
      run.log('ExtractBot', 'info', `Receiving ${fileName} as project "${projectName}".`);
      return run;
    },

    /** The upload could not be received (too large, not a zip, client gone). */
    failUpload(run: BuildRun, err: unknown): void {
      try {
        failEarly(run, err);
      } catch {
        /* failEarly rethrows for the pipeline path; here the caller answers the error itself */
      }
    },

    /** The ZIP is on disk: supersede, extract, detect, answer, and build in the background. */
    async finishUpload(run: BuildRun, zipPath: string): Promise<UploadResult> {
      await supersede((run as BuildRun & { previous?: BuildRun }).previous);
      if (run.signal.aborted) failEarly(run, new ForgeError('BUILD_SUPERSEDED'));
      const name = run.projectName;
      assignBots(run);
      run.to('extraction');
      let restore = () => {};
      try {
        const result = await deps.fleet.run(
          'ExtractBot',
          { label: `extract ${name}`, projectName: name, buildId: run.id },
          async () => {
            restore = keepDependencies(name);
            return extractArchive(zipPath, {
              targetDir: layout.projectDir(name),
              workDir: layout.tmpDir,
              signal: run.signal,
              logger,
            });
          },
        );
        run.update((b) =>
          b.steps.push({
            name: 'extract',
            botName: 'ExtractBot',
            status: 'succeeded',
            startedAt: b.stages.at(-1)!.at,
            durationMs: Date.now() - Date.parse(b.stages.at(-1)!.at),
            detail: `${plural(result.fileCount, 'file')}, ${formatBytes(result.totalBytes)}${result.strippedPrefix ? `, top folder ${result.strippedPrefix}/ stripped` : ''}`,
            attempt: 1,
            debug: null,
          }),
        );
        if (result.dropped.length) run.log('ExtractBot', 'info', `Left out: ${result.dropped.join(', ')}`);
        run.log('ExtractBot', 'success', `Extracted ${plural(result.fileCount, 'file')}.`);
      } catch (err) {
        restore();
        failEarly(run, err);
      }
      run.to('extraction-complete');
      let blueprint: Blueprint;
      try {
        blueprint = await detect(run);
      } catch (err) {
        failEarly(run, err);
      }
      void runPipeline(pipelineDeps, run, blueprint);
      return {
        projectName: name,
        builderBots: [...DEFAULT_BUILDER_BOTS],
        buildResult: { success: true, hasPackageJson: blueprint.hasPackageJson },
        buildId: run.id,
      };
    },

    /** "Start Build": build an uploaded project again from its current files. */
    async startBuild(projectName: string, opts: { noCache: boolean }): Promise<Build> {
      if (
        !isValidProjectName(projectName) ||
        !repo.project(projectName) ||
        !fs.existsSync(layout.projectDir(projectName))
      ) {
        throw new ForgeError('PROJECT_NOT_FOUND', `There is no project named "${projectName}".`);
      }
      const { run, previous } = begin(projectName, opts.noCache);
      void (async () => {
        await supersede(previous);
        if (run.signal.aborted) return run.finish('cancelled', { cancelReason: 'superseded' });
        assignBots(run);
        let blueprint: Blueprint;
        try {
          blueprint = await detect(run);
        } catch (err) {
          try {
            failEarly(run, err);
          } catch {
            return;
          }
        }
        await runPipeline(pipelineDeps, run, blueprint);
      })();
      return run.snapshot();
    },

    cancel(id: string, reason: CancelReason = 'user'): Build {
      const run = runs.get(id);
      if (!run) {
        const stored = repo.get(id);
        if (!stored) throw new ForgeError('BUILD_NOT_FOUND', `There is no build "${id}".`);
        throw new ForgeError('BUILD_FINISHED', `Build ${id} has already finished (${stored.status}).`);
      }
      run.log('SYSTEM', 'warn', `Cancel requested (${reason}).`);
      run.abort.abort(reason);
      return run.snapshot();
    },

    get(id: string): Build {
      const run = runs.get(id);
      if (run) return run.snapshot();
      const build = repo.get(id);
      if (!build) throw new ForgeError('BUILD_NOT_FOUND', `There is no build "${id}".`);
      return build;
    },

    /** The plan of a ZIP without keeping it: extracted into scratch space, detected, thrown away. */
    async plan(zipPath: string): Promise<Blueprint> {
      const scratch = fs.mkdtempSync(path.join(layout.tmpDir, 'plan-'));
      try {
        const target = path.join(scratch, 'project');
        await extractArchive(zipPath, { targetDir: target, workDir: scratch, logger });
        return await detectBlueprint(target);
      } finally {
        discardDir(scratch, layout.tmpDir);
      }
    },

    /** A build that is still running, by id (for following). */
    running(id: string): BuildRun | undefined {
      return runs.get(id);
    },

    /**
     * After a crash: builds the store says were running are marked interrupted and every process
     * group they had is killed, so nothing of them is left running.
     */
    async recover(): Promise<number> {
      fs.mkdirSync(layout.tmpDir, { recursive: true });
      await sweepExtractLeftovers(layout.tmpDir, logger).catch(() => 0);
      const stale = repo.active();
      for (const build of stale) {
        for (const pid of build.pids) killProcessGroup(pid, 'SIGKILL');
        const run = new BuildRun(runDeps, build);
        run.log('SYSTEM', 'error', 'The Forge daemon stopped while this build was running.');
        run.finish('interrupted', {
          error: { code: 'BUILD_INTERRUPTED', message: 'The Forge daemon stopped while this build was running.' },
        });
      }
      for (const { name, pid } of repo.previewPids()) {
        killProcessGroup(pid, 'SIGKILL');
        repo.setPreviewPid(name, null);
      }
      if (stale.length) logger.warn({ builds: stale.map((b) => b.id) }, 'marked interrupted builds');
      return stale.length;
    },

    /** Shutdown: cancel every build, wait briefly; what does not stop in time is recovered at next start. */
    async shutdown(): Promise<void> {
      const pending = [...runs.values()];
      for (const run of pending) run.abort.abort('shutdown' satisfies CancelReason);
      await Promise.race([
        Promise.all(pending.map((r) => r.done)),
        new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref()),
      ]);
    },
  };
}

export type BuildService = ReturnType<typeof createBuildService>;
