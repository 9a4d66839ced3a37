import type { IncomingHttpHeaders } from 'node:http';
import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { familyHeaders, forgetFamilyLogins, readFamilyLogin, saveFamilyLogin } from '../family/session.ts';
import { isInterrupted } from '../interrupt.ts';
import { CliError, describeError, EXIT } from '../output.ts';
import { PromptCancelled, readAllStdin, readHidden } from '../prompt.ts';
import { sanitize } from '../terminal.ts';

/**
 * `forge login <name>` and `forge logout`: the university's family login (AuthBot) for this CLI.
 * The token the daemon gives is kept in FORGE_HOME (family/session.ts) and sent by `forge memory`;
 * the password is typed at a hidden prompt or read from stdin with --password-stdin, never an
 * argument (it would stay in the shell's history).
 */

/** What a failed or refused family login says (spec: Login, "Invalid credentials"). */
export const INVALID_CREDENTIALS = 'Invalid credentials';

/** A daemon error as the shared client reports it (recognised by name: no @forge/shared here). */
interface HttpError {
  name: 'ForgeHttpError';
  status: number;
  code?: string;
  serverMessage?: string;
  bodyText?: string;
  headers?: IncomingHttpHeaders;
}

export const isHttpError = (err: unknown): err is HttpError =>
  (err as { name?: unknown } | null)?.name === 'ForgeHttpError';

/** "14 minutes", "1 minute", "40 seconds": the wait before the next login may be tried. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** Seconds to wait, from the Retry-After header (or the error's details when a proxy dropped it). */
function retryAfterOf(err: HttpError): number | null {
  const header = err.headers?.['retry-after'];
  if (typeof header === 'string' && /^\d+$/.test(header.trim())) return Number(header.trim());
  try {
    const seconds = (JSON.parse(err.bodyText ?? '') as { details?: { retryAfterSeconds?: unknown } }).details
      ?.retryAfterSeconds;
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  } catch {
    // Not JSON: no wait known.
  }
  return null;
}

/** The password: from stdin with --password-stdin, else typed once at a prompt that does not echo. */
async function readPassword(name: string, passwordStdin: boolean | undefined): Promise<string> {
  let password: string;
  if (passwordStdin) password = await readAllStdin(process.stdin);
  else if (!process.stdin.isTTY) {
    throw new CliError('There is no terminal to type the password at.', {
      exitCode: EXIT.usage,
      hint: 'Pipe it in with --password-stdin: forge login <name> --password-stdin < file',
    });
  } else {
    try {
      password = await readHidden(
        process.stdin,
        process.stderr,
        `Password for ${sanitize(name)} (not shown): `,
      );
    } catch (err) {
      if (isInterrupted(err)) throw new CliError('Stopped; not logged in.', { exitCode: EXIT.interrupted });
      if (err instanceof PromptCancelled) throw new CliError(err.message, { exitCode: EXIT.usage });
      throw err;
    }
  }
  if (!password) throw new CliError('The password is empty; not logged in.', { exitCode: EXIT.usage });
  return password;
}

export async function runLogin(
  deps: Deps,
  opts: { name: string; passwordStdin?: boolean; json?: boolean },
): Promise<number> {
  const name = opts.name.trim();
  if (!name) throw new CliError('Say who logs in: forge login <name>.', { exitCode: EXIT.usage });
  const password = await readPassword(name, opts.passwordStdin);
  const { client, baseUrl } = await deps.connect();
  let token: string;
  try {
    ({ token } = await client.request('login', { body: { username: name, password } }));
  } catch (err) {
    if (isHttpError(err) && err.code === 'INVALID_CREDENTIALS') {
      throw new CliError(INVALID_CREDENTIALS, { code: err.code });
    }
    if (isHttpError(err) && (err.code === 'TOO_MANY_ATTEMPTS' || err.status === 429)) {
      const wait = retryAfterOf(err);
      throw new CliError(
        `Too many failed logins. Try again${wait === null ? ' later' : ` in ${formatWait(wait)}`}.`,
        { code: err.code ?? 'TOO_MANY_ATTEMPTS' },
      );
    }
    throw err;
  }
  const login = { token, name, at: new Date().toISOString() };
  // Who the token is for, as the daemon spells the name, and when it ends.
  const session = await client.request('familyMe', { headers: familyHeaders(login) });
  await saveFamilyLogin(deps.paths.home, baseUrl, { ...login, name: session.name });
  if (opts.json) deps.out.json(session);
  else deps.out.info(`Logged in to the university as ${sanitize(session.name)}.`);
  return EXIT.ok;
}

