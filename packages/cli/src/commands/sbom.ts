import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { isInterrupted, withInterrupt } from '../interrupt.ts';
import { EXIT } from '../output.ts';

export interface SbomOptions {
  buildId: string;
  /** Target file; default: stdout. */
  output?: string;
  force?: boolean;
}

/** `forge sbom <build>`: a successful build's CycloneDX SBOM, to stdout or a file. */
export async function run(deps: Deps, opts: SbomOptions): Promise<number> {
  const { resolve } = await import('node:path');
  const { downloadToFile, downloadToStream } = await import('../lazy.ts');
  const connection = await deps.connect();
  const url = connection.client.url('buildSbom', { params: { id: opts.buildId } });
  try {
    if (!opts.output || opts.output === '-') {
      await withInterrupt((signal) =>
        downloadToStream({ url, token: connection.token, signal }, process.stdout),
      );
      return EXIT.ok;
    }
    const target = resolve(deps.cwd, opts.output);
    await withInterrupt((signal) =>
      downloadToFile({ url, token: connection.token, signal }, target, opts.force === true),
    );
    deps.out.data(target);
    return EXIT.ok;
  } catch (err) {
    if (isInterrupted(err)) return EXIT.interrupted;
    throw err;
  }
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('sbom')
    .description("a successful build's CycloneDX 1.6 JSON SBOM (to stdout, or a file with -o)")
    .argument('<buildId>', 'the build (see forge builds)')
    .option('-o, --output <file>', 'write it here instead of stdout')
    .option('-f, --force', 'replace the file if it exists')
    .action((buildId: string, opts: Omit<SbomOptions, 'buildId'>, command: Command) =>
      invoke(command, run, { ...opts, buildId }),
    );
}
