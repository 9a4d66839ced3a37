import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { CliError } from '../output.ts';
import type { Build, ForgeClient } from '@forge/shared';

export interface CancelOptions {
  buildId?: string;
  json?: boolean;
}

/** Cancel a queued or running build (default: the newest one). A finished build: exit 1. */
export async function run(deps: Deps, opts: CancelOptions): Promise<number> {
  const { isFinished } = await import('@forge/shared');
  const { newestRunningBuild } = await import('../builds/resolve.ts');
  const { client } = await deps.connect();
  const target = opts.buildId
    ? await client.request('build', { params: { id: opts.buildId } })
    : await newestRunningBuild(client);
  if (isFinished(target.status)) throw notRunning(target.id, target.status);
  let build;
  try {
    build = await client.request('cancelBuild', { params: { id: target.id } });
  } catch (err) {
    // It finished between our look and the cancel.
    if ((err as { code?: string }).code !== 'BUILD_FINISHED') throw err;
    const now = await client.request('build', { params: { id: target.id } });
    throw notRunning(now.id, now.status);
  }
  if (!isFinished(build.status)) build = await untilStopped(client, build);
  if (opts.json) deps.out.json(build);
  else if (build.status === 'cancelled') deps.out.data(`Cancelled build ${build.id} of ${build.projectName}`);
  else if (isFinished(build.status)) {
    deps.out.data(
      `Build ${build.id} of ${build.projectName} ended before it was cancelled (${build.status})`,
    );
  } else {
    deps.out.data(`Cancelling build ${build.id} of ${build.projectName}; it has not stopped yet`);
  }
  return 0;
}

/** How long `forge cancel` waits for the build's processes to be gone before it reports. */
const STOP_WAIT_MS = 15_000;

/** The record once the build has stopped, or as it is after STOP_WAIT_MS. */
async function untilStopped(client: ForgeClient, build: Build): Promise<Build> {
  const { buildSource } = await import('../builds/source.ts');
  const { waitForBuild } = await import('../builds/wait-for-build.ts');
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

const notRunning = (id: string, status: string) =>
  new CliError(`Build ${id} is not running (${status}).`, { hint: 'List builds with: forge builds' });

export function register(program: Command, invoke: Invoke): void {
  program
    .command('cancel')
    .description('cancel a queued or running build (default: the newest running one)')
    .argument('[buildId]', 'the build (see forge builds)')
    .option('--json', 'print the build record as JSON')
    .action((buildId: string | undefined, opts: Omit<CancelOptions, 'buildId'>, command: Command) =>
      invoke(command, run, { ...opts, buildId }),
    );
}
