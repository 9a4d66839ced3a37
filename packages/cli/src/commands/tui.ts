import type { Command } from 'commander';
import type * as Tui from '@forge/tui';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { CliError, EXIT } from '../output.ts';

type TuiModule = typeof Tui;

/**
 * The one place the CLI loads @forge/tui (Ink + React, ~400 ms): only `forge tui` pays for it. It
 * stays external in the bundle, so a missing or unbuilt dashboard is a clear error, not a crash.
 */
async function loadTui(): Promise<TuiModule> {
  let mod: Partial<TuiModule>;
  try {
    mod = await import('@forge/tui');
  } catch (err) {
    throw new CliError(`The terminal dashboard could not be loaded: ${(err as Error).message}`, {
      hint: 'Build it with `pnpm build` (it lives in packages/tui).',
    });
  }
  if (typeof mod.runTui !== 'function') {
    throw new CliError('The terminal dashboard (@forge/tui) does not export runTui().', {
      hint: 'Rebuild Forge with `pnpm build`.',
    });
  }
  return mod as TuiModule;
}

/** Start the Ink dashboard against the daemon (starting the daemon if needed). */
export async function run(deps: Deps): Promise<number> {
  const tui = await loadTui();
  // Checked before connecting, so a piped `forge tui` does not start a daemon for nothing.
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    deps.out.info(tui.NO_TTY_MESSAGE);
    return EXIT.usage;
  }
  // A daemon elsewhere is watched as it is: when it is down, the dashboard itself says so and how to
  // start one, and reconnects every 3 s, instead of the command failing before it opens.
  if (deps.globals.url) {
    const token = deps.globals.token;
    return tui.runTui({ baseUrl: deps.globals.url, ...(token ? { token } : {}) });
  }
  const { baseUrl, token } = await deps.connect();
  return tui.runTui({ baseUrl, ...(token ? { token } : {}) });
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('tui')
    .description('open the terminal dashboard')
    .action((_opts: unknown, command: Command) => invoke(command, run, {}));
}
