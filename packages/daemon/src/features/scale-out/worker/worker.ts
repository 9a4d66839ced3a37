import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker, type Job } from 'bullmq';
import {
  DEFAULT_SETTINGS,
  FORGE_VERSION,
  type Build,
  type JobStartResponse,
  type ServerMessage,
  type Settings,
  type WorkerOrders,
} from '@forge/shared';
import type { Logger } from '../../../logging/logger.ts';
import { redactQueueUrl } from '../../../config/load-config.ts';
import { openStore, STORE_FILE, type Store } from '../../../store/store.ts';
import { acquireInstanceLock } from '../../../lifecycle/instance-lock.ts';
import { sweepScratch } from '../../../fs/atomic-write.ts';
import { homeLayout, type HomeLayout } from '../../../home-layout.ts';
import { concurrencyOf, createFleet } from '../../../engine/fleet/fleet.ts';
import { createBuildRepo, type BuildRepo } from '../../../engine/build-repo.ts';
import { createLogArchive } from '../../../engine/log-archive.ts';
import { BuildRun } from '../../../engine/build-run.ts';
import { createSlots } from '../../../engine/fleet/slots.ts';
import { createPipeline } from '../../../engine/pipeline.ts';
import { endFailed } from '../../../engine/endings.ts';
import { createRepairJournal } from '../../../capabilities/repair/journal.ts';
import {
  createPreviewRegistry,
  type PreviewInfo,
  type PreviewRegistry,
  type ServerPreviewInfo,
} from '../../../capabilities/preview/preview-registry.ts';
import { startTcpRelay, type TcpRelay } from '../../../capabilities/preview/tcp-relay.ts';
import { zipDirToFile } from '../../../capabilities/artifacts/zip-dir.ts';
import {
  LOCK_DURATION_MS,
  QUEUE_NAME,
  QUEUE_PREFIX,
  STALLED_INTERVAL_MS,
  connectRedis,
  evictionWarning,
  openRedis,
} from '../redis.ts';
import { createCoordinatorClient, CoordinatorError, type CoordinatorClient } from './coordinator-client.ts';
import { Forwarder } from './forwarder.ts';
import { appliedRepairsOf, packRepairs } from '../repair-transfer.ts';
import { packArtifactRecord } from '../artifact-transfer.ts';

/**
 * The folder an output ZIP puts every file under: the coordinator's extraction strips one common top
 * folder, so it strips exactly this one and never the output's own (an output holding one folder).
 */
const OUTPUT_ZIP_PREFIX = 'output/';
/** How long a worker keeps asking a coordinator that does not answer to start a job it took. */
const START_RETRY_MS = 15 * 60_000;
/** How often a worker says hello (the coordinator shows it lost after 10 s of silence). */
const HELLO_MS = 2_000;

export interface WorkerOptions {
  /** The Redis the coordinator queues build jobs on. */
  queueUrl: string;
  /** The coordinator daemon's URL. */
  daemonUrl: string;
  /** The daemon's access token, when it has one. */
  token: string | null;
  name: string;
  concurrency: number;
  /** This worker's own data dir (its store, projects, toolchains, caches). */
  home: string;
  logger: Logger;
  /** Run build commands inside bubblewrap when the machine has it (default true). */
  sandbox?: boolean;
}

export interface RunningWorker {
  /** First call: take no new jobs and let running builds finish. `cancel`: cancel them too. */
  stop(opts?: { cancel?: boolean }): Promise<void>;
  readonly running: number;
  /** Resolves once the builds running now have ended (at once when none runs). */
  buildsEnded(): Promise<void>;
  /** Whether the queue's Redis connection is up (a stop that hangs names what does not answer). */
  readonly queueConnected: boolean;
}

/** A refusal to start, with the message the user sees. */
export class WorkerStartError extends Error {
  override readonly name = 'WorkerStartError';
}

/** The address this machine uses to reach `host`: where the coordinator can reach a relay here. */
function outwardAddress(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4');
    socket.on('error', () => {
      socket.close();
      resolve('127.0.0.1');
    });
    socket.connect(port, host, () => {
      const { address } = socket.address();
      socket.close();
      resolve(address);
    });
  });
}

interface ActiveJob {
  run: BuildRun;
  forwarder: Forwarder;
}

/**
 * Previews of builds run here. A static output is sent to the coordinator and served there (a plain
 * static site is served from the coordinator's own copy); a server app runs here, and the
 * coordinator relays its preview port to it (through a relay on this machine's outward address
 * when the coordinator is elsewhere).
 */
