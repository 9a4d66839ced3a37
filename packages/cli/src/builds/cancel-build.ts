import { isFinished, type Build } from '@forge/shared';
import type { CliClient } from '../http/client.ts';
import { createBuildStore } from './build-tracker.ts';
import { watchBuild } from './build-watch.ts';
import { buildSource } from './source.ts';

/** How long a cancel waits for the build's processes to be gone before it reports. */
export const STOP_WAIT_MS = 15_000;
/** How often the record is read while waiting for a cancelled build to stop. */
const STOP_POLL_MS = 200;

/**
 * POST /api/builds/:id/cancel, then the record once the build has stopped (or as it is after
 * STOP_WAIT_MS). A build that finished meanwhile makes the request fail with BUILD_FINISHED.
 */
export async function cancelBuild(client: CliClient, id: string): Promise<Build> {
  const build = await client.request('cancelBuild', { params: { id } });
  return isFinished(build.status) ? build : untilStopped(client, build);
}

async function untilStopped(client: CliClient, build: Build): Promise<Build> {
  try {
    return await watchBuild({
      source: buildSource(client),
      store: createBuildStore(),
      buildId: build.id,
      pollMs: STOP_POLL_MS,
      signal: AbortSignal.timeout(STOP_WAIT_MS),
    });
  } catch (err) {
    if ((err as Error).name !== 'TimeoutError') throw err;
    return client.request('build', { params: { id: build.id } });
  }
}

/** The daemon's answer to cancelling a build that had already finished. */
export const isAlreadyFinished = (err: unknown): boolean =>
  (err as { code?: string }).code === 'BUILD_FINISHED';
