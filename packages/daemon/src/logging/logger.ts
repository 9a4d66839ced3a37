import fs from 'node:fs';
import path from 'node:path';
import { pino, type Logger, type StreamEntry } from 'pino';
import pinoPretty from 'pino-pretty';
import { DAEMON_LOG_FILE, LOG_DIR } from '@forge/shared';
import type { LogLevelName } from '../config/schema.ts';

export type { Logger } from 'pino';

/** Secrets never reach the log file or the terminal. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'token',
  '*.token',
  'password',
  '*.password',
  'accessToken',
  '*.accessToken',
];

export interface DaemonLogger {
  logger: Logger;
  file: string;
  /** Flush and close the file; call before exiting. */
  close(): void;
}

export interface CreateLoggerOptions {
  home: string;
  level: LogLevelName;
  /** Also write human-readable lines to stdout (the daemon passes stdout.isTTY). */
  pretty: boolean;
}

/** JSON lines to <home>/logs/daemon.log; pretty to stdout on a TTY. */
export function createLogger({ home, level, pretty }: CreateLoggerOptions): DaemonLogger {
  const file = path.join(home, LOG_DIR, DAEMON_LOG_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Synchronous writes: the daemon logs little, and a kill -9 must not eat the last lines.
  const destination = pino.destination({ dest: file, sync: true, mkdir: true });
  // A full disk (ENOSPC) fails the write: lines are lost until space is freed, the daemon goes on.
  // Unlistened, this 'error' would end the process.
  destination.on('error', () => {});
  // The logger's own level decides what is written (it changes at run time with debugMode), so
  // the streams take everything it lets through.
  const streamLevel = 'trace';
  const streams: StreamEntry[] = [{ level: streamLevel, stream: destination }];
  if (pretty)
    streams.push({ level: streamLevel, stream: pinoPretty({ colorize: true, sync: true, destination: 1 }) });
  const logger = pino(
    { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    pino.multistream(streams),
  );
  return {
    logger,
    file,
    close: () => {
      destination.flushSync();
      destination.end();
    },
  };
}

/** Strip `token` from a URL before it is logged. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}

/**
 * The debugMode setting: on, the daemon logs at debug level (at least); off, at the level it was
 * configured with. Returns the function that applies a setting's value.
 */
export function debugModeSwitch(logger: Logger): (on: boolean) => void {
  const configured = logger.level;
  const configuredValue = logger.levelVal;
  return (on) => {
    const debugValue = logger.levels.values.debug!;
    logger.level = on && configuredValue > debugValue ? 'debug' : configured;
  };
}
