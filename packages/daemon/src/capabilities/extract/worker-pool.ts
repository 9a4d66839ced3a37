import type { Worker } from 'node:worker_threads';
import type { ExtractJob, ExtractWorkerMessage } from './worker-protocol.ts';
import { startExtractWorker } from './worker-url.ts';

/**
 * How long a worker is kept warm after its last job. Starting a thread and loading the extraction
 * code costs ~30–80 ms here, ten times what extracting a small project takes, and a developer
 * re-uploads in bursts. An idle worker holds ~10 MB (~35 MB right after a 5,000-file archive, until
 * its heap is collected) and never keeps the process alive (it is unref'd).
 */
export const WORKER_IDLE_MS = 10 * 60_000;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A job as the caller describes it; the pool numbers it. */
export type JobRequest = DistributiveOmit<ExtractJob, 'id'>;
type Progress = Extract<ExtractWorkerMessage, { type: 'progress' }>;
/** The message that ends a job. */
export type JobOutcome = Exclude<ExtractWorkerMessage, Progress>;

export interface RunningJob {
  /**
   * The job's last message (done, inspected, refused or failed). Rejects when the worker died, or
   * with the reason given to `stop` — only once the thread is gone, so nothing writes any more.
   */
  outcome: Promise<JobOutcome>;
  /** Terminates the worker running the job (it is not reused). Ignored once the job has ended. */
  stop(reason: unknown): void;
}

interface PooledWorker {
  worker: Worker;
  /** Its last uncaught error, should it die of one. */
  crash: Error | undefined;
  exited: boolean;
}

let idle: PooledWorker | null = null;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 0;
let started = 0;

/** How many workers this process has started: a job on the warm worker starts none. */
export function extractWorkersStarted(): number {
  return started;
}

function spawn(): PooledWorker {
  started++;
  const pooled: PooledWorker = {
    worker: startExtractWorker({ kind: 'forge-extract' }),
    crash: undefined,
    exited: false,
  };
  // Listened to for the worker's whole life: an 'error' without a listener would crash the daemon.
  pooled.worker.on('error', (error) => {
    pooled.crash ??= error;
  });
  pooled.worker.on('exit', () => {
    pooled.exited = true;
    if (idle === pooled) forgetIdle();
  });
  return pooled;
}

function forgetIdle(): void {
  idle = null;
  clearTimeout(idleTimer);
  idleTimer = undefined;
}

/** The warm worker if there is one, else a new one; referenced while it works. */
function take(): PooledWorker {
  const pooled = idle ?? spawn();
  if (idle === pooled) forgetIdle();
  pooled.worker.ref();
  return pooled;
}

/** Keeps a worker that finished its job warm, unless one already is (one is enough to skip the start). */
function giveBack(pooled: PooledWorker): void {
  if (pooled.exited) return;
  if (idle !== null) {
    void pooled.worker.terminate();
    return;
  }
  idle = pooled;
  pooled.worker.unref();
  idleTimer = setTimeout(() => {
    if (idle !== pooled) return;
    forgetIdle();
    void pooled.worker.terminate();
  }, WORKER_IDLE_MS);
  idleTimer.unref();
}

/**
 * Starts a worker ahead of need (say when an upload starts arriving), so the extraction that follows
 * finds it loaded. Does nothing when one is already warm.
 */
export function warmExtractWorker(): void {
  if (idle === null) giveBack(spawn());
}

/** Stops the warm worker, if any (shutdown, tests). */
export async function stopIdleExtractWorker(): Promise<void> {
  const pooled = idle;
  if (pooled === null) return;
  forgetIdle();
  await pooled.worker.terminate();
}

/** Runs one job on a warm (or new) worker; progress messages go to `onProgress` as they come. */
export function runExtractJob(request: JobRequest, onProgress?: (progress: Progress) => void): RunningJob {
  const pooled = take();
  const { worker } = pooled;
  const id = ++nextId;
  /** Set when the job is stopped: by the caller, or because onProgress threw. */
  let stopped: { reason: unknown } | undefined;
  let ended = false;
  let stopJob: (reason: unknown) => void = () => {};

  const outcome = new Promise<JobOutcome>((resolve, reject) => {
    const cleanup = (): void => {
      ended = true;
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    stopJob = (reason) => {
      if (ended || stopped) return;
      stopped = { reason };
      // Settles on 'exit', once the thread is gone: the caller may then remove what it wrote.
      void worker.terminate();
    };
    function onMessage(message: ExtractWorkerMessage): void {
      if (message.id !== id || stopped) return;
      if (message.type === 'progress') {
        try {
          onProgress?.(message);
        } catch (error) {
          stopJob(error);
        }
        return;
      }
      cleanup();
      giveBack(pooled);
      resolve(message);
    }
    function onExit(exitCode: number): void {
      cleanup();
      if (stopped) reject(stopped.reason);
      else
        reject(
          pooled.crash ?? new Error(`The extraction worker stopped unexpectedly (exit code ${exitCode})`),
        );
    }
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    worker.postMessage({ ...request, id } satisfies ExtractJob);
  });
  return { outcome, stop: (reason) => stopJob(reason) };
}
