import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { hostOption, portOption } from './daemon-start.ts';

export interface DaemonRunOptions {
  port?: number;
  host?: string;
  dev?: boolean;
}

/** Run the daemon in the foreground (logs on this terminal); exits with the daemon's exit code. */
export async function run(deps: Deps, opts: DaemonRunOptions): Promise<number> {
  return deps.daemon.runForeground({ port: opts.port, host: opts.host, dev: opts.dev });
}

export function register(daemon: Command, invoke: Invoke): void {
  daemon
    .command('run')
    .description('run the daemon in the foreground until Ctrl+C')
    .addOption(portOption())
    .addOption(hostOption())
    .option('--dev', 'development mode (serves the web app through Vite)')
    .action((opts: DaemonRunOptions, command: Command) => invoke(command, run, opts));
}
