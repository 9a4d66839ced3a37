import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { openInBrowser } from '../open-browser.ts';

export interface OpenOptions {
  /** false with --no-browser: only print the URL. */
  browser: boolean;
}

/** The workspace URL; with a token, `?token=` lets the daemon set its auth cookie on first load. */
export function workspaceUrl(baseUrl: string, token: string | undefined): string {
  const url = new URL(`${baseUrl}/`);
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

/** Open the browser workspace (starting the daemon if needed) and print its URL. */
export async function run(deps: Deps, opts: OpenOptions): Promise<number> {
  const { baseUrl, token } = await deps.connect();
  const url = workspaceUrl(baseUrl, token);
  deps.out.data(url);
  if (!opts.browser) return 0;
  await openInBrowser(url);
  return 0;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('open')
    .description('open the Forge workspace in the browser (prints the URL too)')
    .option('--no-browser', 'only print the URL')
    .action((opts: OpenOptions, command: Command) => invoke(command, run, opts));
}
