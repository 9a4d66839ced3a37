import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { parsePositive, parseWorkerName } from '../options.ts';
import { redactUrlPassword } from '@forge/shared/schema-free';
import { CliError, EXIT } from '../output.ts';
import { WORKER_CONCURRENCY_MAX } from '../protocol/facts.ts';

export interface WorkerOptions {
  queue?: string;
  name?: string;
  concurrency?: number;
}

const nonBlank = (value: string | undefined): string | undefined => value?.trim() || undefined;

/** Parses as a URL with one of `protocols` and a host; anything else is refused. */
function hasProtocol(raw: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(raw);
    return protocols.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The Redis the builds are queued on, checked here when given (--queue, else FORGE_QUEUE_URL) so a
 * typo is a usage error of ours. Undefined: the entry takes the config file's `queue`, or says that
 * none is set (exit 2).
 */
function queueUrl(deps: Deps, opts: WorkerOptions): string | undefined {
  const fromOption = nonBlank(opts.queue);
  const queue = fromOption ?? nonBlank(deps.env.FORGE_QUEUE_URL);
  if (queue !== undefined && !hasProtocol(queue, ['redis:', 'rediss:'])) {
    const source = fromOption === undefined ? 'FORGE_QUEUE_URL' : '--queue';
    throw new CliError(
      `Invalid ${source} "${redactUrlPassword(queue)}": expected a Redis URL, e.g. redis://127.0.0.1:6379.`,
      { exitCode: EXIT.usage },
    );
  }
  return queue;
}

/**
 * The daemon whose builds the worker runs: --url (FORGE_URL, BOT_SERVICE_URL) as for every command,
 * else this machine's daemon if it is running. A worker never starts a daemon: its coordinator must
 * have been started with the same queue.
 */
async function daemonUrl(deps: Deps): Promise<string> {
  const url = deps.globals.url;
  if (url !== undefined) {
    if (!hasProtocol(url, ['http:', 'https:'])) {
      throw new CliError(
        `Invalid daemon URL "${url}" (--url / FORGE_URL): expected http(s)://host:port, e.g. http://10.0.0.5:4317.`,
        { exitCode: EXIT.usage },
      );
    }
    return url;
  }
  const probe = await deps.daemon.probe();
  if (probe.status === 'running') return probe.state.url;
  throw new CliError('forge worker needs the URL of the Forge daemon it takes builds for.', {
    exitCode: EXIT.usage,
    hint: 'Pass --url http://host:4317 (or set FORGE_URL); on the daemon’s own machine, start it first.',
  });
}

/**
 * `forge worker`: the daemon's `worker` entry in the foreground (our stdio). It takes build jobs from
 * the Redis queue, runs them here and reports to the daemon, until Ctrl+C or SIGTERM, which are
 * forwarded so it stops gracefully; its exit code is ours (0, 1 unreachable, 2 usage).
 */
export async function run(deps: Deps, opts: WorkerOptions): Promise<number> {
  const queue = queueUrl(deps, opts);
  const url = await daemonUrl(deps);
  const args = ['worker', '--url', url, ...(queue === undefined ? [] : ['--queue', queue])];
  if (opts.name !== undefined) args.push('--name', opts.name);
  if (opts.concurrency !== undefined) args.push('--concurrency', String(opts.concurrency));
  // The entry reads the access token from FORGE_TOKEN (or the config): --token must reach it there.
  const { token } = deps.globals;
  return deps.daemon.runEntryForeground(
    args,
    token === undefined ? deps.env : { ...deps.env, FORGE_TOKEN: token },
  );
}

export function register(program: Command, invoke: Invoke): void {
  program
    .command('worker')
    .description('run builds for a daemon that queues them on Redis (scale-out), until Ctrl+C')
    .usage('--queue <redis-url> --url <daemon-url> [--name <name>] [--concurrency <k>]')
    .option(
      '--queue <redis-url>',
      'the Redis the daemon queues builds on (env FORGE_QUEUE_URL, else the config file\'s "queue")',
    )
    .option(
      '--name <name>',
      'what it is called in `forge workers` and build records (letters, digits, . _ -; at most 64; default: the host name)',
      parseWorkerName,
    )
    .option(
      '--concurrency <k>',
      `builds it runs at once (1-${WORKER_CONCURRENCY_MAX}; default 1)`,
      parsePositive(WORKER_CONCURRENCY_MAX),
    )
    .addHelpText(
      'after',
      `
--url <daemon-url> (a global option; env FORGE_URL) names the daemon the worker runs builds for;
without it, the daemon running on this machine. That daemon must queue builds on the same Redis
(FORGE_QUEUE_URL or "queue" in its config). The access token is --token or FORGE_TOKEN (or the
config's accessToken). Ctrl+C or SIGTERM stops it: it takes no new build and lets the running
ones finish; a second Ctrl+C cancels them.

Exit codes:
  0    stopped (Ctrl+C, SIGTERM)
  1    failure (Redis or the daemon unreachable)
  2    usage error (invalid --queue, --url, --name or --concurrency)`,
    )
    .action((opts: WorkerOptions, command: Command) => invoke(command, run, opts));
}
