import type { Build, QueueKind } from '@forge/shared';
import type { BuildRun } from './build-run.ts';
import type { Slots } from './fleet/slots.ts';
import type { BuildSource } from './context.ts';
import type { Pipeline } from './pipeline.ts';

/**
 * Where build jobs run (docs/scale-out.md). The build service hands every build to its queue once
 * the build exists and its project's older build has been superseded; the queue runs it to its end
 * and resolves with the final record. Two implementations with the same semantics: in-process (the
 * daemon's own build slots, the default) and BullMQ (`forge worker` processes on other machines).
 */
export interface JobQueue {
  readonly kind: QueueKind;
  /**
   * Run a build to its end: wait for its turn, then its steps. What an upload can answer (planned,
   * queued or refused) is the run's `planned` event. Never throws.
   */
  run(run: BuildRun, source: BuildSource): Promise<Build>;
  /** Would a build asking now have to wait? */
  readonly busy: boolean;
  /** Builds running and waiting for their turn. */
  readonly load: { running: number; queued: number };
  /**
   * After a restart: builds the store says were queued or running. The queue takes back those it
   * still runs (queued on Redis, running on a worker) and returns their ids; the rest end
   * `interrupted` as after any crash.
   */
  recover(active: readonly Build[]): Promise<Set<string>>;
  close(): Promise<void>;
}

/** The default: builds run in this daemon, at most the lane's capacity at once, in arrival order. */
export function inProcessQueue(pipeline: Pipeline, lane: Slots): JobQueue {
  return {
    kind: 'in-process',
    run: (run, source) => pipeline.run(run, source),
    get busy() {
      return lane.busy;
    },
    get load() {
      return { running: lane.running, queued: lane.waiting };
    },
    // Nothing survives a restart here: whatever was queued or running ends interrupted.
    recover: () => Promise.resolve(new Set()),
    close: () => Promise.resolve(),
  };
}
