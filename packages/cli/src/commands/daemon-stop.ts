import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';

/** Stop the local daemon: SIGTERM, then SIGKILL if it has not gone after 12 s. */
export async function run(deps: Deps): Promise<number> {
  const result = await deps.daemon.stop();
  if (result.kind === 'not-running') {
    const stale = result.stale
      ? ` (removed a stale state file${result.stale.pid === null ? '' : ` from pid ${result.stale.pid}`})`
      : '';
    deps.out.data(`Forge is not running${stale}`);
    return 0;
  }
  deps.out.data(
    result.forced
      ? `Forge stopped (pid ${result.state.pid} did not stop in time and was killed)`
      : 'Forge stopped',
  );
  return 0;
}

export function register(daemon: Command, invoke: Invoke): void {
  daemon
    .command('stop')
    .description('stop the daemon')
    .action((_opts: unknown, command: Command) => invoke(command, run, {}));
}
