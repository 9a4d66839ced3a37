import fs from 'node:fs';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  isFinished,
  type BuildStep,
  ServerMessage,
  type Build,
  type CancelReason,
  type JobEventsBody,
  type JobStartResponse,
  type Repair,
  type Settings,
  type WorkerHelloBody,
  type WorkerInfo,
  type WorkerOrders,
} from '@forge/shared';
import type { HomeLayout } from '../../home-layout.ts';
import type { Logger } from '../../logging/logger.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { redactQueueUrl } from '../../config/load-config.ts';
import type { BuildRun } from '../../engine/build-run.ts';
import type { Pipeline } from '../../engine/pipeline.ts';
import type { BuildSource, FixRequest } from '../../engine/context.ts';
import { endCancelled, endFailed, endInterrupted } from '../../engine/endings.ts';
import type { BuildRepo } from '../../engine/build-repo.ts';
import type { JobQueue } from '../../engine/job-queue.ts';
import type { Fleet } from '../../engine/fleet/fleet.ts';
import { PROJECT_RESULT_STEPS } from '../../engine/steps/types.ts';
import { answerWithin, connectRedis, QUEUE_NAME, QUEUE_PREFIX } from './redis.ts';
import { keepWorkerFailedSource } from './artifact-transfer.ts';

/** A worker not heard from for this long is shown lost. */
export const WORKER_QUIET_MS = 10_000;
/**
 * A build still running on a worker that has been quiet this long ends `interrupted`: by then
 * BullMQ's stalled-job check has given its job to another worker, or there is no other worker.
 */
export const LOST_BUILD_MS = 60_000;
/** How long queueing a build may wait for Redis before the build fails QUEUE_UNAVAILABLE. */
const ENQUEUE_TIMEOUT_MS = 10_000;
/** How often the coordinator looks for quiet workers. */
const SWEEP_MS = 2_000;

/**
 * /ws messages of a worker's build relayed here; the rest (fleet, chat, settings) are the
 * coordinator's own, and the machine's (build-stage, build-finished) are made by `BuildRun.mirror()`
 * from the worker's record.
 */
const RELAYED = new Set<ServerMessage['type']>([
  'build-output',
  'build-error',
  'bot-assigned',
  'rapid-build-start',
  'build_complete',
  'log',
  'preview-ready',
]);

export interface RemoteQueueDeps {
  url: string;
  /** The coordinator's bots show the steps workers run for them (their cards, counts, failures). */
  fleet: Fleet;
  layout: HomeLayout;
  repo: BuildRepo;
  pipeline: Pipeline;
  logger: Logger;
  settings: () => Settings;
  broadcast: (message: ServerMessage) => void;
  /** A new build of the project of `old` (the retry of a build whose worker was lost). */
  retry(old: BuildRun): BuildRun;
  /** A build record from the store to follow again after a restart. */
  adopt(build: Build): BuildRun;
  now?: () => number;
}

/** A build of this queue: its run here, who runs it, and the job it came from. */
interface Remote {
  run: BuildRun;
  jobId: string;
  /** The worker that took it, or null while it waits in the queue. */
  worker: string | null;
  fix: FixRequest | null;
  /** The build output was sent (a static-build's output folder is now in outputs/). */
  outputReceived: boolean;
  /** The worker's repair ids, and the ids the same repairs have in this daemon's journal. */
  repairIds: Map<string, string>;
  /** Ended here, without its worker (lost, failed on the queue): what that worker still posts is stale. */
  endedHere: boolean;
}

interface WorkerState {
  info: Omit<WorkerInfo, 'status' | 'lastSeen'>;
  lastSeen: number;
  /** Whether clients were last told it is lost. */
  shownLost: boolean;
  /** Orders not yet delivered. */
  cancel: Map<string, CancelReason>;
  stopPreviews: Map<string, { projectName: string; port: number }>;
}

/**
 * The coordinator's side of the BullMQ queue. A build waits in Redis as a job (its id the build's
 * id); the `forge worker` that takes it asks here to start it, fetches the project's files, runs the
 * same engine, and posts back its record, stored lines and /ws messages, which this daemon's
 * `BuildRun` mirrors: clients see the same routes and messages as for an in-process build. Cancels
 * travel back as orders in the answers to the worker's posts.
 */
