import type { Command } from 'commander';
import { listBuilds, type BuildsOptions } from '../builds/list.ts';
import type { Invoke } from '../command.ts';
import { parsePositive } from '../options.ts';

export type { BuildsOptions };

/** List builds, newest first: id, project, status, stage, cache hit, duration, creation time. */
export const run = listBuilds;

export function register(program: Command, invoke: Invoke): void {
  program
    .command('builds')
    .description('list builds, newest first')
    .option('-p, --project <name>', 'only the builds of this project')
    .option('-n, --limit <count>', 'at most this many builds (1-500)', parsePositive(500))
    .option('--json', 'print the build records as JSON')
    .action((opts: BuildsOptions, command: Command) => invoke(command, run, opts));
}
