import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { paint } from '../terminal.ts';
import { formatQueueLine, formatWorkersTable, NO_WORKERS_HINT } from '../views/workers.ts';

export interface WorkersOptions {
  json?: boolean;
}

/**
 * `forge workers`: the daemon's queue (in-process or bullmq) and the `forge worker` processes it has
 * heard from: host, online or lost, builds running against their concurrency, builds done, last seen.
 */
export async function run(deps: Deps, opts: WorkersOptions): Promise<number> {
  const { client } = await deps.connect();
  const response = await client.request('workers');
  if (opts.json) {
    deps.out.json(response);
    return 0;
  }
  deps.out.data(formatQueueLine(response));
  for (const line of formatWorkersTable(response.workers, paint(deps.term.stdoutColor))) deps.out.data(line);
  // In-process, the daemon runs every build itself: no worker is missing.
  if (response.workers.length === 0 && response.queue === 'bullmq') deps.out.info(NO_WORKERS_HINT);
  return 0;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('workers')
    .description('list the build workers the daemon knows (scale-out) and the queue it uses')
    .option('--json', 'print JSON')
    .action((opts: WorkersOptions, command: Command) => invoke(command, run, opts));
}
