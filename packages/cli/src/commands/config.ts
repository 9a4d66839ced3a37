import type { Command } from 'commander';
import { formatConfigView } from '@forge/shared/schema-free';
import type { Invoke } from '../command.ts';
import type { Connection, Deps } from '../deps.ts';
import { CliError, EXIT } from '../output.ts';

export interface ConfigPrintOptions {
  json?: boolean;
  local?: boolean;
}

/**
 * The running daemon: --url (FORGE_URL) when given, else this machine's daemon. Never starts one:
 * a daemon started here would only echo this shell's own environment, which `--local` shows.
 */
async function runningDaemon(deps: Deps): Promise<Connection> {
  if (deps.globals.url) return deps.connect();
  const probe = await deps.daemon.probe();
  if (probe.status === 'running') return deps.connectTo(probe.state.url, deps.globals.token);
  const why =
    probe.status === 'unresponsive'
      ? `The Forge daemon (pid ${probe.state.pid}) does not answer at ${probe.state.url}.`
      : `No Forge daemon is running for ${deps.paths.home}.`;
  throw new CliError(why, {
    exitCode: EXIT.unreachable,
    hint: 'forge config print shows the running daemon’s configuration: start it with `forge daemon start`, or see what this shell would start one with: `forge config print --local`.',
  });
}

/**
 * `forge config print`: the configuration the running daemon uses (GET /api/config), secrets
 * redacted. `--local`: what a daemon started from here would use (config file + this environment),
 * computed by the daemon entry (`print-config`) so the CLI never re-implements config loading; its
 * output and exit code are relayed (1 with a message naming the file and field when invalid).
 */
export async function run(deps: Deps, opts: ConfigPrintOptions): Promise<number> {
  if (opts.local) return deps.daemon.runEntry(['print-config', ...(opts.json ? ['--json'] : [])]);
  const { client, baseUrl } = await runningDaemon(deps);
  const view = await client.request('config');
  if (opts.json) {
    deps.out.json(view);
    return 0;
  }
  deps.out.data(formatConfigView(view, [['daemon', `${baseUrl} (pid ${view.pid}, Forge ${view.version})`]]));
  return 0;
}

export function register(program: Command, invoke: Invoke): void {
  const config = program.command('config').description("show the daemon's configuration");
  config
    .command('print')
    .description(
      "print the running daemon's configuration (tokens, keys and URL passwords as ***); --local: this machine's config file and FORGE_* environment",
    )
    .option('--json', 'print JSON')
    .option(
      '--local',
      'the configuration a daemon started here would use (forge.config.*, .forgerc, FORGE_* env)',
    )
    .action((opts: ConfigPrintOptions, command: Command) => invoke(command, run, opts));
}
