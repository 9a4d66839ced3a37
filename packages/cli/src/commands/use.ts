import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { CliError, EXIT } from '../output.ts';

export interface UseOptions {
  project?: string | undefined;
  json?: boolean;
}

/**
 * `forge use <project>`: choose the current project, the one every command, the web and the
 * assistants act on when none is named. The daemon keeps the choice (across restarts) until another
 * choice: an accepted upload, the web's project selector, or `forge use` again. Without a name, print
 * the current project.
 */
export async function run(deps: Deps, opts: UseOptions): Promise<number> {
  const { client } = await deps.connect();
  const current = opts.project
    ? await client.request('useProject', { body: { name: opts.project } })
    : await client.request('currentProject');
  if (opts.json) {
    deps.out.json(current);
    return EXIT.ok;
  }
  if (!current.name) {
    throw new CliError('There are no projects yet.', {
      hint: 'Upload a project first: forge upload app.zip',
    });
  }
  if (opts.project) deps.out.info(`Current project: ${current.name}`);
  else deps.out.data(current.name);
  return EXIT.ok;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('use')
    .description('choose the current project (the default of every command); without a name, print it')
    .argument('[project]', 'the project to act on from now on')
    .option('--json', 'print { name } as JSON')
    .action((project: string | undefined, opts: Omit<UseOptions, 'project'>, command: Command) =>
      invoke(command, run, { ...opts, project }),
    );
}
