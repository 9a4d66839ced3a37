import { listBuilds } from './builds/list.ts';
import type { Run } from './command.ts';
import { run as bots } from './commands/bots.ts';
import { run as configPrint } from './commands/config.ts';
import { run as daemonStatus } from './commands/daemon-status.ts';
import { run as logs } from './commands/logs.ts';
import { run as plan } from './commands/plan.ts';
import { runGet as settingsGet } from './commands/settings.ts';
import { run as status } from './commands/status.ts';
import { run as workers } from './commands/workers.ts';
import { resolveGlobals } from './context.ts';
import { createDeps } from './deps.ts';
import { createOutput, EXIT, reportError } from './output.ts';
import type { ReadCommand, ReadInvocation } from './read-path.ts';

/**
 * Runs a command of the read path (read-path.ts) as commander's action would: the same `run`, the
 * same deps, the same error report and exit code as cli.ts. None of these modules loads commander.
 */
export const READ_RUNS: Record<ReadCommand, Run<never>> = {
  builds: listBuilds,
  status,
  bots,
  workers,
  logs,
  plan,
  'settings get': settingsGet,
  'config print': configPrint,
  'daemon status': daemonStatus,
};

export async function runRead({ command, opts, globals }: ReadInvocation): Promise<number> {
  const out = createOutput();
  try {
    const deps = createDeps({ out, options: globals });
    const run = READ_RUNS[command] as Run<ReadInvocation['opts']>;
    return (await run(deps, opts)) ?? EXIT.ok;
  } catch (err) {
    return reportError(err, out, { remote: resolveGlobals(globals, process.env).url !== undefined });
  }
}
