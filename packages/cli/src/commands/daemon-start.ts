import { Option, type Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { parseHost, parsePort } from '../options.ts';
import { CliError } from '../output.ts';

export interface DaemonStartOptions {
  port?: number;
  host?: string;
}

/** Start the daemon in the background; prints its URL on stdout once /api/health answers. */
export async function run(deps: Deps, opts: DaemonStartOptions): Promise<number> {
  const result = await deps.daemon.start({ port: opts.port, host: opts.host });
  if (result.kind === 'already-running') {
    const { url, pid } = result.state;
    throw result.responsive
      ? new CliError(`Forge is already running at ${url}`, {
          hint: 'Stop it first with `forge daemon stop`.',
        })
      : new CliError(`A Forge daemon (pid ${pid}) is already running at ${url}, but it does not answer.`, {
          hint: 'Stop it with `forge daemon stop`, then start again.',
        });
  }
  deps.out.info(`Forge started (pid ${result.state.pid}, logs: ${deps.paths.logFile}).`);
  deps.out.data(result.state.url);
  return 0;
}

export const portOption = () =>
  new Option(
    '-p, --port <port>',
    'port to listen on (0 = any free port; default: FORGE_PORT, config, 4317)',
  ).argParser(parsePort);
export const hostOption = () =>
  new Option('-H, --host <host>', 'address to bind (default: FORGE_HOST, config, 127.0.0.1)').argParser(
    parseHost,
  );

export function register(daemon: Command, invoke: Invoke): void {
  daemon
    .command('start')
    .description('start the daemon in the background and print its URL')
    .addOption(portOption())
    .addOption(hostOption())
    .action((opts: DaemonStartOptions, command: Command) => invoke(command, run, opts));
}
