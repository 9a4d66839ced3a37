import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_BUILDER_BOTS,
  LOCAL_WORKER,
  type Blueprint,
  type Build,
  type CancelReason,
  type ServerMessage,
  type Settings,
  type TestsPolicy,
  type UploadResult,
} from '@forge/shared';
import type { Logger } from '../../logging/logger.ts';
import { concurrencyOf, type Fleet } from '../../engine/fleet/fleet.ts';
import { isValidProjectName, projectNameFromFile, type HomeLayout } from '../../home-layout.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { discardDir } from '../../fs/moves.ts';
import { asDiskFull } from '../../fs/disk-full.ts';
import { extractArchive, sweepExtractLeftovers } from '../../capabilities/extract/index.ts';
import { detectBlueprint } from '../../capabilities/detect/index.ts';
import { killProcessGroup } from '../../capabilities/exec/index.ts';
import type { PreviewRegistry } from '../../capabilities/preview/preview-registry.ts';
import { inspectArchive } from '../uploads/inspect-archive.ts';
import { createSlots } from '../../engine/fleet/slots.ts';
import { BuildRun } from '../../engine/build-run.ts';
import { createPipeline } from '../../engine/pipeline.ts';
import type { BuildSource, FixRequest } from '../../engine/context.ts';
import { endCancelled, endFailed, endInterrupted } from '../../engine/endings.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import type { RepairJournal } from '../../capabilities/repair/journal.ts';
import { inProcessQueue, type JobQueue } from '../../engine/job-queue.ts';
import { createRemoteQueue, type RemoteQueue } from '../scale-out/remote-queue.ts';

export interface BuildServiceDeps {
  layout: HomeLayout;
  repo: BuildRepo;
  fleet: Fleet;
  previews: PreviewRegistry;
  logger: Logger;
  settings: () => Settings;
  broadcast: (message: ServerMessage) => void;
  sandbox: boolean;
  /** RepairBot's journal (repairs made during builds). */
  journal: RepairJournal;
  /** Scale-out: queue builds on the Redis at this URL for `forge worker` processes; null: run them here. */
  queueUrl?: string | null;
}

/** How long shutdown waits for cancelled builds to wind down before leaving them to recovery. */
const SHUTDOWN_WAIT_MS = 4_000;
/** Uploads in flight are received into tmp/ under this prefix (features/uploads/receive-zip.ts). */
const UPLOAD_PREFIX = 'upload-';

const INTERRUPTED_MESSAGE = 'The Forge daemon stopped while this build was running.';

/**
 * Builds: uploads, rebuilds, cancel, supersede, recovery after a crash. One build per project at a
 * time: a newer upload or build of the same project cancels the older one ("superseded"). The
 * engine (engine/pipeline.ts) runs each build; this service decides which builds run and answers
 * the routes. It never writes a build's record itself: its `BuildRun` does, and builds end through
 * engine/endings.ts.
 */
