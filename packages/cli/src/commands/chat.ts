import { Option, type Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { formatTimeout, parseDuration } from '../options.ts';
import { CliError, EXIT } from '../output.ts';
import { openBrainSession } from '../brain/session.ts';
import { openLiveFeed } from '../builds/live-feed.ts';
import { buildSource } from '../builds/source.ts';
import { createReplyPrinter } from '../chat/replies.ts';
import { isInterrupted, withInterrupt } from '../interrupt.ts';
import { paint } from '../terminal.ts';

export interface ChatOptions {
  question: string[];
  /** --timeout: how long to wait for the final reply. */
  timeout?: number;
  /** --project: the project build, fix, status and brain questions are about (default: the current one). */
  project?: string;
}

/** How long `forge chat` waits for a final reply by default. */
export const CHAT_TIMEOUT_MS = 30_000;

/**
 * `forge chat "<q>"`: the Forge chat from a terminal — build, fix, status, "brain: <question>".
 * Replies come over /ws (as in the web UI), so /ws is opened and greeted before the question is
 * sent; they are printed until one is final, or until the timeout (exit 4).
 */
export async function run(deps: Deps, opts: ChatOptions): Promise<number> {
  const q = opts.question.join(' ').trim();
  if (!q) {
    throw new CliError('Ask something: forge chat "status" (or build, fix, "brain: <question>").', {
      exitCode: EXIT.usage,
    });
  }
  const timeoutMs = opts.timeout ?? CHAT_TIMEOUT_MS;
  const connection = await deps.connect({ live: true });
  const feed = openLiveFeed(buildSource(connection.client));
  try {
    if (!(await feed.ready())) {
      throw new CliError('The chat answers over /ws, and the daemon did not open it.', {
        hint: 'Check the daemon with forge status; the web UI has the same chat.',
      });
    }
    const printer = createReplyPrinter(
      (text) => deps.out.text(text),
      deps.term.stdoutColor,
      paint(deps.term.stdoutColor),
    );
    let answered!: () => void;
    const done = new Promise<void>((resolve) => (answered = resolve));
    let finished = false;
    feed.onMessage((message) => {
      // Nothing after the final reply: another client's chat may follow on the same socket.
      if (finished || message.type !== 'chat') return;
      if (printer.accept(message)) {
        finished = true;
        answered();
      }
    });
    feed.onStatus((status) => {
      if (status === 'down') deps.out.info('Lost the connection to the daemon; reconnecting…');
    });

    // The brain's session (forge brain) goes along: "brain: …" questions answer as to the user.
    const brain = await openBrainSession(deps.paths.home, connection.baseUrl);
    // This connection's id: a signed-in brain answer then comes to this terminal alone.
    const clientId = feed.clientId;
    const answer = await connection.client.request('chat', {
      body: { q, ...(clientId ? { clientId } : {}), ...(opts.project ? { project: opts.project } : {}) },
      headers: brain.headers(),
      onHeaders: (headers) => brain.take(headers),
    });
    await brain.save();
    // Not delivered over /ws (this connection was gone when the answer came): it is in the answer.
    if (answer.replies) {
      for (const reply of answer.replies) printer.accept({ chat: reply.message, role: reply.role });
      return EXIT.ok;
    }

    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)),
    );
    try {
      const outcome = await withInterrupt((signal) =>
        Promise.race([
          done.then(() => 'answered' as const),
          timedOut,
          new Promise<'interrupted'>((resolve) =>
            signal.addEventListener('abort', () => resolve('interrupted')),
          ),
        ]),
      );
      if (outcome === 'answered') return EXIT.ok;
      printer.abandon();
      if (outcome === 'interrupted') return EXIT.interrupted;
      throw new CliError(`No final reply within ${formatTimeout(timeoutMs)}.`, {
        exitCode: EXIT.timedOut,
        code: 'WAIT_TIMEOUT',
        hint: 'The daemon may still be working on it: see forge status, or the chat in the web UI.',
      });
    } catch (err) {
      if (isInterrupted(err)) return EXIT.interrupted;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  } finally {
    feed.close();
  }
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('chat')
    .description('ask the Forge chat: build, fix, status, "brain: <question>"; prints the replies')
    .argument('<question...>', 'what to ask (quote it when it has spaces)')
    .option('-p, --project <name>', 'the project it is about (default: the current one, see forge use)')
    .addOption(
      new Option(
        '--timeout <duration>',
        `how long to wait for the final reply (default ${formatTimeout(CHAT_TIMEOUT_MS)})`,
      ).argParser(parseDuration),
    )
    .addHelpText(
      'after',
      `
Replies are printed as they arrive, each after who speaks (forge:, brain:); a streamed reply grows
on its line in a terminal and is printed once, whole, in a pipe. forge chat exits 0 after the final
reply, 4 when none came within the timeout, 130 on Ctrl+C. Brain questions use the session of
forge brain (see forge brain --help).`,
    )
    .action((question: string[], opts: Omit<ChatOptions, 'question'>, command: Command) =>
      invoke(command, run, { ...opts, question }),
    );
}
