import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { EXIT } from '../output.ts';
import { paint } from '../terminal.ts';

export interface HistoryOptions {
  project: string;
  json?: boolean;
}

/** `forge history <project>`: the project's kept builds, newest first, the current one marked. */
export async function run(deps: Deps, opts: HistoryOptions): Promise<number> {
  const { formatHistoryTable } = await import('../history/format-history.ts');
  const { client } = await deps.connect();
  const history = await client.request('projectHistory', { params: { name: opts.project } });
  if (opts.json) {
    deps.out.json(history);
    return EXIT.ok;
  }
  if (history.builds.length === 0) {
    deps.out.info(`No kept builds of ${opts.project} yet: each successful build is kept.`);
    return EXIT.ok;
  }
  for (const line of formatHistoryTable(history, paint(deps.term.stdoutColor))) deps.out.data(line);
  deps.out.info(
    `${history.builds.length} kept (the last ${history.keep} successful builds, the keepArtifacts setting); * is current. Roll back with: forge rollback ${opts.project} [build]`,
  );
  return EXIT.ok;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('history')
    .description("a project's kept successful builds (newest first): when, verdict, size, digest, current")
    .argument('<project>', 'the project (see forge builds)')
    .option('--json', 'print the history as JSON')
    .action((project: string, opts: Omit<HistoryOptions, 'project'>, command: Command) =>
      invoke(command, run, { ...opts, project }),
    );
}
