import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { Invoke } from '../command.ts';
import type { Deps } from '../deps.ts';
import { followFile, formatLogLine, readLastLines } from '../daemon/logs.ts';
import { parseCount } from '../options.ts';

export interface DaemonLogsOptions {
  follow?: boolean;
  lines: number;
  json?: boolean;
}

export const DEFAULT_LOG_LINES = 50;

/** Print the end of the daemon's pino log as `HH:MM:SS LEVEL msg` (raw JSON with --json); -f follows. */
export async function run(deps: Deps, opts: DaemonLogsOptions): Promise<number> {
  const file = deps.paths.logFile;
  const print = (line: string) => deps.out.data(opts.json ? line : formatLogLine(line));
  const { lines, end } = readLastLines(file, opts.lines);
  if (!existsSync(file)) deps.out.info(`No daemon log yet (${file}).`);
  for (const line of lines) print(line);
  if (!opts.follow) return 0;

  deps.out.info('Following the daemon log; Ctrl+C to stop.');
  const stop = new AbortController();
  const abort = () => stop.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  try {
    await followFile(file, end, print, stop.signal);
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  }
  return 0;
}

export function register(daemon: Command, invoke: Invoke): void {
  daemon
    .command('logs')
    .description("print the daemon's log")
    .option('-f, --follow', 'keep printing new lines until Ctrl+C')
    .option('-n, --lines <count>', 'how many lines from the end', parseCount, DEFAULT_LOG_LINES)
    .option('--json', 'print the raw JSON lines')
    .action((opts: DaemonLogsOptions, command: Command) => invoke(command, run, opts));
}
