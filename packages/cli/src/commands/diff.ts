import type { Command } from 'commander';
import { buildDiffLines } from '@forge/shared/schema-free';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';

export interface DiffOptions {
  buildId: string;
  json?: boolean;
}

/**
 * `forge diff <build>`: "why is it red now?" — a failed build compared with the last green build of
 * its project. What the error points at first, then the source files (with their unified diffs),
 * dependencies, toolchain, plan and environment names that changed.
 */
export async function run(deps: Deps, opts: DiffOptions): Promise<number> {
  const { client } = await deps.connect();
  const diff = await client.request('buildDiff', { params: { id: opts.buildId } });
  if (opts.json) deps.out.json(diff);
  else for (const line of buildDiffLines(diff, { patches: true })) deps.out.data(line);
  return 0;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('diff')
    .description('what changed since the last green build: compare a failed build with it')
    .argument('<buildId>', 'the failed build (see forge builds)')
    .option('--json', 'print the comparison as JSON')
    .action((buildId: string, opts: Omit<DiffOptions, 'buildId'>, command: Command) =>
      invoke(command, run, { ...opts, buildId }),
    );
}
