import type { Build } from '@forge/shared';
import type { BuildRun } from './build-run.ts';
import {
  createEngineContext,
  dropUpload,
  must,
  stillWanted,
  Stop,
  type BuildSource,
  type EngineDeps,
} from './context.ts';
import { endEarly, endUnfinished } from './endings.ts';
import { runSteps } from './flow.ts';
import { failure } from './steps/index.ts';

/**
 * The build engine: one build from its lane slot to its end. The flow (flow.ts) is a straight line
 * of steps, each a unit `(ctx, input) => result` run by `runStep` (timed, recorded, cancellable,
 * never throwing), with the repair loop (repair-loop.ts) around install and build and the checks
 * (checks.ts) side by side; the build moves along its machine only through `run.to()`. A step's
 * failure ends the build with that step's catalogue code, in one place (endings.ts), so a repair
 * can run the failed step again instead (its step gets the next attempt number). What an upload
 * answers is the run's `planned` event: planned after detect, queued when the lane is full, or
 * refused when the build ends before either.
 */
export function createPipeline(deps: EngineDeps) {
  const ctx = createEngineContext(deps);

  return {
    /**
     * Scale-out, on the coordinator: unpack an upload into the project before its build waits for a
     * worker, so a hostile or broken archive is refused at once (as an in-process upload is) and the
     * worker is sent the project's files. False when the build ended here (refused, cancelled).
     */
    async extractForQueue(run: BuildRun, zipPath: string): Promise<boolean> {
      try {
        stillWanted(run);
        await must(ctx, run, ctx.steps.extract, { zipPath });
        stillWanted(run);
        return true;
      } catch (err) {
        await endEarly(ctx, run, err);
        return false;
      } finally {
        await dropUpload({ kind: 'upload', zipPath });
      }
    },

    /** Run a build to its end: wait for a build slot (queued), then its steps. Never throws. */
    async run(run: BuildRun, source: BuildSource): Promise<Build> {
      let release: (() => void) | undefined;
      try {
        if (deps.lane.busy) run.plan({ kind: 'queued' });
        try {
          release = await deps.lane.acquire(run.signal);
        } catch {
          throw new Stop(
            failure('cancelled', 'CANCELLED', 'The build was cancelled while it waited.'),
            'SYSTEM',
          );
        }
        await runSteps(ctx, run, source);
      } catch (err) {
        // Nothing of a build that ended early is left behind, the archive it came from included.
        await dropUpload(source);
        await endEarly(ctx, run, err);
      } finally {
        release?.();
        endUnfinished(deps.logger, run);
      }
      return run.done;
    },
  };
}

export type Pipeline = ReturnType<typeof createPipeline>;
