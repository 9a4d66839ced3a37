import type { Extension } from '@forge/shared';
import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { CliError, EXIT } from '../output.ts';
import { formatTable } from '../table.ts';
import { paint, sanitize } from '../terminal.ts';

/**
 * `forge ext`: ExtensionBot's extensions (docs/extensions.md). `install <zip>` uploads an extension
 * ZIP (a new name installs it, a known name upgrades it), `ls` lists what is installed and where
 * each is served, `rollback <name>` brings back the version an upgrade replaced, `rm <name>`
 * uninstalls one.
 */

/** As the daemon limits POST /api/upload-extension (features/extensions/limits.ts). */
const MAX_EXTENSION_BYTES = 10 * 1024 * 1024;

/** The installed extensions as a table: NAME, VERSION, ROUTE, URL (last: it may be long). */
export function formatExtensions(extensions: readonly Extension[], color: boolean): string[] {
  const rows = extensions.map((e) => [
    sanitize(e.name),
    { text: sanitize(e.version ?? '-'), tone: 'dim' as const },
    sanitize(e.route),
    e.url ? sanitize(e.url) : { text: 'not served', tone: 'dim' as const },
  ]);
  return formatTable(['NAME', 'VERSION', 'ROUTE', 'URL'], rows, paint(color));
}

export async function runInstall(deps: Deps, opts: { file: string; json?: boolean }): Promise<number> {
  const { checkZipFile, zipUpload } = await import('../lazy.ts');
  const file = await checkZipFile(opts.file, deps.cwd);
  if (file.size > MAX_EXTENSION_BYTES) {
    throw new CliError(`File too large: an extension ZIP is at most 10MB (${opts.file}).`, {
      exitCode: EXIT.refused,
      code: 'FILE_TOO_LARGE',
      hint: 'An extension is a few static files: a page, scripts, styles, images.',
    });
  }
  const { client } = await deps.connect();
  let result;
  try {
    result = await client.request('uploadExtension', { file: zipUpload(file) });
  } catch (err) {
    // A 4xx other than access (401, 403) means the ZIP was refused: exit 6, as for a project upload.
    const e = err as { name?: string; status?: number };
    if (e.name === 'ForgeHttpError' && e.status !== undefined && e.status >= 400 && e.status < 500) {
      if (e.status !== 401 && e.status !== 403) Object.assign(err as Error, { refused: true });
    }
    throw err;
  }
  if (opts.json) {
    deps.out.json(result);
    return EXIT.ok;
  }
  const { extension, upgradedFrom } = result;
  const what = upgradedFrom
    ? `Upgraded ${sanitize(extension.name)} from ${sanitize(upgradedFrom)} to ${sanitize(extension.version ?? '?')}`
    : `Installed ${sanitize(extension.name)} ${sanitize(extension.version ?? '')}`.trimEnd();
  deps.out.info(`${what}: shown at ${sanitize(extension.route)} in the workspace.`);
  if (extension.url) deps.out.data(sanitize(extension.url));
  return EXIT.ok;
}

export async function runList(deps: Deps, opts: { json?: boolean }): Promise<number> {
  const { client } = await deps.connect();
  const extensions = await client.request('extensions');
  if (opts.json) deps.out.json(extensions);
  else if (extensions.length === 0)
    deps.out.info('No extensions installed. Install one: forge ext install <zip>');
  else for (const line of formatExtensions(extensions, deps.term.stdoutColor)) deps.out.data(line);
  return EXIT.ok;
}

export const checkName = (raw: string, list: string): string => {
  const name = raw.trim();
  if (!name || name.length > 64) {
    throw new CliError(`A name is 1 to 64 characters (see ${list}).`, { exitCode: EXIT.usage });
  }
  return name;
};

export async function runRollback(deps: Deps, opts: { name: string; json?: boolean }): Promise<number> {
  const name = checkName(opts.name, 'forge ext ls');
  const { client } = await deps.connect();
  const result = await client.request('rollbackExtension', { params: { name } });
  if (opts.json) {
    deps.out.json(result);
    return EXIT.ok;
  }
  const { extension, rolledBackFrom } = result;
  deps.out.info(
    `Rolled back ${sanitize(extension.name)} from ${sanitize(rolledBackFrom)} to ${sanitize(extension.version ?? '?')}: shown at ${sanitize(extension.route)}. Run it again to return to ${sanitize(rolledBackFrom)}.`,
  );
  if (extension.url) deps.out.data(sanitize(extension.url));
  return EXIT.ok;
}

export async function runRemove(deps: Deps, opts: { name: string; json?: boolean }): Promise<number> {
  const name = checkName(opts.name, 'forge ext ls');
  const { client } = await deps.connect();
  const result = await client.request('deleteExtension', { params: { name } });
  if (opts.json) deps.out.json(result);
  else deps.out.info(`Uninstalled ${sanitize(result.name)}.`);
  return EXIT.ok;
}

export function register(program: Command, invoke: Invoke): void {
  const ext = program
    .command('ext')
    .description(
      'extensions: install or upgrade from a ZIP, list, roll back, remove (see docs/extensions.md)',
    );
  ext
    .command('install')
    .description('install an extension ZIP (at most 10MB); the same name again upgrades it')
    .argument('<zip>', 'the extension as a .zip file with forge-extension.json at its root')
    .option('--json', 'print the daemon answer as JSON')
    .action((zip: string, opts: { json?: boolean }, command: Command) =>
      invoke(command, runInstall, { file: zip, json: opts.json }),
    );
  ext
    .command('ls')
    .description('list the installed extensions (name, version, route, where it is served)')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }, command: Command) => invoke(command, runList, opts));
  ext
    .command('rollback')
    .description('bring back the version the last upgrade replaced (run again to return)')
    .argument('<name>', 'the extension name (forge ext ls)')
    .option('--json', 'print the daemon answer as JSON')
    .action((name: string, opts: { json?: boolean }, command: Command) =>
      invoke(command, runRollback, { name, json: opts.json }),
    );
  ext
    .command('rm')
    .description('uninstall an extension: its server stops and its files are removed')
    .argument('<name>', 'the extension name (forge ext ls)')
    .option('--json', 'print JSON')
    .action((name: string, opts: { json?: boolean }, command: Command) =>
      invoke(command, runRemove, { name, json: opts.json }),
    );
}