function remotePreviews(deps: {
  local: PreviewRegistry;
  layout: HomeLayout;
  client: CoordinatorClient;
  worker: string;
  jobOf: (project: string) => ActiveJob | undefined;
  coordinatorHost: string;
  coordinatorPort: number;
  /** A server app's preview was given to the coordinator on this port (relay or app). */
  onServerPreview: (project: string, port: number) => void;
}): PreviewRegistry {
  const { local, layout, client, worker } = deps;
  const relays = new Map<string, TcpRelay>();
  const closeRelay = async (project: string) => {
    const relay = relays.get(project);
    relays.delete(project);
    await relay?.close();
  };
  const buildIdOf = (project: string): string => {
    const job = deps.jobOf(project);
    if (!job) throw new Error(`No build of ${project} runs on this worker.`);
    return job.run.id;
  };
  const loopback = ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(deps.coordinatorHost);

  return {
    async serveStatic(project, root, options = {}): Promise<PreviewInfo> {
      const buildId = buildIdOf(project);
      const spaFallback = options.spaFallback ?? true;
      if (path.resolve(root) === path.resolve(layout.projectDir(project))) {
        const { url } = await client.preview(buildId, {
          worker,
          preview: { kind: 'static', root: 'project', spaFallback },
        });
        return { url, kind: 'static' };
      }
      const zip = path.join(layout.tmpDir, `output-${buildId}-${process.pid}.zip`);
      try {
        await zipDirToFile(root, zip, { prefix: OUTPUT_ZIP_PREFIX });
        await client.upload(buildId, worker, 'output', zip);
      } finally {
        fs.rmSync(zip, { force: true });
      }
      const { url } = await client.preview(buildId, {
        worker,
        preview: { kind: 'static', root: 'output', spaFallback },
      });
      return { url, kind: 'static' };
    },

    async runServer(project, options): Promise<ServerPreviewInfo> {
      const buildId = buildIdOf(project);
      const started = await local.runServer(project, options);
      const appPort = Number(new URL(started.url).port);
      await closeRelay(project);
      let target = { host: '127.0.0.1', port: appPort };
      if (!loopback) {
        const outward = await outwardAddress(deps.coordinatorHost, deps.coordinatorPort);
        const relay = await startTcpRelay({ host: outward }, { host: '127.0.0.1', port: appPort });
        relays.set(project, relay);
        target = { host: outward, port: relay.port };
      }
      deps.onServerPreview(project, target.port);
      const { url } = await client.preview(buildId, {
        worker,
        preview: { kind: 'server', port: target.port, host: loopback ? '127.0.0.1' : target.host },
      });
      return { ...started, url };
    },

    relay() {
      return Promise.reject(new Error('A worker does not relay previews.'));
    },

    get: (project) => local.get(project),

    async stop(project) {
      await closeRelay(project);
      return local.stop(project);
    },

    async stopAll() {
      await Promise.all([...relays.keys()].map(closeRelay));
      await local.stopAll();
    },
  };
}

/**
 * `forge worker`: takes build jobs from the coordinator's BullMQ queue and runs them with the same
 * engine, sandbox and provisioned tools as the daemon, in its own data dir. For each job it asks the
 * coordinator to start it (which may say skip: cancelled meanwhile), fetches the project's files,
 * runs the pipeline, and forwards the build's record, log lines and /ws messages; orders (cancel)
 * come back in the coordinator's answers.
 */
