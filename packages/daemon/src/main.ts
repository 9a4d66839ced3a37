import os from 'node:os';
import { FORGE_VERSION, SHUTDOWN_GRACE_MS } from '@forge/shared';
import { ConfigError, loadConfig, toConfigView } from './config/load-config.ts';
import type { DaemonConfig } from './config/schema.ts';
import { parseCommand, UsageError, USAGE, type Command } from './process/args.ts';
import { formatConfigView } from './process/print-config.ts';
import { startDaemon, StartError, type RunningDaemon } from './process/run.ts';

/**
 * The daemon process. Exit codes: 0 ok, 1 failure (bad config, refused start), 2 usage.
 * `run` prints exactly one stdout line once it listens: "Forge is running at <url>".
 */

const fail = (message: string, code = 1): number => {
  process.stderr.write(`${message}\n`);
  return code;
};

const configFor = (command: Extract<Command, { name: 'run' | 'print-config' }>): Promise<DaemonConfig> =>
  loadConfig({
    cwd: process.cwd(),
    env: process.env,
    homedir: os.homedir(),
    platform: process.platform,
    overrides: { port: command.port, host: command.host },
  });

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
