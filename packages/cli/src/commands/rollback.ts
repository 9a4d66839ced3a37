import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { EXIT } from '../output.ts';

export interface RollbackOptions {
  project: string;
  buildId?: string | undefined;
  json?: boolean;
}

/**
 * `forge rollback <project> [build]`: make a kept build (default: the previous green one) the
 * project's current preview and download, without building. An unknown, failed or pruned build is
 * the daemon's error (BUILD_NOT_FOUND, BUILD_NOT_KEPT), exit 1.
 */
export async function run(deps: Deps, opts: RollbackOptions): Promise<number> {
  const { formatDuration } = await import('@forge/shared/schema-free');
  const { client } = await deps.connect();
  const result = await client.request('rollback', {
    params: { name: opts.project },
    body: opts.buildId ? { build: opts.buildId } : {},
  });
  if (opts.json) {
    deps.out.json(result);
    return EXIT.ok;
  }
  deps.out.data(
    `Rolled ${result.projectName} back to build ${result.buildId}${result.previousBuildId ? ` (was ${result.previousBuildId})` : ''} in ${formatDuration(result.durationMs)}: artifact sha256 ${result.artifactSha256.slice(0, 12)}…`,
  );
  deps.out.info(
    result.previewUrl
      ? `Preview: ${result.previewUrl}`
      : 'No preview could be started; the download is switched.',
  );
  return EXIT.ok;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('rollback')
    .description('make a kept build the current preview and download, without building')
    .argument('<project>', 'the project')
    .argument('[buildId]', 'the build (see forge history); default: the previous green build')
    .option('--json', 'print the result as JSON')
    .action(
      (
        project: string,
        buildId: string | undefined,
        opts: Omit<RollbackOptions, 'project' | 'buildId'>,
        command: Command,
      ) => invoke(command, run, { ...opts, project, buildId }),
    );
}
