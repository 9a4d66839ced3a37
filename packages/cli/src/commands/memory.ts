import type { MemoryCell } from '@forge/shared';
import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { CliClient } from '../http/client.ts';
import type { Deps } from '../deps.ts';
import { familyHeaders, forgetFamilyLogins, readFamilyLogin } from '../family/session.ts';
import { CliError, EXIT } from '../output.ts';
import { formatTable } from '../table.ts';
import { paint, sanitize } from '../terminal.ts';

/**
 * `forge memory`: the brain's memory cells (key, value, when), as "remember X is Y" stores them
 * through the brain and the chat: list them, set one, forget one. The daemon serves them to the
 * university's family only: each request sends the token `forge login` kept (X-Forge-Family).
 */

/** Said when there is no family login, or the daemon no longer takes it. */
export const FAMILY_LOGIN_NEEDED = 'The memory cells need the family login: forge login <name>';

function loginNeeded(): CliError {
  return new CliError(FAMILY_LOGIN_NEEDED, {
    code: 'FAMILY_AUTH_REQUIRED',
    hint: 'Add an account first if there is none: forge family add <name>',
  });
}

/**
 * A connection with the family login's headers for `fn`'s requests. A token the daemon refuses
 * (expired, revoked) is forgotten, and the error says to log in again.
 */
async function withFamily<T>(
  deps: Deps,
  fn: (client: CliClient, headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  const { client, baseUrl } = await deps.connect();
  const login = await readFamilyLogin(deps.paths.home, baseUrl);
  if (!login) throw loginNeeded();
  try {
    return await fn(client, familyHeaders(login));
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code === 'FAMILY_AUTH_REQUIRED') {
      await forgetFamilyLogins(deps.paths.home, baseUrl);
      throw loginNeeded();
    }
    throw err;
  }
}

/** As the daemon checks keys (MemoryKeyParams): 1 to 200 characters once trimmed. */
const KEY_MAX = 200;

function checkKey(key: string): string {
  const trimmed = key.trim();
  if (!trimmed || trimmed.length > KEY_MAX) {
    throw new CliError(`A memory key is 1 to ${KEY_MAX} characters.`, { exitCode: EXIT.usage });
  }
  return trimmed;
}

/** "2024-05-01 14:03" in local time; the cell's `ts` is milliseconds since the epoch. */
function when(ts: number): string {
  const date = new Date(ts);
  if (Number.isNaN(date.getTime())) return '-';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The cells as a table, newest change first: KEY, UPDATED, VALUE (last: it may be long). */
export function formatMemory(cells: readonly MemoryCell[], color: boolean): string[] {
  const rows = [...cells]
    .sort((a, b) => b.ts - a.ts)
    .map((cell) => [sanitize(cell.key), { text: when(cell.ts), tone: 'dim' as const }, sanitize(cell.value)]);
  return formatTable(['KEY', 'UPDATED', 'VALUE'], rows, paint(color));
}

export async function runList(deps: Deps, opts: { json?: boolean }): Promise<number> {
  const cells = await withFamily(deps, (client, headers) => client.request('memoryCells', { headers }));
  if (opts.json) deps.out.json(cells);
  else if (cells.length === 0) deps.out.info('No memory cells yet. Set one: forge memory set <key> <value>');
  else for (const line of formatMemory(cells, deps.term.stdoutColor)) deps.out.data(line);
  return EXIT.ok;
}

export async function runSet(
  deps: Deps,
  opts: { key: string; value: string; json?: boolean },
): Promise<number> {
  const key = checkKey(opts.key);
  if (opts.value.length > 10_000) {
    throw new CliError('A memory value is at most 10000 characters.', { exitCode: EXIT.usage });
  }
  const cell = await withFamily(deps, (client, headers) =>
    client.request('memorySet', { params: { key }, body: { value: opts.value }, headers }),
  );
  if (opts.json) deps.out.json(cell);
  else deps.out.data(`${sanitize(cell.key)} = ${sanitize(cell.value)}`);
  return EXIT.ok;
}

export async function runRemove(deps: Deps, opts: { key: string; json?: boolean }): Promise<number> {
  const key = checkKey(opts.key);
  const result = await withFamily(deps, (client, headers) =>
    client.request('memoryDelete', { params: { key }, headers }),
  );
  if (opts.json) deps.out.json(result);
  else deps.out.info(`Forgot ${sanitize(result.key)}.`);
  return EXIT.ok;
}

export function register(program: Command, invoke: Invoke): void {
  const memory = program
    .command('memory')
    .description("the brain's memory cells: list, set, forget (after forge login)");
  memory
    .command('ls')
    .description('list the memory cells (key, when it changed, value)')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }, command: Command) => invoke(command, runList, opts));
  memory
    .command('set')
    .description('create or change one memory cell')
    .argument('<key>', 'the key')
    .argument('<value>', 'its value (quote it when it has spaces)')
    .option('--json', 'print the cell as JSON')
    .action((key: string, value: string, opts: { json?: boolean }, command: Command) =>
      invoke(command, runSet, { key, value, json: opts.json }),
    );
  memory
    .command('rm')
    .description('forget one memory cell')
    .argument('<key>', 'the key')
    .option('--json', 'print JSON')
    .action((key: string, opts: { json?: boolean }, command: Command) =>
      invoke(command, runRemove, { key, json: opts.json }),
    );
}
