import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { blueprintLines } from '@forge/shared/schema-free';
import { defaultProjectName } from '../builds/resolve.ts';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { isZipName } from '../protocol/facts.ts';

export interface PlanOptions {
  /** A ZIP, or a project's name; absent: --project, else the current project. */
  target?: string | undefined;
  project?: string;
  json?: boolean;
}

/**
 * The build plan without building: of a ZIP on disk (sent to the daemon, which keeps nothing), or of
 * an uploaded project by name. Each decision is shown with the file and rule that made it.
 */
export async function run(deps: Deps, opts: PlanOptions): Promise<number> {
  const target = opts.target;
  // A .zip name, a path or a file here is a file (and must be a ZIP); anything else names a project.
  const isFile =
    target !== undefined && (isZipName(target) || /[\\/]/.test(target) || isFileHere(deps.cwd, target));
  const zip = isFile ? await import('../lazy.ts') : undefined;
  const file = zip && target ? await zip.checkZipFile(target, deps.cwd) : undefined;
  const { client } = await deps.connect();
  const name = isFile ? undefined : (target ?? opts.project ?? (await defaultProjectName(client)));
  const blueprint =
    zip && file
      ? await client.request('planArchive', { file: zip.zipUpload(file) })
      : await client.request('projectBlueprint', { params: { name: name! } });
  if (opts.json) deps.out.json(blueprint);
  else for (const line of blueprintLines(blueprint)) deps.out.data(line);
  return 0;
}

function isFileHere(cwd: string, name: string): boolean {
  try {
    return statSync(resolve(cwd, name)).isFile();
  } catch {
    return false;
  }
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('plan')
    .description('show how Forge would build a ZIP or an uploaded project, with the evidence for each step')
    .argument('[zip|project]', 'a .zip file, or the name of an uploaded project (default: the current one)')
    .option('-p, --project <name>', 'the uploaded project to plan')
    .option('--json', 'print the plan (blueprint) as JSON')
    .action((target: string | undefined, opts: Omit<PlanOptions, 'target'>, command: Command) =>
      invoke(command, run, { ...opts, target }),
    );
}