export function createBuildService(deps: BuildServiceDeps) {
  const { layout, repo, logger } = deps;
  /** The newest build of each project still in flight. */
  const current = new Map<string, BuildRun>();
  /** Every build in flight, by id. */
  const runs = new Map<string, BuildRun>();
  /** The build of the same project a new one replaces, until it has been superseded. */
  const replaces = new WeakMap<BuildRun, BuildRun>();
  const runDeps = { repo, broadcast: deps.broadcast, logger };
  const lane = createSlots(() => concurrencyOf(deps.settings()));
  const pipeline = createPipeline({ ...deps, lane, workerName: LOCAL_WORKER });
  const remote: RemoteQueue | null = deps.queueUrl
    ? createRemoteQueue({
        url: deps.queueUrl,
        fleet: deps.fleet,
        layout,
        repo,
        pipeline,
        logger,
        settings: deps.settings,
        broadcast: deps.broadcast,
        retry: (old) => {
          const run = begin(old.projectName, old.snapshot().noCache);
          const tests = old.snapshot().testsOption;
          if (tests) run.record({ testsOption: tests });
          return run;
        },
        adopt: (build) => follow(new BuildRun(runDeps, build)),
      })
    : null;
  const queue: JobQueue = remote?.queue ?? inProcessQueue(pipeline, lane);

  function begin(projectName: string, noCache: boolean): BuildRun {
    repo.touchProject(projectName, new Date());
    const run = new BuildRun(runDeps, repo.createBuild(projectName, { noCache, now: new Date() }));
    const previous = current.get(projectName);
    if (previous) replaces.set(run, previous);
    return follow(run);
  }

  /** Answer for `run` while it is in flight (it becomes its project's current build). */
  function follow(run: BuildRun): BuildRun {
    const known = runs.get(run.id);
    if (known) return known;
    const projectName = run.projectName;
    runs.set(run.id, run);
    current.set(projectName, run);
    // Kept until the store holds its end: a build whose end waits for disk space is still answered from here.
    void run.stored.then(() => {
      runs.delete(run.id);
      if (current.get(projectName) === run) current.delete(projectName);
    });
    return run;
  }

  /** Remember which app of a repository of several the project builds ("" or null: Forge picks). */
  function chooseApp(projectName: string, app: string | null): void {
    const dir = app?.replace(/\/+$/, '') || null;
    repo.setProjectApp(projectName, dir);
  }

  /** Cancel the build this one replaces and wait until its processes are gone, before touching files. */
  async function supersede(run: BuildRun): Promise<void> {
    const previous = replaces.get(run);
    replaces.delete(run);
    if (!previous || previous.finished) return;
    previous.log('SYSTEM', 'warn', 'A newer build of this project replaces this one.');
    previous.cancel('superseded');
    await previous.done;
  }

  /** End a build that has not started running (refused upload, superseded before it began). */
  function endBeforeStart(run: BuildRun, err: unknown): void {
    if (run.signal.aborted) return endCancelled(run);
    const known = asDiskFull(err, 'Receiving the upload');
    const forge = known instanceof ForgeError ? known : null;
    const message = forge ? forge.message : `Upload failed: ${(err as Error).message}`;
    endFailed(run, 'ExtractBot', { code: forge?.code ?? 'INTERNAL', message });
  }

  /**
   * A refused upload leaves no project behind: when the project has no files (this upload was its
   * first) and no newer build of it is in flight, its record goes, so nothing lists or offers it.
   * Its failed build stays in the history.
   */
  function forgetRefused(run: BuildRun): void {
    const name = run.projectName;
    const newer = current.get(name);
    if (newer && newer !== run && !newer.finished) return;
    if (!fs.existsSync(layout.projectDir(name))) repo.deleteProject(name);
  }

  return {
    /** Called when an upload starts streaming: the build exists in the store from its first byte. */
    beginUpload(
      fileName: string,
      opts: {
        noCache: boolean;
        rapid: boolean;
        app?: string | null | undefined;
        tests?: TestsPolicy | undefined;
      },
    ): BuildRun {
      const projectName = projectNameFromFile(fileName);
      const run = begin(projectName, opts.noCache);
      if (opts.tests) run.record({ testsOption: opts.tests });
      if (opts.app !== undefined) chooseApp(projectName, opts.app);
      if (opts.rapid) run.announceRapidStart();
      run.log('ExtractBot', 'info', `Receiving ${fileName} as project "${projectName}".`);
      return run;
    },

    /** The upload could not be received (too large, not a zip, client gone): the build ends here. */
    failUpload(run: BuildRun, err: unknown): void {
      replaces.delete(run);
      endBeforeStart(run, err);
      forgetRefused(run);
    },

    /**
     * The ZIP is on disk: supersede the project's older build, then run this one. Answers once the
     * archive is extracted and planned, or at once with `status: queued` when the build must wait
     * for a slot (its archive's listing is checked first, so a hostile archive is refused either way).
     * The build owns `zipPath` from here and removes it when it no longer needs it.
     */
    async finishUpload(run: BuildRun, zipPath: string): Promise<UploadResult> {
      const name = run.projectName;
      let listing: { hasPackageJson: boolean } | null = null;
      try {
        await supersede(run);
        if (run.signal.aborted) throw new ForgeError('BUILD_SUPERSEDED');
        // In-process, a queued build extracts later: its listing is checked now. The BullMQ queue
        // extracts every upload before it waits.
        if (queue.kind === 'in-process' && queue.busy) listing = await inspectArchive(zipPath);
      } catch (err) {
        fs.rm(zipPath, { force: true }, () => {});
        endBeforeStart(run, err);
        forgetRefused(run);
        throw err;
      }
      const source: BuildSource = { kind: 'upload', zipPath };
      void queue.run(run, source);
      // The answer waits for the build to say where it stands: planned, queued, or refused.
      const outcome = await run.planned;
      const answer = (hasPackageJson: boolean, status: 'queued' | 'running'): UploadResult => ({
        projectName: name,
        builderBots: [...DEFAULT_BUILDER_BOTS],
        buildResult: { success: true, hasPackageJson },
        buildId: run.id,
        status,
      });
      // An accepted upload is the user's choice of project; a refused one never is.
      if (outcome.kind !== 'refused') repo.chooseProject(name);
      switch (outcome.kind) {
        case 'planned':
          return answer(outcome.blueprint.hasPackageJson, 'running');
        case 'queued':
          return answer(
            listing?.hasPackageJson ?? fs.existsSync(path.join(layout.projectDir(name), 'package.json')),
            'queued',
          );
        case 'refused': {
          forgetRefused(run);
          const { code, message, details } = outcome.failure;
          if (outcome.failure.status === 'cancelled') throw new ForgeError('BUILD_SUPERSEDED', message);
          throw new ForgeError(code, message, details);
        }
      }
    },

    /**
     * "Start Build": build an uploaded project again from its current files. `fix`: make the
     * repair proposed for an earlier build first (`forge fix`, FixIt's apply button).
     */
    startBuild(
      projectName: string,
      opts: { noCache: boolean; app?: string | null | undefined; fix?: FixRequest; tests?: TestsPolicy },
    ): Build {
      if (
        !isValidProjectName(projectName) ||
        !repo.project(projectName) ||
        !fs.existsSync(layout.projectDir(projectName))
      ) {
        throw new ForgeError('PROJECT_NOT_FOUND', `There is no project named "${projectName}".`);
      }
      const run = begin(projectName, opts.noCache);
      if (opts.tests) run.record({ testsOption: opts.tests });
      if (opts.app !== undefined) chooseApp(projectName, opts.app);
      void (async () => {
        await supersede(run);
        if (run.signal.aborted) {
          opts.fix?.onApplied([]);
          return endBeforeStart(run, null);
        }
        await queue.run(run, { kind: 'rebuild', ...(opts.fix ? { fix: opts.fix } : {}) });
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
      run.cancel(reason);
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

    /** A build that is still in flight, by id (for following). */
    running(id: string): BuildRun | undefined {
      return runs.get(id);
    },

    /** Builds running and waiting for a slot. */
    get load(): { running: number; queued: number } {
      return queue.load;
    },

    /** Where builds run: the in-process queue, or BullMQ with its workers (null when in-process). */
    queue,
    remote,

    /**
     * After a crash: builds the store says were queued or running end `interrupted` and every
     * process group they had is killed, so nothing of them is left running; uploads left half
     * received and extraction scratch are removed.
     */
    async recover(): Promise<number> {
      fs.mkdirSync(layout.tmpDir, { recursive: true });
      await sweepExtractLeftovers(layout.tmpDir, logger).catch(() => 0);
      for (const entry of fs.readdirSync(layout.tmpDir)) {
        if (entry.startsWith(UPLOAD_PREFIX)) fs.rmSync(path.join(layout.tmpDir, entry), { force: true });
      }
      const active = repo.active();
      // The BullMQ queue keeps what still waits in Redis or runs on a worker; the rest was ours.
      const kept = await queue.recover(active.map((a) => a.build));
      const stale = active.filter((a) => !kept.has(a.build.id));
      for (const { build, pids } of stale) {
        for (const pid of pids) killProcessGroup(pid, 'SIGKILL');
        endInterrupted(new BuildRun(runDeps, build), INTERRUPTED_MESSAGE);
      }
      for (const { name, pid } of repo.previewPids()) {
        killProcessGroup(pid, 'SIGKILL');
        repo.setPreviewPid(name, null);
      }
      if (stale.length) logger.warn({ builds: stale.map((b) => b.build.id) }, 'marked interrupted builds');
      return stale.length;
    },

    /** Shutdown: cancel every build, wait briefly; what does not stop in time is recovered at next start. */
    async shutdown(): Promise<void> {
      // Builds on the BullMQ queue outlive the coordinator: they wait in Redis or run on a worker,
      // and the next start follows them again. Only what runs here is cancelled.
      const pending = [...runs.values()].filter((run) => !remote?.owns(run.id));
      for (const run of pending) run.cancel('shutdown');
      await Promise.race([
        Promise.all(pending.map((r) => r.done)),
        new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref()),
      ]);
      await queue.close();
    },
  };
}

export type BuildService = ReturnType<typeof createBuildService>;
