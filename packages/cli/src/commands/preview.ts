import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { openInBrowser } from '../open-browser.ts';
import { CliError } from '../output.ts';

export interface PreviewOptions {
  project?: string;
  open?: boolean;
}

/** Print the preview URL (stdout); --open also opens it. No preview yet: exit 1. */
export async function run(deps: Deps, opts: PreviewOptions): Promise<number> {
  const { client } = await deps.connect();
  const { url } = await client.request('previewUrl', {
    query: opts.project ? { project: opts.project } : {},
  });
  if (!url) {
    const which = opts.project ? ` of ${opts.project}` : '';
    throw new CliError(`There is no preview${which} yet.`, {
      hint: `It is served once a build succeeds: forge build${opts.project ? ` ${opts.project}` : ''} --wait`,
    });
  }
  deps.out.data(url);
  if (!opts.open) return 0;
  await openInBrowser(url);
  return 0;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('preview')
    .description("print the URL of a project's live preview (default: the current project)")
    .argument('[project]', 'project name')
    .option('--open', 'open it in the browser too')
    .action((project: string | undefined, opts: Omit<PreviewOptions, 'project'>, command: Command) =>
      invoke(command, run, { ...opts, project }),
    );
}
