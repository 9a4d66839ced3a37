import type { IntegratedApp } from '@forge/shared';
import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { EXIT } from '../output.ts';
import { formatTable } from '../table.ts';
import { paint, sanitize } from '../terminal.ts';
import { checkName } from './ext.ts';

/**
 * `forge apps`: the apps IntegrationBot published (a build's output shown at /apps/<name>).
 * `ls` lists them with the build each serves, `rollback <name>` serves the build it replaced again.
 */

/** NAME, BUILD, PREVIOUS, ROUTE, URL (last: it may be long). */
export function formatApps(apps: readonly IntegratedApp[], color: boolean): string[] {
  const rows = apps.map((a) => [
    sanitize(a.name),
    sanitize(a.buildId),
    { text: a.previousBuildId ? sanitize(a.previousBuildId) : '-', tone: 'dim' as const },
    sanitize(a.path),
    a.url ? sanitize(a.url) : { text: 'not served', tone: 'dim' as const },
  ]);
  return formatTable(['NAME', 'BUILD', 'PREVIOUS', 'ROUTE', 'URL'], rows, paint(color));
}

export async function runList(deps: Deps, opts: { json?: boolean }): Promise<number> {
  const { client } = await deps.connect();
  const apps = await client.request('apps');
  if (opts.json) deps.out.json(apps);
  else if (apps.length === 0)
    deps.out.info('No apps integrated. Publish a successful build from the Build Complete dialog.');
  else for (const line of formatApps(apps, deps.term.stdoutColor)) deps.out.data(line);
  return EXIT.ok;
}

export async function runRollback(deps: Deps, opts: { name: string; json?: boolean }): Promise<number> {
  const name = checkName(opts.name, 'forge apps ls');
  const { client } = await deps.connect();
  const result = await client.request('rollbackApp', { params: { name } });
  if (opts.json) {
    deps.out.json(result);
    return EXIT.ok;
  }
  const { app, rolledBackFrom } = result;
  deps.out.info(
    `Rolled back ${sanitize(app.name)} from build ${sanitize(rolledBackFrom)} to ${sanitize(app.buildId)}: shown at ${sanitize(app.path)}. Run it again to return.`,
  );
  if (app.url) deps.out.data(sanitize(app.url));
  return EXIT.ok;
}

export function register(program: Command, invoke: Invoke): void {
  const apps = program
    .command('apps')
    .description('apps integrated into the platform: list, roll back to the build published before');
  apps
    .command('ls')
    .description('list the integrated apps (build served, the one kept for a rollback, route, URL)')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }, command: Command) => invoke(command, runList, opts));
  apps
    .command('rollback')
    .description('serve the build the last integration replaced (run again to return)')
    .argument('<name>', 'the app name (forge apps ls)')
    .option('--json', 'print the daemon answer as JSON')
    .action((name: string, opts: { json?: boolean }, command: Command) =>
      invoke(command, runRollback, { name, json: opts.json }),
    );
}
