import { isFinished, type Build, type ForgeClient } from '@forge/shared';
import { buildSource } from './source.ts';
import { waitForBuild } from './wait-for-build.ts';

/** How long a cancel waits for the build's processes to be gone before it reports. */
export const STOP_WAIT_MS = 15_000;

/**
 * POST /api/builds/:id/cancel, then the record once the build has stopped (or as it is after
 * STOP_WAIT_MS). A build that finished meanwhile makes the request fail with BUILD_FINISHED.
 */
export async function cancelBuild(client: ForgeClient, id: string): Promise<Build> {
  const build = await client.request('cancelBuild', { params: { id } });
  return isFinished(build.status) ? build : untilStopped(client, build);
}

async function untilStopped(client: ForgeClient, build: Build): Promise<Build> {
  try {
    return await waitForBuild({
      source: buildSource(client),
      buildId: build.id,
      pollMs: 200,
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