export function createRemoteQueue(deps: RemoteQueueDeps) {
  const { layout, repo, logger } = deps;
  const now = deps.now ?? Date.now;
  const connections: Redis[] = [];
  const connection = (name: string): Redis => {
    const redis = connectRedis(deps.url, name);
    redis.on('error', (err) => logger.debug({ err: err.message }, 'build queue connection error'));
    connections.push(redis);
    return redis;
  };
  const main = connection('forge-coordinator');
  const queue = new Queue(QUEUE_NAME, { connection: main, prefix: QUEUE_PREFIX });
  queue.on('error', (err) => logger.warn({ err: err.message }, 'build queue error'));
  const events = new QueueEvents(QUEUE_NAME, {
    connection: connection('forge-coordinator-events'),
    prefix: QUEUE_PREFIX,
  });
  events.on('error', (err) => logger.warn({ err: err.message }, 'build queue events error'));
  const remotes = new Map<string, Remote>();
  const workers = new Map<string, WorkerState>();
  /** Builds ended `interrupted` because their worker went quiet: BullMQ's retry may still come. */
  const lostUnretried = new Set<string>();
  let closed = false;

  // A job BullMQ gives up on (stalled twice, or its worker's processor failed): its build ends here.
  events.on('failed', ({ jobId, failedReason }) => {
    const remote = [...remotes.values()].find((r) => r.jobId === jobId && !r.run.finished);
    if (!remote) return;
    const why = `The build's job failed on the queue: ${failedReason}`;
    endHere(remote, why);
  });

  void (async () => {
    try {
      // The eviction policy was checked (and warned about) before the daemon started listening.
      await queue.waitUntilReady();
    } catch (err) {
      logger.error(
        { err: (err as Error).message, queue: redactQueueUrl(deps.url) },
        'build queue unreachable',
      );
    }
  })();

  const workerInfo = (w: WorkerState): WorkerInfo => ({
    ...w.info,
    status: now() - w.lastSeen > WORKER_QUIET_MS ? 'lost' : 'online',
    lastSeen: new Date(w.lastSeen).toISOString(),
  });
  const list = (): WorkerInfo[] =>
    [...workers.values()].map(workerInfo).sort((a, b) => a.name.localeCompare(b.name));
  const announce = () => deps.broadcast({ type: 'workers', queue: 'bullmq', workers: list() });

  function workerState(name: string): WorkerState {
    let w = workers.get(name);
    if (!w) {
      const at = now();
      w = {
        info: {
          name,
          host: '?',
          version: '?',
          concurrency: 1,
          running: [],
          jobsDone: 0,
          since: new Date(at).toISOString(),
        },
        lastSeen: at,
        shownLost: false,
        cancel: new Map(),
        stopPreviews: new Map(),
      };
      workers.set(name, w);
    }
    return w;
  }

  /** Orders for `name`, taken off its list (each is delivered once; a cancel is repeated until the build ends). */
  function ordersFor(name: string): WorkerOrders {
    const w = workers.get(name);
    if (!w) return { cancel: [], stopPreviews: [] };
    for (const id of w.cancel.keys()) if (remotes.get(id)?.run.finished ?? true) w.cancel.delete(id);
    const orders = {
      cancel: [...w.cancel].map(([buildId, reason]) => ({ buildId, reason })),
      stopPreviews: [...w.stopPreviews.values()],
    };
    w.stopPreviews.clear();
    return orders;
  }

  function setRunning(name: string, buildId: string, running: boolean): void {
    const w = workerState(name);
    const had = w.info.running.includes(buildId);
    if (running && !had) w.info.running = [...w.info.running, buildId];
    if (!running && had) {
      w.info.running = w.info.running.filter((id) => id !== buildId);
      w.info.jobsDone++;
    }
    if (running !== had) announce();
  }

  /** End a build here, without its worker: cancelled when it was asked to stop, else interrupted. */
  function endHere(remote: Remote, why: string): void {
    const { run } = remote;
    if (run.finished) return;
    remote.endedHere = true;
    if (run.signal.aborted) endCancelled(run);
    else endInterrupted(run, why);
    if (remote.worker) setRunning(remote.worker, run.id, false);
  }

  /** Steps a worker started or ended since its last post, on the coordinator's bot cards. */
  function showSteps(
    run: BuildRun,
    worker: string,
    before: readonly BuildStep[],
    after: readonly BuildStep[],
  ): void {
    after.forEach((step, i) => {
      const was = before[i];
      if (was && was.status !== 'running') return;
      const bot = deps.fleet.remote(step.botName, `${run.id}:${i}`);
      bot.start({
        label: `${step.name} ${run.projectName} on ${worker}`,
        projectName: run.projectName,
        buildId: run.id,
      });
      if (step.status === 'running') return;
      const ok =
        PROJECT_RESULT_STEPS.has(step.name) || (step.status !== 'failed' && step.status !== 'timed-out');
      bot.finish(step.status === 'cancelled' ? null : { ok, summary: step.detail });
    });
  }

  /** A build that ended without its worker saying so: its steps stop showing as running. */
  function clearSteps(run: BuildRun): void {
    run.snapshot().steps.forEach((step, i) => deps.fleet.remote(step.botName, `${run.id}:${i}`).finish(null));
  }

  function follow(run: BuildRun, jobId: string, fix: FixRequest | null, worker: string | null): Remote {
    const remote: Remote = {
      run,
      jobId,
      worker,
      fix,
      outputReceived: false,
      repairIds: new Map(),
      endedHere: false,
    };
    remotes.set(run.id, remote);
    run.signal.addEventListener(
      'abort',
      () => {
        if (run.finished) return;
        if (remote.worker === null) {
          // Still waiting in Redis: it ends now; a worker that takes its job anyway is told to skip it.
          endHere(remote, '');
          void queue.remove(jobId).catch(() => 0);
        } else {
          workerState(remote.worker).cancel.set(run.id, run.cancelReason ?? 'user');
        }
      },
      { once: true },
    );
    void run.stored.then(() => {
      clearSteps(run);
      remote.fix?.onApplied([]);
      remote.fix = null;
      // Kept a little longer: the worker's last messages (build_complete) may follow the end.
      setTimeout(() => {
        if (remotes.get(run.id) === remote) remotes.delete(run.id);
      }, 60_000).unref();
    });
    return remote;
  }

  /** Queue the build's job; fails (instead of waiting for Redis forever) after ENQUEUE_TIMEOUT_MS. */
  async function enqueue(run: BuildRun, jobId: string): Promise<void> {
    await answerWithin(
      queue.add(
        'build',
        { buildId: run.id, projectName: run.projectName },
        { jobId, removeOnComplete: true, removeOnFail: 1_000 },
      ),
      ENQUEUE_TIMEOUT_MS,
      `Redis at ${redactQueueUrl(deps.url)} did not answer within ${ENQUEUE_TIMEOUT_MS / 1000} s`,
    );
  }

  async function requeue(run: BuildRun): Promise<void> {
    const job = await queue.getJob(run.id);
    if (job && ((await job.isFailed()) || (await job.isCompleted()))) await job.remove();
    await enqueue(run, run.id);
  }

  // Quiet workers: shown lost; a build still running on one long after ends interrupted.
  const sweep = setInterval(() => {
    let changed = false;
    for (const w of workers.values()) {
      const quiet = now() - w.lastSeen;
      const lost = quiet > WORKER_QUIET_MS;
      if (lost !== w.shownLost) {
        w.shownLost = lost;
        changed = true;
      }
      if (quiet <= LOST_BUILD_MS) continue;
      for (const id of w.info.running) {
        const remote = remotes.get(id);
        if (!remote || remote.run.finished) continue;
        endHere(
          remote,
          `Worker ${w.info.name} stopped answering ${Math.round(quiet / 1000)} s ago while this build ran, and no other worker took it again.`,
        );
        if (!remote.run.signal.aborted) lostUnretried.add(id);
      }
    }
    if (changed) announce();
  }, SWEEP_MS);
  sweep.unref();

  const remoteOf = (buildId: string, worker: string): Remote => {
    const remote = remotes.get(buildId);
    if (!remote)
      throw new ForgeError('BUILD_FINISHED', `Build ${buildId} is not waiting for or running on a worker.`);
    if (remote.worker !== worker)
      throw new ForgeError('WORKER_MISMATCH', undefined, { buildId, worker: remote.worker });
    return remote;
  };

  /** The answer that hands `remote` to `worker`. */
  function runAnswer(remote: Remote, worker: string): JobStartResponse {
    remote.worker = worker;
    setRunning(worker, remote.run.id, true);
    const { run } = remote;
    return {
      action: 'run',
      build: run.snapshot(),
      logSeq: repo.lastLogSeq(run.id),
      app: repo.project(run.projectName)?.app ?? null,
      fix: remote.fix?.diagnosis ?? null,
      settings: deps.settings(),
    };
  }

  const jobQueue: JobQueue = {
    kind: 'bullmq',

    // What an upload answers is the run's `planned` event, as in process: queued once the job is in
    // Redis, refused when the build ends first (a refused archive, a cancel, Redis out of reach).
    async run(run: BuildRun, source: BuildSource): Promise<Build> {
      if (source.kind === 'upload' && !(await deps.pipeline.extractForQueue(run, source.zipPath))) {
        return run.done;
      }
      const fix = source.kind === 'rebuild' ? (source.fix ?? null) : null;
      const remote = follow(run, run.id, fix, null);
      if (run.signal.aborted) {
        endHere(remote, '');
        return run.done;
      }
      try {
        await enqueue(run, run.id);
        run.log('SYSTEM', 'info', 'Queued for a worker.');
        run.plan({ kind: 'queued' });
      } catch (err) {
        const message = `The build could not be queued: ${(err as Error).message}`;
        endFailed(run, 'SYSTEM', { code: 'QUEUE_UNAVAILABLE', message });
      }
      return run.done;
    },

    get busy() {
      return true;
    },

    get load() {
      let running = 0;
      let queued = 0;
      for (const r of remotes.values()) {
        if (r.run.finished) continue;
        if (r.worker === null) queued++;
        else running++;
      }
      return { running, queued };
    },

    async recover(active) {
      const kept = new Set<string>();
      for (const build of active) {
        const onWorker = build.status === 'running' && build.worker !== null && build.worker !== 'local';
        if (build.status !== 'queued' && !onWorker) continue;
        const run = deps.adopt(build);
        follow(run, build.id, null, onWorker ? build.worker : null);
        if (onWorker) {
          // Its worker has until LOST_BUILD_MS from now to say it still runs it.
          setRunning(build.worker!, build.id, true);
          workerState(build.worker!).lastSeen = now();
        } else {
          // Adding a job that is still waiting changes nothing (same job id); a lost one is queued
          // again, and one that ended on the queue without its build (failed, say, while this daemon
          // was down) is replaced.
          await requeue(run).catch((err: unknown) =>
            logger.error({ err: (err as Error).message, buildId: build.id }, 'could not queue a build again'),
          );
        }
        kept.add(build.id);
      }
      if (kept.size) logger.info({ builds: [...kept] }, 'builds kept on the queue across the restart');
      return kept;
    },

    async close() {
      closed = true;
      clearInterval(sweep);
      await Promise.allSettled([events.close(), queue.close()]);
      for (const c of connections) c.disconnect();
    },
  };

  return {
    queue: jobQueue,
    url: deps.url,

    workers: list,

    /** Does this queue run `buildId` (waiting in Redis or on a worker)? */
    owns: (buildId: string): boolean => remotes.has(buildId),

    hello(body: WorkerHelloBody): WorkerOrders {
      const w = workerState(body.name);
      const wasLost = w.shownLost;
      w.shownLost = false;
      const before = JSON.stringify(w.info);
      w.info = { ...w.info, host: body.host, version: body.version, concurrency: body.concurrency };
      w.lastSeen = now();
      // What it says it runs is the truth about it; builds it no longer has are its to report.
      for (const id of body.running) {
        const remote = remotes.get(id);
        if (remote?.worker === body.name && !remote.run.finished) setRunning(body.name, id, true);
      }
      if (wasLost || JSON.stringify(w.info) !== before) announce();
      return ordersFor(body.name);
    },

    start(buildId: string, worker: string, attempt: number): JobStartResponse {
      if (closed) throw new ForgeError('SHUTTING_DOWN');
      workerState(worker).lastSeen = now();
      const remote = remotes.get(buildId);
      if (!remote || remote.run.finished) {
        if (lostUnretried.delete(buildId)) {
          const old = deps.adopt(repo.get(buildId)!);
          const next = deps.retry(old);
          next.log('SYSTEM', 'warn', `Retry of build ${buildId}, whose worker stopped answering.`);
          return runAnswer(follow(next, buildId, null, null), worker);
        }
        return {
          action: 'skip',
          reason: remote ? 'the build has already ended' : 'no such build is waiting',
        };
      }
      if (remote.worker === null) return runAnswer(remote, worker);
      if (remote.worker === worker && attempt === 1) return runAnswer(remote, worker);
      // BullMQ gave the job again: its first worker stopped answering. The record of what ran there
      // stays as it is (interrupted); the build runs again, from the start, as a new build.
      const lostWorker = remote.worker;
      const next = deps.retry(remote.run);
      endHere(
        remote,
        `Worker ${lostWorker} stopped answering while this build ran; it runs again on ${worker} as build ${next.id}.`,
      );
      next.log(
        'SYSTEM',
        'warn',
        `Retry of build ${remote.run.id}, whose worker ${lostWorker} stopped answering.`,
      );
      logger.warn(
        { buildId: remote.run.id, retry: next.id, lostWorker, worker },
        'build retried on another worker',
      );
      return runAnswer(follow(next, remote.jobId, null, null), worker);
    },

    /** The project's files, for the worker running `buildId`. */
    sourceOf(buildId: string, worker: string): { dir: string; projectName: string } {
      const { run } = remoteOf(buildId, worker);
      const dir = layout.projectDir(run.projectName);
      if (!fs.existsSync(dir))
        throw new ForgeError('PROJECT_NOT_FOUND', `There is no project named "${run.projectName}".`);
      return { dir, projectName: run.projectName };
    },

    async events(buildId: string, body: JobEventsBody): Promise<WorkerOrders> {
      const remote = remoteOf(buildId, body.worker);
      workerState(body.worker).lastSeen = now();
      const { run } = remote;
      if (remote.endedHere) {
        // Its worker was given up on (quiet too long) and came back: the build ended here, maybe runs
        // again elsewhere. Nothing of it is relayed, and the worker is told to stop it.
        const orders = ordersFor(body.worker);
        const stale = body.record !== null && !isFinished(body.record.status);
        return stale ? { ...orders, cancel: [...orders.cancel, { buildId, reason: 'superseded' }] } : orders;
      }
      const messages: ServerMessage[] = [];
      for (const raw of body.messages) {
        const parsed = ServerMessage.safeParse(raw);
        if (!parsed.success || !RELAYED.has(parsed.data.type)) continue;
        const m = parsed.data;
        if ('buildId' in m && m.buildId !== undefined && m.buildId !== run.id) continue;
        if (m.type === 'build_complete') {
          const kind = body.record?.blueprint?.kind ?? run.snapshot().blueprint?.kind;
          const buildPath =
            kind === 'static-build' ? layout.outputDir(run.projectName) : layout.projectDir(run.projectName);
          messages.push({ ...m, buildOutput: { ...m.buildOutput, buildPath } });
        } else messages.push(m);
      }
      // Repairs the worker made are this daemon's repairs now (repair-transfer.ts): its ids replace the worker's.
      const mapRepairs = (repairs: Repair[]): Repair[] =>
        repairs.map((r) => {
          const id = remote.repairIds.get(r.id);
          return id ? { ...r, id } : r;
        });
      const record = body.record ? { ...body.record, repairs: mapRepairs(body.record.repairs) } : null;
      if (remote.fix && record && isFinished(record.status)) {
        // `forge fix` is answered with what was made before the build is seen to end.
        remote.fix.onApplied(record.repairs.filter((r) => r.status === 'applied' && r.buildId === run.id));
        remote.fix = null;
      }
      if (record && !run.finished && (record.status === 'failed' || record.status === 'timed-out')) {
        // Kept before the end is relayed, as a local build's is (artifact-transfer.ts).
        await keepWorkerFailedSource(layout, { id: run.id, projectName: run.projectName }, record.blueprint);
      }
      const stepsBefore = run.snapshot().steps;
      run.mirror({ record, logs: body.logs, messages });
      const after = run.snapshot();
      showSteps(run, body.worker, stepsBefore, after.steps);
      if (after.status === 'succeeded' && after.sourceHash) {
        const kind = after.blueprint?.kind;
        if (kind !== 'static-build' || remote.outputReceived)
          repo.setProjectOutput(run.projectName, after.sourceHash, run.id);
      }
      if (run.finished) setRunning(body.worker, run.id, false);
      return ordersFor(body.worker);
    },

    /** The files the worker's repairs changed were applied here, under these ids. */
    repairsReceived(buildId: string, worker: string, ids: ReadonlyMap<string, string>): void {
      const remote = remoteOf(buildId, worker);
      for (const [from, to] of ids) remote.repairIds.set(from, to);
    },

    /** The worker sent the build output: it is this project's output folder from now on. */
    outputReceived(buildId: string, worker: string): { projectName: string } {
      const remote = remoteOf(buildId, worker);
      remote.outputReceived = true;
      return { projectName: remote.run.projectName };
    },

    /** The build running on `worker`, for its preview. */
    runOf(buildId: string, worker: string): BuildRun {
      return remoteOf(buildId, worker).run;
    },

    /** A server-app preview on `worker` ended here: tell the worker to stop that app (the one on `port`). */
    stopPreviewOn(worker: string, projectName: string, port: number): void {
      workerState(worker).stopPreviews.set(`${projectName}:${port}`, { projectName, port });
    },
  };
}

export type RemoteQueue = ReturnType<typeof createRemoteQueue>;
