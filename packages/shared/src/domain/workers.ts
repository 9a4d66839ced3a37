import { z } from 'zod';

export * from './worker-names.ts';
import { Build } from './builds.ts';
import { Diagnosis } from './assistants.ts';
import { LogLevel } from './log.ts';
import { Settings } from './settings.ts';

/**
 * Scale-out (docs/scale-out.md): where build jobs run. `in-process` is the default (the daemon's own
 * build slots); `bullmq` queues them on Redis for `forge worker` processes on other machines.
 */
export const QueueKind = z.enum(['in-process', 'bullmq']);
export type QueueKind = z.infer<typeof QueueKind>;

/** A worker name: letters, digits, dot, dash, underscore (it appears in build records and logs). */
export const WorkerName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be letters, digits, dots, dashes or underscores, e.g. "ci-2"');

/** A `forge worker` process as the coordinator knows it (GET /api/workers, /ws `workers`). */
export const WorkerInfo = z.object({
  name: WorkerName,
  /** The machine it runs on (its hostname). */
  host: z.string(),
  version: z.string(),
  /** Builds it runs at once at most (--concurrency). */
  concurrency: z.number().int().positive(),
  /** Ids of the builds it is running now. */
  running: z.array(z.string()),
  /** Builds it has finished since the coordinator started. */
  jobsDone: z.number().int().nonnegative(),
  /** online: heard from within the last few seconds; lost: gone quiet (killed, cut off, stopped). */
  status: z.enum(['online', 'lost']),
  /** When the coordinator last heard from it (ISO-8601). */
  lastSeen: z.string(),
  /** When it first said hello to this coordinator (ISO-8601). */
  since: z.string(),
});
export type WorkerInfo = z.infer<typeof WorkerInfo>;

/** GET /api/workers: which queue the daemon uses and the workers it has heard from. */
export const WorkersResponse = z.object({
  queue: QueueKind,
  /** The Redis URL (password hidden) when the queue is bullmq. */
  queueUrl: z.string().nullable(),
  workers: z.array(WorkerInfo),
});
export type WorkersResponse = z.infer<typeof WorkersResponse>;

// --- What a worker and its coordinator say to each other (/api/worker/*, token-protected) ---

/** POST /api/worker/hello, every couple of seconds: who the worker is and what it runs. */
export const WorkerHelloBody = z.object({
  name: WorkerName,
  host: z.string().max(255),
  version: z.string().max(64),
  concurrency: z.number().int().positive().max(256),
  running: z.array(z.string().max(64)).max(256),
});
export type WorkerHelloBody = z.infer<typeof WorkerHelloBody>;

/** Orders for a worker, in answer to its hello and its event posts. */
export const WorkerOrders = z.object({
  /** Builds to stop, with why (the reason the coordinator's build was cancelled with). */
  cancel: z
    .array(z.object({ buildId: z.string(), reason: z.enum(['user', 'superseded', 'timeout', 'shutdown']) }))
    .default([]),
  /**
   * Server-app previews on this worker no longer wanted: the project, and the port the worker gave
   * for it (a newer preview of the project, on another port, stays).
   */
  stopPreviews: z.array(z.object({ projectName: z.string(), port: z.number().int() })).default([]),
});
export type WorkerOrders = z.infer<typeof WorkerOrders>;

/** POST /api/worker/jobs/:id/start: a worker took the queued job of build `:id`. */
export const JobStartBody = z.object({
  worker: WorkerName,
  /** 1 the first time; 2 when BullMQ gave the job again after its first worker stopped answering. */
  attempt: z.number().int().positive(),
});
export type JobStartBody = z.infer<typeof JobStartBody>;

/**
 * The answer: run it (`build` is the record to continue, maybe a new build when this is the retry of
 * one whose worker was lost) or skip it (already cancelled, finished or taken).
 */
export const JobStartResponse = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('run'),
    build: Build,
    /** The last stored log line's seq: the worker's lines continue after it. */
    logSeq: z.number().int().nonnegative(),
    /** The app folder the project builds (a repository of several), or null: Forge picks. */
    app: z.string().nullable(),
    /** `forge fix`: the diagnosis whose repair the build makes first. */
    fix: Diagnosis.nullable(),
    /** The coordinator's settings: the worker builds as the daemon would (autoRepair, orchestration…). */
    settings: Settings,
  }),
  z.object({ action: z.literal('skip'), reason: z.string() }),
]);
export type JobStartResponse = z.infer<typeof JobStartResponse>;

/** A stored log line as it travels from a worker. */
export const WorkerLogRow = z.object({
  seq: z.number().int().positive(),
  ts: z.string(),
  level: LogLevel,
  botName: z.string().max(100),
  message: z.string(),
});
export type WorkerLogRow = z.infer<typeof WorkerLogRow>;

/**
 * POST /api/worker/jobs/:id/events: what happened to the build since the last post, in order: the
 * record as it is now (when it changed), the log lines stored, and the /ws messages to relay.
 * Messages are checked against the /ws union by the coordinator before they are relayed.
 */
export const JobEventsBody = z.object({
  worker: WorkerName,
  record: Build.nullable(),
  logs: z.array(WorkerLogRow).max(20_000),
  messages: z.array(z.record(z.string(), z.unknown())).max(20_000),
});
export type JobEventsBody = z.infer<typeof JobEventsBody>;

/** POST /api/worker/jobs/:id/output?kind=: the build output (or repaired files) as a ZIP (multipart). */
export const JobUploadQuery = z.object({
  worker: WorkerName,
  /**
   * output: the built folder, served and stored by the coordinator; files: project files a repair
   * changed; artifact: the build's artifact record (artifact ZIP, SBOM, source ZIP, provenance).
   */
  kind: z.enum(['output', 'files', 'artifact']),
});

/** Which worker asks (GET /api/worker/jobs/:id/source). */
export const WorkerQuery = z.object({ worker: WorkerName });

/** POST /api/worker/jobs/:id/preview: serve the project's static preview, or relay to the worker's server app. */
export const JobPreviewBody = z.object({
  worker: WorkerName,
  preview: z.discriminatedUnion('kind', [
    /** Serve the coordinator's copy: the project folder (a plain static site) or the output sent before. */
    z.object({ kind: z.literal('static'), root: z.enum(['project', 'output']), spaFallback: z.boolean() }),
    /**
     * A server app on the worker: the coordinator relays its preview port to `port` on `host` (the
     * worker's relay; null: the address the request came from).
     */
    z.object({
      kind: z.literal('server'),
      port: z.number().int().min(1).max(65_535),
      host: z.string().max(255).nullable(),
    }),
  ]),
});
export type JobPreviewBody = z.infer<typeof JobPreviewBody>;
export const JobPreviewResponse = z.object({ url: z.string() });