const NOT_LOGGED_IN = 'Not logged in to the university here; nothing to do.';

/** Addresses of this machine's daemon, whatever port it had. */
const isLoopback = (baseUrl: string): boolean => {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
};

/**
 * Revoke the stored token at the daemon, then forget it. It is forgotten here in any case: when the
 * daemon does not answer, it says so (exit 3), as the token stays valid there until it expires.
 */
export async function runLogout(deps: Deps, opts: { json?: boolean }): Promise<number> {
  const home = deps.paths.home;
  let connection: Awaited<ReturnType<Deps['connect']>>;
  try {
    // Not started for this: a daemon started now could not revoke a token it is not asked about.
    if (!deps.globals.url) {
      const probe = await deps.daemon.probe();
      if (probe.status !== 'running') {
        throw new CliError('The Forge daemon is not running.', { exitCode: EXIT.unreachable });
      }
    }
    connection = await deps.connect();
  } catch (err) {
    if (describeError(err).exitCode !== EXIT.unreachable) throw err;
    // --url's daemon, or the local one (which may come back on another port).
    const forgotten = await forgetFamilyLogins(home, deps.globals.url ?? isLoopback);
    if (forgotten.length > 0) throw unrevoked(err);
    if (opts.json) deps.out.json({ ok: true, loggedOut: null });
    else deps.out.info(NOT_LOGGED_IN);
    return EXIT.ok;
  }
  const { client, baseUrl } = connection;
  const login = await readFamilyLogin(home, baseUrl);
  if (!login) {
    if (opts.json) deps.out.json({ ok: true, loggedOut: null });
    else deps.out.info(NOT_LOGGED_IN);
    return EXIT.ok;
  }
  let revoked = true;
  try {
    await client.request('logout', { headers: familyHeaders(login) });
  } catch (err) {
    if (isHttpError(err) && err.code === 'FAMILY_AUTH_REQUIRED') revoked = false;
    else {
      await forgetFamilyLogins(home, baseUrl);
      if (describeError(err).exitCode === EXIT.unreachable) throw unrevoked(err);
      throw err;
    }
  }
  await forgetFamilyLogins(home, baseUrl);
  if (opts.json) deps.out.json({ ok: true, loggedOut: login.name });
  else if (revoked) deps.out.info(`Logged out of the university (${sanitize(login.name)}).`);
  else deps.out.info(`The login of ${sanitize(login.name)} had already ended; forgot it here.`);
  return EXIT.ok;
}

function unrevoked(err: unknown): CliError {
  const described = describeError(err);
  return new CliError(`Forgot the family login here, but could not tell the daemon: ${described.message}`, {
    exitCode: EXIT.unreachable,
    code: described.code,
    hint: 'The token stays valid at the daemon until it expires (30 minutes unused, 12 hours at most).',
  });
}

export function registerLogin(program: Command, invoke: Invoke): void {
  program
    .command('login')
    .description('log in to the university as a family account (for forge memory); the token is kept')
    .argument('<name>', 'the family account name')
    .option('--password-stdin', 'read the password from stdin')
    .option('--json', 'print the session (who, when it ends) as JSON')
    .addHelpText(
      'after',
      `
The password is typed at a hidden prompt or piped in with --password-stdin; never an argument.
The token is kept in FORGE_HOME/cli/family-session.json (mode 0600), one per daemon address, and
sent by forge memory. Accounts: forge family add <name>. End the login with forge logout.`,
    )
    .action((name: string, opts: { passwordStdin?: boolean; json?: boolean }, command: Command) =>
      invoke(command, runLogin, { name, ...opts }),
    );
}

export function registerLogout(program: Command, invoke: Invoke): void {
  program
    .command('logout')
    .description("end the university's family login: the daemon revokes the token, forge forgets it")
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }, command: Command) => invoke(command, runLogout, opts));
}
