import type { Command } from 'commander';
import { defaultProjectName } from '../builds/resolve.ts';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { EXIT } from '../output.ts';
import { paint } from '../terminal.ts';
import { formatScan, scanCounts } from '../views/scan.ts';

export interface ScanOptions {
  project?: string;
  json?: boolean;
}

/**
 * ScanBot's scan of a project (default: the current one, see forge use): undeclared imports, missing
 * scripts, invalid JSON configs, committed secrets (named, never shown), oversized files, type
 * errors, the last failure's diagnosis. Exit 1 when a finding is an error, so `forge scan && …`
 * stops on what would break the build; warnings and info leave it at 0.
 */
export async function run(deps: Deps, opts: ScanOptions): Promise<number> {
  const { client } = await deps.connect();
  const project = opts.project ?? (await defaultProjectName(client));
  const report = await client.request('projectScan', { params: { name: project } });
  const failing = report.issues.some((issue) => issue.severity === 'error');
  if (opts.json) deps.out.json(report);
  else {
    for (const line of formatScan(report, paint(deps.term.stdoutColor))) deps.out.data(line);
    if (report.issues.length > 0) deps.out.info(scanCounts(report));
  }
  return failing ? EXIT.failure : EXIT.ok;
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('scan')
    .description("ScanBot's scan of a project: undeclared imports, scripts, JSON, secrets, sizes, types")
    .argument('[project]', 'project name (default: the current one, see forge use)')
    .option('-p, --project <name>', 'the project (the same as the argument)')
    .option('--json', 'print the scan report as JSON')
    .addHelpText(
      'after',
      `
Findings are grouped by severity (errors, warnings, info), each with its file:line and what to do.
Committed secrets are named by file and variable, never shown. Type errors are looked for only
when the project's dependencies are installed (after a build).

Exit codes:
  0    no finding is an error (warnings and info may be printed)
  1    at least one finding is an error (also with --json); or another failure
  2    usage error
  3    daemon unreachable`,
    )
    .action((project: string | undefined, opts: ScanOptions, command: Command) =>
      invoke(command, run, { ...opts, project: project ?? opts.project }),
    );
}
