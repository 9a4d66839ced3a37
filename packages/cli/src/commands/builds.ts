import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { parsePositive } from '../options.ts';

export interface BuildsOptions {
  project?: string;
  limit?: number;
  json?: boolean;
}

/** List builds, newest first: id, project, status, stage, cache hit, duration, creation time. */
export async function run(deps: Deps, opts: BuildsOptions): Promise<number> {
  const { formatBuildsTable } = await import('../builds/format-builds.ts');
  const { paint } = await import('../terminal.ts');
  const { client } = await deps.connect();
  const builds = await client.request('builds', {
    query: {
      ...(opts.project ? { project: opts.project } : {}),
      ...(opts.limit ? { limit: opts.limit } : {}),
    },
  });
  if (opts.json) deps.out.json(builds);
  else if (builds.length === 0) {
    deps.out.info(opts.project ? `No builds of ${opts.project} yet.` : 'No builds yet.');
  } else {
    for (const line of formatBuildsTable(builds, paint(deps.term.stdoutColor))) deps.out.data(line);
  }
  return 0;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('builds')
    .description('list builds, newest first')
    .option('-p, --project <name>', 'only the builds of this project')
    .option('-n, --limit <count>', 'at most this many builds (1-500)', parsePositive(500))
    .option('--json', 'print the build records as JSON')
    .action((opts: BuildsOptions, command: Command) => invoke(command, run, opts));
}
