import type { Worker } from 'node:worker_threads';
import type { ExtractTask, ExtractThreadMessage } from './thread-protocol.ts';
import { startExtractThread } from './thread-url.ts';

/**
 * How long a thread is kept warm after its last task. Starting a thread and loading the extraction
 * code costs ~30–80 ms here, ten times what extracting a small project takes, and a developer
 * re-uploads in bursts. An idle thread holds ~10 MB (~35 MB right after a 5,000-file archive, until
 * its heap is collected) and never keeps the process alive (it is unref'd).
 */
export const THREAD_IDLE_MS = 10 * 60_000;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A task as the caller describes it; the pool numbers it. */
export type TaskRequest = DistributiveOmit<ExtractTask, 'id'>;
type Progress = Extract<ExtractThreadMessage, { type: 'progress' }>;
/** The message that ends a task. */
export type TaskOutcome = Exclude<ExtractThreadMessage, Progress>;

export interface RunningTask {
  /**
   * The task's last message (done, inspected, refused or failed). Rejects when the thread died, or
   * with the reason given to `stop` — only once the thread is gone, so nothing writes any more.
   */
  outcome: Promise<TaskOutcome>;
  /** Terminates the thread running the task (it is not reused). Ignored once the task has ended. */
  stop(reason: unknown): void;
}

interface PooledThread {
  thread: Worker;
  /** Its last uncaught error, should it die of one. */
  crash: Error | undefined;
  exited: boolean;
}

let idle: PooledThread | null = null;
let idleTimer: NodeJS.Timeout | undefined;
let nextId = 0;
let started = 0;

/** How many threads this process has started: a task on the warm thread starts none. */
export function extractThreadsStarted(): number {
  return started;
}

function spawn(): PooledThread {
  started++;
  const pooled: PooledThread = {
    thread: startExtractThread({ kind: 'forge-extract' }),
    crash: undefined,
    exited: false,
  };
  // Listened to for the thread's whole life: an 'error' without a listener would crash the daemon.
  pooled.thread.on('error', (error) => {
    pooled.crash ??= error;
  });
  pooled.thread.on('exit', () => {
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

/** The warm thread if there is one, else a new one; referenced while it works. */
function take(): PooledThread {
  const pooled = idle ?? spawn();
  if (idle === pooled) forgetIdle();
  pooled.thread.ref();
  return pooled;
}

/** Keeps a thread that finished its task warm, unless one already is (one is enough to skip the start). */
function giveBack(pooled: PooledThread): void {
  if (pooled.exited) return;
  if (idle !== null) {
    void pooled.thread.terminate();
    return;
  }
  idle = pooled;
  pooled.thread.unref();
  idleTimer = setTimeout(() => {
    if (idle !== pooled) return;
    forgetIdle();
    void pooled.thread.terminate();
  }, THREAD_IDLE_MS);
  idleTimer.unref();
}

/**
 * Starts a thread ahead of need (say when an upload starts arriving), so the extraction that follows
 * finds it loaded. Does nothing when one is already warm.
 */
export function warmExtractThread(): void {
  if (idle === null) giveBack(spawn());
}

/** Stops the warm thread, if any (shutdown, tests). */
export async function stopIdleExtractThread(): Promise<void> {
  const pooled = idle;
  if (pooled === null) return;
  forgetIdle();
  await pooled.thread.terminate();
}

/** Runs one task on a warm (or new) thread; progress messages go to `onProgress` as they come. */
export function runExtractTask(request: TaskRequest, onProgress?: (progress: Progress) => void): RunningTask {
  const pooled = take();
  const { thread } = pooled;
  const id = ++nextId;
  /** Set when the task is stopped: by the caller, or because onProgress threw. */
  let stopped: { reason: unknown } | undefined;
  let ended = false;
  let stopTask: (reason: unknown) => void = () => {};

  const outcome = new Promise<TaskOutcome>((resolve, reject) => {
    const cleanup = (): void => {
      ended = true;
      thread.off('message', onMessage);
      thread.off('exit', onExit);
    };
    stopTask = (reason) => {
      if (ended || stopped) return;
      stopped = { reason };
      // Settles on 'exit', once the thread is gone: the caller may then remove what it wrote.
      void thread.terminate();
    };
    function onMessage(message: ExtractThreadMessage): void {
      if (message.id !== id || stopped) return;
      if (message.type === 'progress') {
        try {
          onProgress?.(message);
        } catch (error) {
          stopTask(error);
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
          pooled.crash ?? new Error(`The extraction thread stopped unexpectedly (exit code ${exitCode})`),
        );
    }
    thread.on('message', onMessage);
    thread.on('exit', onExit);
    thread.postMessage({ ...request, id } satisfies ExtractTask);
  });
  return { outcome, stop: (reason) => stopTask(reason) };
}
