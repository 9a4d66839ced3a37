import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { newestRunningBuild } from '../builds/resolve.ts';
import { CliError } from '../output.ts';

export interface CancelOptions {
  buildId?: string;
  json?: boolean;
}

/** Cancel a queued or running build (default: the newest one). A finished build: exit 1. */
export async function run(deps: Deps, opts: CancelOptions): Promise<number> {
  const { isFinished } = await import('@forge/shared');
  const { cancelBuild, isAlreadyFinished } = await import('../lazy.ts');
  const { client } = await deps.connect();
  const target = opts.buildId
    ? await client.request('build', { params: { id: opts.buildId } })
    : await newestRunningBuild(client);
  if (isFinished(target.status)) throw notRunning(target.id, target.status);
  let build;
  try {
    build = await cancelBuild(client, target.id);
  } catch (err) {
    // It finished between our look and the cancel.
    if (!isAlreadyFinished(err)) throw err;
    const now = await client.request('build', { params: { id: target.id } });
    throw notRunning(now.id, now.status);
  }
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
