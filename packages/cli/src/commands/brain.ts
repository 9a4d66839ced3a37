import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { formatSessionTime, plural } from '@forge/shared/schema-free';
import { openBrainSession } from '../brain/session.ts';
import { isInterrupted } from '../interrupt.ts';
import { CliError, EXIT } from '../output.ts';
import { PromptCancelled, readAllStdin, readHidden } from '../prompt.ts';
import { sanitize } from '../terminal.ts';

/**
 * `forge brain`: talk to the brain (the handshake: a greeting phrase, then the code phrase, then
 * questions and "remember X is Y"), see its session, set the phrases. The session is the daemon's
 * `forge_brain` cookie, kept between runs in FORGE_HOME (brain/session.ts).
 */

export interface BrainOptions {
  message: string[];
  json?: boolean;
  /** --project: the project a question is about (default: the current one). */
  project?: string;
}

/** The brain's words for the session changes (spec: brain chat). */
export const AUTHENTICATED_NOTE = 'Authentication successful. Session established.';
export const EXPIRED_NOTE = 'Session expired. Please re-authenticate.';

/** Code phrases: as long as the daemon accepts (BrainCodeBody). */
export const CODE_MIN = 8;
export const CODE_MAX = 200;

const session = (deps: Deps, baseUrl: string) => openBrainSession(deps.paths.home, baseUrl);

/** One message to the brain; its reply on stdout, the session's changes on stderr. */
export async function runMessage(deps: Deps, opts: BrainOptions): Promise<number> {
  const message = opts.message.join(' ').trim();
  if (!message) {
    throw new CliError('Say something to the brain: forge brain "<message>".', {
      exitCode: EXIT.usage,
      hint: 'Start a session with your greeting phrase, then your code phrase. forge brain status shows it.',
    });
  }
  const { client, baseUrl } = await deps.connect();
  const brain = await session(deps, baseUrl);
  const wasAuthenticated = brain.authenticated;
  const reply = await client.request('brainHandshake', {
    body: opts.project ? { message, project: opts.project } : { message },
    headers: brain.headers(),
    onHeaders: (headers) => brain.take(headers),
  });
  brain.note(reply);
  await brain.save();
  if (opts.json) {
    deps.out.json(reply);
    return EXIT.ok;
  }
  for (const line of reply.reply.split('\n')) deps.out.data(sanitize(line));
  // The session's change, unless the reply itself says it (the daemon's brain does).
  const note = reply.sessionExpired
    ? EXPIRED_NOTE
    : reply.authenticated && !wasAuthenticated
      ? AUTHENTICATED_NOTE
      : null;
  if (note && !reply.reply.includes(note)) deps.out.info(note);
  // An "I don't know" says on stderr what would let the brain answer (the JSON has it as `needs`).
  if (reply.certainty === 'unknown' && reply.needs)
    deps.out.info(sanitize(`To answer, it needs ${reply.needs}.`));
  return EXIT.ok;
}

/** The session (authenticated or guest, time left) and how many memory cells the brain holds. */
export async function runStatus(deps: Deps, opts: { json?: boolean }): Promise<number> {
  const { client, baseUrl } = await deps.connect();
  const brain = await session(deps, baseUrl);
  const status = await client.request('brainStatus', {
    headers: brain.headers(),
    onHeaders: (headers) => brain.take(headers),
  });
  // A session the daemon no longer knows is dropped here too.
  if (!status.authenticated && brain.authenticated)
    brain.note({ authenticated: false, sessionExpired: true });
  await brain.save();
  if (opts.json) {
    deps.out.json(status);
    return EXIT.ok;
  }
  const cells = plural(status.memoryCellCount, 'memory cell');
  deps.out.data(
    status.authenticated
      ? `Authenticated: ${formatSessionTime(status.sessionTimeRemaining)} left in the session, ${cells}.`
      : `Guest (no session): ${cells}. Start one with your greeting phrase: forge brain "<greeting>"`,
  );
  return EXIT.ok;
}

export async function runSetGreeting(
  deps: Deps,
  opts: { greeting: string[]; json?: boolean },
): Promise<number> {
  const greeting = opts.greeting.join(' ').trim();
  if (!greeting || greeting.length > 200) {
    throw new CliError('The greeting phrase must be 1 to 200 characters.', { exitCode: EXIT.usage });
  }
  const { client } = await deps.connect();
  const result = await client.request('brainGreeting', { body: { greeting } });
  if (opts.json) deps.out.json(result);
  else {
    deps.out.info('Greeting phrase set.');
    if (!result.codeSet) deps.out.info('Set the code phrase too: forge brain set-code');
  }
  return EXIT.ok;
}

