import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';

export interface ConfigPrintOptions {
  json?: boolean;
}

/**
 * The merged daemon configuration (config file + environment), secrets redacted. The daemon entry
 * computes it (`print-config`), so the CLI never re-implements config loading; we relay its output
 * and exit code (1 with a message naming the file and field when the config is invalid).
 */
export async function run(deps: Deps, opts: ConfigPrintOptions): Promise<number> {
  return deps.daemon.runEntry(['print-config', ...(opts.json ? ['--json'] : [])]);
}

export function register(program: Command, invoke: Invoke): void {
  const config = program.command('config').description("show the daemon's configuration");
  config
    .command('print')
    .description('print the merged configuration (forge.config.*, .forgerc, FORGE_* env); tokens redacted')
    .option('--json', 'print JSON')
    .action((opts: ConfigPrintOptions, command: Command) => invoke(command, run, opts));
}