export async function startWorker(opts: WorkerOptions): Promise<RunningWorker> {
  const { logger, name } = opts;
  fs.mkdirSync(opts.home, { recursive: true });
  const lock = acquireInstanceLock(opts.home);
  if (!lock) throw new WorkerStartError(`Another Forge worker named "${name}" runs from ${opts.home}.`);
  const cleanups: Array<() => void | Promise<void>> = [() => lock.release()];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn();
    cleanups.length = 0;
  };
  try {
    const client = createCoordinatorClient({ url: opts.daemonUrl, token: opts.token });
    const hello = () =>
      client.hello({
        name,
        host: os.hostname(),
        version: FORGE_VERSION,
        concurrency: opts.concurrency,
        running: [...jobs.keys()],
      });
    const jobs = new Map<string, ActiveJob>();
    const probe = await openRedis(opts.queueUrl, `forge-worker-${name}-probe`).catch((err: unknown) => {
      throw new WorkerStartError((err as Error).message);
    });
    const warning = await evictionWarning(probe);
    probe.disconnect();
    if (warning) {
      logger.warn(warning);
      process.stderr.write(`Warning: ${warning}\n`);
    }

    // The coordinator must answer, and must be a coordinator, before any job is taken.
    try {
      await hello();
    } catch (err) {
      if (err instanceof CoordinatorError && err.code === 'NO_QUEUE') {
        throw new WorkerStartError(
          `The Forge daemon at ${client.base} runs its builds itself. Start it with FORGE_QUEUE_URL=${redactQueueUrl(opts.queueUrl)} (or queue in its forge.config) to make it a coordinator.`,
        );
      }
      if (err instanceof CoordinatorError && (err.code === 'TOKEN_REQUIRED' || err.status === 401)) {
        throw new WorkerStartError(
          `${err.message} Give the worker the daemon's access token: FORGE_TOKEN (or accessToken in forge.config).`,
        );
      }
      throw new WorkerStartError((err as Error).message);
    }
    const layout = homeLayout(opts.home);
    const swept = sweepScratch(layout.tmpDir);
    if (swept) logger.info({ entries: swept }, 'removing what a stopped worker left in tmp');
    fs.mkdirSync(layout.tmpDir, { recursive: true });
    const store: Store = openStore(path.join(opts.home, STORE_FILE));
    cleanups.push(() => store.close());
    const repo: BuildRepo = createBuildRepo(store, {
      logArchive: createLogArchive(layout.buildLogsDir, layout.tmpDir),
    });
    let settings: Settings = DEFAULT_SETTINGS;
    /** Messages the engine broadcasts go to the forwarder of the build they are about. */
    const broadcast = (message: ServerMessage) => {
      const id = 'buildId' in message ? message.buildId : undefined;
      if (id) jobs.get(id)?.forwarder.message(message);
    };
    const local = createPreviewRegistry({ logger });
    /** The port each project's server-app preview was given to the coordinator as. */
    const previewPorts = new Map<string, number>();
    const coordinator = new URL(client.base);
    const previews = remotePreviews({
      local,
      layout,
      client,
      worker: name,
      jobOf: (project) => [...jobs.values()].reverse().find((j) => j.run.projectName === project),
      coordinatorHost: coordinator.hostname,
      coordinatorPort: Number(coordinator.port || (coordinator.protocol === 'https:' ? 443 : 80)),
      onServerPreview: (project, port) => previewPorts.set(project, port),
    });
    cleanups.push(() => previews.stopAll());
    const fleet = createFleet({ broadcast, maxConcurrent: () => concurrencyOf(settings) });
    const pipeline = createPipeline({
      layout,
      repo,
      fleet,
      previews,
      logger,
      settings: () => settings,
      sandbox: opts.sandbox ?? true,
      // BullMQ hands out at most `concurrency` jobs; the lane never makes one wait.
      lane: createSlots(() => Number.MAX_SAFE_INTEGER),
      journal: createRepairJournal(store),
      workerName: name,
    });

    const obey = (orders: WorkerOrders) => {
      for (const { buildId, reason } of orders.cancel) {
        const job = jobs.get(buildId);
        if (job && !job.run.signal.aborted) {
          logger.info({ buildId, reason }, 'the coordinator cancelled a build');
          job.run.cancel(reason);
        }
      }
      for (const { projectName, port } of orders.stopPreviews) {
        // Only the app that preview relayed to: a newer preview of the project stays.
        if (previewPorts.get(projectName) === port) void previews.stop(projectName);
      }
    };

    /** The files this build's repairs changed, to the coordinator, before its end is reported. */
    async function sendRepairs(build: Build): Promise<void> {
      const repairs = appliedRepairsOf(build.repairs, build.id);
      if (repairs.length === 0) return;
      const zip = path.join(layout.tmpDir, `repairs-${build.id}.zip`);
      try {
        await packRepairs(layout.projectDir(build.projectName), repairs, layout.tmpDir, zip);
        await client.upload(build.id, name, 'files', zip);
      } catch (err) {
        logger.error({ err, buildId: build.id }, 'could not send the repaired files to the coordinator');
      } finally {
        fs.rmSync(zip, { force: true });
      }
    }

    /** The build's artifact record, to the coordinator, before its end is reported (features/scale-out/artifact-transfer.ts). */
    async function sendArtifact(build: Build): Promise<void> {
      if (build.status !== 'succeeded') return;
      const zip = path.join(layout.tmpDir, `artifact-${build.id}.zip`);
      try {
        if (!(await packArtifactRecord(path.join(layout.artifactsDir(build.projectName), build.id), zip)))
          return;
        await client.upload(build.id, name, 'artifact', zip);
      } catch (err) {
        logger.error({ err, buildId: build.id }, 'could not send the artifact record to the coordinator');
      } finally {
        fs.rmSync(zip, { force: true });
      }
    }

    /**
     * Ask the coordinator to start a job, again while it cannot be reached (restarting): a job that
     * failed here would be lost to BullMQ, while the coordinator still shows its build queued.
     */
    async function startWhenAnswered(buildId: string, attempt: number, signal?: AbortSignal) {
      let wait = 500;
      const until = Date.now() + START_RETRY_MS;
      for (;;) {
        try {
          return await client.start(buildId, { worker: name, attempt });
        } catch (err) {
          if (!(err instanceof CoordinatorError) || !err.transient || Date.now() > until || signal?.aborted)
            throw err;
          logger.warn({ buildId, err: err.message }, 'the coordinator does not answer; asking again');
          await new Promise((resolve) => setTimeout(resolve, wait));
          wait = Math.min(wait * 2, 5_000);
        }
      }
    }

    async function runJob(
      answer: Extract<JobStartResponse, { action: 'run' }>,
      signal?: AbortSignal,
    ): Promise<string> {
      const build = answer.build;
      settings = answer.settings;
      repo.touchProject(build.projectName, new Date());
      repo.setProjectApp(build.projectName, answer.app);
      repo.adopt(build);
      const forwarder = new Forwarder({
        client,
        buildId: build.id,
        worker: name,
        logger,
        onOrders: obey,
        onLost: (why) => {
          logger.warn({ buildId: build.id, why }, 'the coordinator took the build back');
          jobs.get(build.id)?.run.cancel('superseded');
        },
      });
      const run = new BuildRun(
        {
          repo: {
            lastLogSeq: () => answer.logSeq,
            save: (b) => {
              repo.save(b);
              forwarder.record(b);
            },
            appendLogs: (id, rows) => {
              repo.appendLogs(id, rows);
              forwarder.logs(rows);
            },
          },
          broadcast,
          logger,
        },
        build,
      );
      jobs.set(build.id, { run, forwarder });
      const onAbort = () => run.cancel('shutdown');
      signal?.addEventListener('abort', onAbort, { once: true });
      const zipPath = path.join(layout.tmpDir, `upload-${build.id}.zip`);
      try {
        try {
          await client.source(build.id, name, zipPath);
        } catch (err) {
          fs.rmSync(zipPath, { force: true });
          const message = `Worker ${name} could not fetch the project from the coordinator: ${(err as Error).message}`;
          endFailed(run, 'SYSTEM', { code: 'INTERNAL', message });
          return 'failed';
        }
        const fix = answer.fix ? { diagnosis: answer.fix, onApplied: () => {} } : undefined;
        const ended = await pipeline.run(run, { kind: 'upload', zipPath, ...(fix ? { fix } : {}) });
        await sendRepairs(ended);
        await sendArtifact(ended);
        return ended.status;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        await forwarder.close();
        jobs.delete(build.id);
      }
    }

    const connection = connectRedis(opts.queueUrl, `forge-worker-${name}`);
    connection.on('error', (err) => logger.debug({ err: err.message }, 'queue connection error'));
    cleanups.push(() => connection.disconnect());
    const worker = new Worker(
      QUEUE_NAME,
      async (job: Job<{ buildId: string }>, _token?: string, signal?: AbortSignal) => {
        const attempt = Math.max(1, job.attemptsStarted ?? 1);
        const answer = await startWhenAnswered(job.data.buildId, attempt, signal);
        if (answer.action === 'skip') {
          logger.info({ buildId: job.data.buildId, reason: answer.reason }, 'skipped a job');
          return { skipped: answer.reason };
        }
        logger.info(
          { buildId: answer.build.id, project: answer.build.projectName, attempt },
          'build started',
        );
        const status = await runJob(answer, signal);
        logger.info({ buildId: answer.build.id, status }, 'build ended');
        return { buildId: answer.build.id, status };
      },
      {
        connection,
        prefix: QUEUE_PREFIX,
        concurrency: opts.concurrency,
        lockDuration: LOCK_DURATION_MS,
        stalledInterval: STALLED_INTERVAL_MS,
        maxStalledCount: 1,
        autorun: false,
      },
    );
    worker.on('error', (err) => logger.warn({ err: err.message }, 'queue worker error'));
    worker.on('failed', (job, err) => logger.warn({ jobId: job?.id, err: err.message }, 'job failed'));

    const heartbeat = setInterval(() => {
      hello().then(obey, (err: unknown) => logger.debug({ err: (err as Error).message }, 'hello failed'));
    }, HELLO_MS);
    cleanups.push(() => clearInterval(heartbeat));
    void worker.run().catch((err: unknown) => logger.error({ err }, 'queue worker stopped'));
    await worker.waitUntilReady();

    let stopping: Promise<void> | null = null;
    return {
      get running() {
        return jobs.size;
      },
      get queueConnected() {
        return connection.status === 'ready';
      },
      buildsEnded: async () => {
        await Promise.all([...jobs.values()].map((j) => j.run.done));
      },
      stop({ cancel = false } = {}) {
        if (cancel) for (const job of jobs.values()) job.run.cancel('shutdown');
        stopping ??= (async () => {
          await worker.close();
          await Promise.all([...jobs.values()].map((j) => j.run.done));
          await cleanup();
        })();
        return stopping;
      },
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