/**
 * The code phrase: typed at a prompt that does not echo (twice, to catch a typo), or read from
 * stdin when it is not a terminal. Never an argument: it would stay in the shell's history.
 */
export async function runSetCode(deps: Deps, opts: { args: string[]; json?: boolean }): Promise<number> {
  if (opts.args.length > 0) {
    throw new CliError(
      'The code phrase is never given as an argument (it would stay in the shell history).',
      {
        exitCode: EXIT.usage,
        hint: 'Run forge brain set-code and type it at the prompt, or pipe it in: forge brain set-code < file',
      },
    );
  }
  const code = await readCode();
  if (code.length < CODE_MIN || code.length > CODE_MAX) {
    throw new CliError(
      `The code phrase must be ${CODE_MIN} to ${CODE_MAX} characters; nothing was changed.`,
      {
        exitCode: EXIT.usage,
      },
    );
  }
  const { client } = await deps.connect();
  const result = await client.request('brainCode', { body: { code } });
  if (opts.json) deps.out.json(result);
  else {
    deps.out.info('Code phrase set (the daemon keeps only its hash).');
    if (!result.greetingSet) deps.out.info('Set the greeting phrase too: forge brain set-greeting "<text>"');
  }
  return EXIT.ok;
}

async function readCode(): Promise<string> {
  if (!process.stdin.isTTY) return readAllStdin(process.stdin);
  try {
    const first = await readHidden(process.stdin, process.stderr, 'Code phrase (not shown): ');
    if (first.length < CODE_MIN) return first;
    const again = await readHidden(process.stdin, process.stderr, 'Type it again: ');
    if (again !== first) {
      throw new CliError('The two code phrases differ; nothing was changed.', { exitCode: EXIT.usage });
    }
    return first;
  } catch (err) {
    if (isInterrupted(err))
      throw new CliError('Stopped; nothing was changed.', { exitCode: EXIT.interrupted });
    if (err instanceof PromptCancelled) throw new CliError(err.message, { exitCode: EXIT.usage });
    throw err;
  }
}

/** --json after a subcommand is taken by `forge brain` itself (it has the option too): either counts. */
const jsonOf = (opts: { json?: boolean }, command: Command): boolean | undefined =>
  opts.json ?? command.parent?.opts<{ json?: boolean }>().json;

export function register(program: Command, invoke: Invoke): void {
  const brain = program
    .command('brain')
    .description('talk to the brain: forge brain "<message>"; its session, greeting and code phrase')
    .argument(
      '[message...]',
      'what to say (a greeting phrase, the code phrase, a question, "remember X is Y")',
    )
    .option('--json', 'print the reply as JSON')
    .option('-p, --project <name>', 'the project a question is about (default: the current one)')
    .addHelpText(
      'after',
      `
A session starts with your greeting phrase, then your code phrase (set them with set-greeting and
set-code); it expires after a while without use (forge brain status shows the time left). forge
keeps the session between runs in FORGE_HOME/cli/brain-session.json (readable by you only).
A message that is exactly the name of a subcommand (status) runs that subcommand.`,
    )
    .action((message: string[], opts: { json?: boolean; project?: string }, command: Command) =>
      invoke(command, runMessage, {
        message,
        json: opts.json,
        ...(opts.project ? { project: opts.project } : {}),
      }),
    );
  brain
    .command('status')
    .description('the session (authenticated or guest, time left) and the number of memory cells')
    .option('--json', 'print JSON')
    .action((opts: { json?: boolean }, command: Command) =>
      invoke(command, runStatus, { json: jsonOf(opts, command) }),
    );
  brain
    .command('set-greeting')
    .description('set the greeting phrase that starts a session')
    .argument('<text...>', 'the greeting phrase')
    .option('--json', 'print JSON')
    .action((greeting: string[], opts: { json?: boolean }, command: Command) =>
      invoke(command, runSetGreeting, { greeting, json: jsonOf(opts, command) }),
    );
  brain
    .command('set-code')
    .description('set the code phrase (typed at a hidden prompt, or read from stdin; at least 8 characters)')
    .option('--json', 'print JSON')
    .allowExcessArguments()
    .action((opts: { json?: boolean }, command: Command) =>
      invoke(command, runSetCode, { args: command.args, json: jsonOf(opts, command) }),
    );
}
