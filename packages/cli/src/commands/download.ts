import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { isInterrupted, withInterrupt } from '../interrupt.ts';
import { EXIT } from '../output.ts';
import { createProgressLine } from '../transfer/progress.ts';

export interface DownloadOptions {
  project: string;
  /** The build output instead of the source. */
  artifact?: boolean;
  /** Target file; `-` writes to stdout. Default ./{project}.zip */
  output?: string;
  force?: boolean;
}

/**
 * Download a project's source (or with --artifact its build output) as a ZIP. Streamed to a temporary
 * file that is renamed into place when complete; an existing file is kept unless --force.
 */
export async function run(deps: Deps, opts: DownloadOptions): Promise<number> {
  const { resolve } = await import('node:path');
  const { formatBytes, projectZipName } = await import('@forge/shared');
  const { downloadToFile, downloadToStream } = await import('../lazy.ts');

  const connection = await deps.connect();
  const route = opts.artifact ? 'downloadArtifact' : 'downloadProject';
  const url = connection.client.url(route, { params: { name: opts.project } });
  const what = opts.artifact ? 'build output' : 'source';
  const line = createProgressLine(deps.out, deps.term.stderrLive);
  const onProgress = (received: number, total: number | undefined) =>
    line.update(`Downloading ${formatBytes(received)}${total ? ` / ${formatBytes(total)}` : ''}`);

  try {
    if (opts.output === '-') {
      const bytes = await withInterrupt((signal) =>
        downloadToStream({ url, token: connection.token, signal, onProgress }, process.stdout),
      );
      line.done(`Downloaded the ${what} of ${opts.project} (${formatBytes(bytes)}).`);
      return EXIT.ok;
    }
    const target = resolve(deps.cwd, opts.output ?? projectZipName(opts.project));
    const bytes = await withInterrupt((signal) =>
      downloadToFile({ url, token: connection.token, signal, onProgress }, target, opts.force === true),
    );
    line.done(`Downloaded the ${what} of ${opts.project} (${formatBytes(bytes)}).`);
    deps.out.data(target);
    return EXIT.ok;
  } catch (err) {
    line.clear();
    if (isInterrupted(err)) return EXIT.interrupted;
    throw err;
  }
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('download')
    .description("download a project's source as a ZIP (or its build output with --artifact)")
    .argument('<project>', 'project name')
    .option('-a, --artifact', 'the build output instead of the source')
    .option('-o, --output <file>', 'where to write it (default: ./<project>.zip; - for stdout)')
    .option('-f, --force', 'replace the file if it exists')
    .action((project: string, opts: Omit<DownloadOptions, 'project'>, command: Command) =>
      invoke(command, run, { ...opts, project }),
    );
}
