import os from 'node:os';
import { formatConfigView, FORGE_VERSION, SHUTDOWN_GRACE_MS, WORKER_STOP_GRACE_MS } from '@forge/shared';
import { ConfigError, loadConfig, redactQueueUrl, toConfigView } from './config/load-config.ts';
import type { DaemonConfig } from './config/schema.ts';
import path from 'node:path';
import { parseCommand, UsageError, USAGE, workerNameFromHost, type Command } from './lifecycle/args.ts';
import { QueueUrlSchema } from './config/schema.ts';
import { createLogger } from './logging/logger.ts';
import { startWorker, WorkerStartError } from './features/scale-out/worker/worker.ts';
import { startDaemon, StartError, type RunningDaemon } from './start-daemon.ts';

/**
 * The daemon process. Exit codes: 0 ok, 1 failure (bad config, refused start), 2 usage.
 * `run` prints exactly one stdout line once it listens: "Forge is running at <url>".
 */

const fail = (message: string, code = 1): number => {
  process.stderr.write(`${message}\n`);
  return code;
};

const configFor = (
  command: Extract<Command, { name: 'run' | 'print-config' | 'worker' }>,
): Promise<DaemonConfig> =>
  loadConfig({
    cwd: process.cwd(),
    env: process.env,
    homedir: os.homedir(),
    platform: process.platform,
    overrides: command.name === 'worker' ? {} : { port: command.port, host: command.host },
  });

/**
 * `worker`: take build jobs from the coordinator's queue until SIGINT/SIGTERM. The first signal
 * lets running builds finish (no new job is taken); a second one cancels them. Closing the queue
 * waits for Redis, which may never come back: once no build runs (or on the second signal) the
 * worker has WORKER_STOP_GRACE_MS to stop, then exits 1 saying what did not answer, as a service
 * manager expects of a stop.
 */
async function runWorker(
  command: Extract<Command, { name: 'worker' }>,
  config: DaemonConfig,
): Promise<number | 'running'> {
  const queueUrl = command.queue ?? config.queue.url;
  if (!queueUrl)
    return fail('forge worker needs the build queue: --queue redis://host:6379 (or FORGE_QUEUE_URL).', 2);
  if (!QueueUrlSchema.safeParse(queueUrl).success) {
    return fail(
      `Invalid --queue "${redactQueueUrl(queueUrl)}": expected a Redis URL, e.g. redis://127.0.0.1:6379.`,
      2,
    );
  }
  if (!command.url) return fail("forge worker needs the coordinator's URL: --url http://host:4317.", 2);
  try {
    const url = new URL(command.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    return fail(
      `Invalid --url "${command.url}": expected the daemon's http URL, e.g. http://10.0.0.5:4317.`,
      2,
    );
  }
  const name = command.workerName ?? workerNameFromHost(os.hostname());
  const home = path.join(config.home, 'workers', name);
  const log = createLogger({ home, level: config.logLevel, pretty: process.stdout.isTTY === true });
  let worker: Awaited<ReturnType<typeof startWorker>>;
  try {
    worker = await startWorker({
      queueUrl,
      daemonUrl: command.url,
      token: config.accessToken,
      name,
      concurrency: command.concurrency,
      home,
      logger: log.logger,
    });
  } catch (err) {
    log.close();
    if (err instanceof WorkerStartError) return fail(err.message);
    throw err;
  }
  let signals = 0;
  let grace: NodeJS.Timeout | undefined;
  const startGrace = () => {
    grace ??= setTimeout(() => {
      const silent = worker.queueConnected
        ? `its coordinator ${command.url}`
        : `its queue ${redactQueueUrl(queueUrl)}`;
      process.stderr.write(
        `Forge worker ${name} did not stop within ${WORKER_STOP_GRACE_MS / 1000} s: ${silent} does not answer. Exiting.\n`,
      );
      log.close();
      process.exit(1);
    }, WORKER_STOP_GRACE_MS);
  };
  const onSignal = () => {
    signals++;
    if (signals > 1) startGrace();
    else void worker.buildsEnded().then(startGrace);
    if (signals === 1) {
      process.stderr.write(
        worker.running > 0
          ? `Finishing ${worker.running} running build(s); press Ctrl-C again to cancel them.\n`
          : 'Stopping.\n',
      );
    }
    worker.stop({ cancel: signals > 1 }).then(
      () => {
        log.close();
        process.exit(0);
      },
      (err: unknown) => {
        process.stderr.write(`Error while stopping the worker: ${(err as Error).stack ?? String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  process.stdout.write(
    `Forge worker ${name} is taking build jobs from ${redactQueueUrl(queueUrl)} for ${command.url}\n`,
  );
  return 'running';
}

function handleSignals(daemon: RunningDaemon): void {
  let exiting = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (exiting) return;
    exiting = true;
    // Whatever hangs, the process is gone within the grace period.
    setTimeout(() => {
      process.stderr.write(`Forge did not stop within ${SHUTDOWN_GRACE_MS} ms; exiting anyway.\n`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    daemon.stop(signal).then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`Error while stopping Forge: ${(err as Error).stack ?? String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function main(argv: readonly string[]): Promise<number | 'running'> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (err) {
    if (err instanceof UsageError) return fail(`${err.message}\n\n${USAGE}`, 2);
    throw err;
  }
  if (command.name === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command.name === 'version') {
    process.stdout.write(`${FORGE_VERSION}\n`);
    return 0;
  }
  let config: DaemonConfig;
  try {
    config = await configFor(command);
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }
  if (command.name === 'worker') return runWorker(command, config);
  if (command.name === 'print-config') {
    const view = toConfigView(config);
    process.stdout.write(command.json ? `${JSON.stringify(view, null, 2)}\n` : `${formatConfigView(view)}\n`);
    return 0;
  }
  let daemon: RunningDaemon;
  try {
    daemon = await startDaemon({ config, dev: command.dev, pretty: process.stdout.isTTY === true });
  } catch (err) {
    if (err instanceof StartError) return fail(err.message);
    throw err;
  }
  handleSignals(daemon);
  process.stdout.write(`Forge is running at ${daemon.url}\n`);
  return 'running';
}

main(process.argv.slice(2)).then(
  (result) => {
    if (result !== 'running') process.exitCode = result;
  },
  (err: unknown) => {
    process.stderr.write(`Forge failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
