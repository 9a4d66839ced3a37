import type { FamilyAccount } from '@forge/shared';
import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { isInterrupted } from '../interrupt.ts';
import { CliError, EXIT } from '../output.ts';
import { PromptCancelled, readAllStdin, readHidden } from '../prompt.ts';
import { formatTable } from '../table.ts';
import { paint, sanitize } from '../terminal.ts';

/**
 * `forge family`: the university's family accounts (AuthBot). The daemon manages them only for
 * requests from this machine's CLI (browsers are refused), so this is where accounts are added,
 * listed, removed and given a new password. A password is typed at a hidden prompt (twice) or read
 * from stdin with --password-stdin; never an argument, which would stay in the shell's history.
 */

/** As the daemon checks them (FamilyName, FamilyPassword in @forge/shared). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const NAME_MAX = 40;
export const PASSWORD_MIN = 10;
const PASSWORD_MAX = 200;

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > NAME_MAX || !NAME.test(trimmed)) {
    throw new CliError(
      `A family account name is 1 to ${NAME_MAX} letters, digits, dots, dashes or underscores, starting with a letter or digit.`,
      { exitCode: EXIT.usage },
    );
  }
  return trimmed;
}

/** The password: from stdin with --password-stdin, else typed twice at a prompt that does not echo. */
async function readPassword(passwordStdin: boolean | undefined, prompt: string): Promise<string> {
  let password: string;
  if (passwordStdin) password = await readAllStdin(process.stdin);
  else if (!process.stdin.isTTY) {
    throw new CliError('There is no terminal to type the password at.', {
      exitCode: EXIT.usage,
      hint: 'Pipe it in with --password-stdin: forge family add <name> --password-stdin < file',
    });
  } else {
    try {
      password = await readHidden(process.stdin, process.stderr, prompt);
      if (password.length >= PASSWORD_MIN && password.length <= PASSWORD_MAX) {
        const again = await readHidden(process.stdin, process.stderr, 'Type it again: ');
        if (again !== password) {
          throw new CliError('The two passwords differ; nothing was changed.', { exitCode: EXIT.usage });
        }
      }
    } catch (err) {
      if (isInterrupted(err))
        throw new CliError('Stopped; nothing was changed.', { exitCode: EXIT.interrupted });
      if (err instanceof PromptCancelled) throw new CliError(err.message, { exitCode: EXIT.usage });
      throw err;
    }
  }
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new CliError(
      `A password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters; nothing was changed.`,
      {
        exitCode: EXIT.usage,
      },
    );
  }
  return password;
}

/** "2024-05-01 14:03" in local time, or "never". */
function when(iso: string | null): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '-';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formatAccounts(accounts: readonly FamilyAccount[], color: boolean): string[] {
  const rows = accounts.map((a) => [
    sanitize(a.name),
    { text: when(a.createdAt), tone: 'dim' as const },
    a.lastLoginAt ? when(a.lastLoginAt) : { text: 'never', tone: 'dim' as const },
  ]);
  return formatTable(['NAME', 'CREATED', 'LAST LOGIN'], rows, paint(color));
}

export async function runAdd(
  deps: Deps,
  opts: { name: string; passwordStdin?: boolean; json?: boolean },
): Promise<number> {
  const name = checkName(opts.name);
  const password = await readPassword(opts.passwordStdin, `Password for ${sanitize(name)} (not shown): `);
  const { client } = await deps.connect();
  const result = await client.request('familyAdd', { body: { name, password } });
  if (opts.json) deps.out.json(result);
  else
    deps.out.info(
      `Added the family account ${sanitize(result.name)}: it logs in to the university at /login.`,
    );
  return EXIT.ok;
}

export async function runList(deps: Deps, opts: { json?: boolean }): Promise<number> {
  const { client } = await deps.connect();
  const accounts = await client.request('familyAccounts');
  if (opts.json) deps.out.json(accounts);
  else if (accounts.length === 0) deps.out.info('No family accounts yet. Add one: forge family add <name>');
  else for (const line of formatAccounts(accounts, deps.term.stdoutColor)) deps.out.data(line);
  return EXIT.ok;
}

export async function runRemove(deps: Deps, opts: { name: string; json?: boolean }): Promise<number> {
  const name = checkName(opts.name);
  const { client } = await deps.connect();
  const result = await client.request('familyRemove', { params: { name } });
  if (opts.json) deps.out.json(result);
  else deps.out.info(`Removed the family account ${sanitize(result.name)}; its sessions ended.`);
  return EXIT.ok;
}

export async function runPasswd(
  deps: Deps,
  opts: { name: string; passwordStdin?: boolean; json?: boolean },
): Promise<number> {
  const name = checkName(opts.name);
  const password = await readPassword(opts.passwordStdin, `New password for ${sanitize(name)} (not shown): `);
  const { client } = await deps.connect();
  const result = await client.request('familyPasswd', { params: { name }, body: { password } });
  if (opts.json) deps.out.json(result);
  else deps.out.info(`Changed the password of ${sanitize(result.name)}; its sessions ended.`);
  return EXIT.ok;
}

export function register(program: Command, invoke: Invoke): void {
  const family = program
    .command('family')
    .description("the university's family accounts: add, list, remove, change a password")
    .addHelpText(
      'after',
      `
Passwords are at least ${PASSWORD_MIN} characters, typed at a hidden prompt (twice) or piped in with
--password-stdin; never given as an argument. The daemon keeps only their scrypt hash, and manages
accounts only for this machine's forge (browsers are refused).`,
    );
  family
    .command('add')
    .description('add a family account (the password from a hidden prompt, or stdin)')
    .argument('<name>', 'the account name (its login username)')
    .option('--password-stdin', 'read the password from stdin')
    .option('--json', 'print JSON')
    .action((name: string, opts: { passwordStdin?: boolean; json?: boolean }, command: Command) =>
      invoke(command, runAdd, { name, ...opts }),
    );
  family
    .command('ls')
    .description('list the family accounts (name, created, last login)')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }, command: Command) => invoke(command, runList, opts));
  family
    .command('rm')
    .description('remove a family account and end its sessions')
    .argument('<name>', 'the account name')
    .option('--json', 'print JSON')
    .action((name: string, opts: { json?: boolean }, command: Command) =>
      invoke(command, runRemove, { name, ...opts }),
    );
  family
    .command('passwd')
    .description("change a family account's password and end its sessions")
    .argument('<name>', 'the account name')
    .option('--password-stdin', 'read the password from stdin')
    .option('--json', 'print JSON')
    .action((name: string, opts: { passwordStdin?: boolean; json?: boolean }, command: Command) =>
      invoke(command, runPasswd, { name, ...opts }),
    );
}
