import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { paint } from '../terminal.ts';
import { formatBots } from '../views/bots.ts';

export interface BotsOptions {
  json?: boolean;
}

/** The 25 bots by category: status, jobs run, failures and what each is doing now. */
export async function run(deps: Deps, opts: BotsOptions): Promise<number> {
  const { client } = await deps.connect();
  const bots = await client.request('bots');
  if (opts.json) deps.out.json(bots);
  else for (const line of formatBots(bots, paint(deps.term.stdoutColor))) deps.out.data(line);
  return 0;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('bots')
    .description('list the bot fleet: status, current job, jobs run, failures')
    .option('--json', 'print JSON')
    .action((opts: BotsOptions, command: Command) => invoke(command, run, opts));
}
