/**
 * Where the CLI's words go, and with which exit code. stdout carries data (URLs, values, JSON);
 * stderr carries progress and errors, so `forge … --json | jq` always sees clean JSON.
 *
 * This module is on the `--version` / `--help` path: it must stay free of heavy imports.
 */

/** Exit codes; printed in `forge --help`. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  unreachable: 3,
  /** Ctrl+C while following a build (128 + SIGINT, as shells report it). */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `
Exit codes:
  0    success (with --wait: the build succeeded)
  1    failure (the build failed, timed out, was cancelled or interrupted; or an error)
  2    usage error (unknown command or option, invalid value, not a ZIP, file over 50MB)
  3    daemon unreachable (not running, not started under CI, or --url does not answer)
  130  stopped with Ctrl+C while waiting (the build goes on in the daemon)`;

export const ENVIRONMENT_HELP = `
Environment:
  FORGE_HOME       data directory (state file, logs, store)
  FORGE_PORT       port for a daemon started by forge (0 = any free port)
  FORGE_HOST       host for a daemon started by forge
  FORGE_URL        use the daemon at this URL (also BOT_SERVICE_URL); never starts one
  FORGE_TOKEN      access token sent to the daemon
  FORGE_AUTOSTART  1 = start the daemon when needed even under CI, 0 = never
  CI               when true, commands do not start the daemon on their own`;

/** An error the CLI explains itself: message, optional hint, exit code. Never printed with a stack. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  /** Extra lines printed after the message (e.g. the tail of the daemon log). */
  readonly details: string[];

  constructor(message: string, options: { exitCode?: ExitCode; hint?: string; details?: string[] } = {}) {
    super(message);
    this.exitCode = options.exitCode ?? EXIT.failure;
    this.hint = options.hint;
    this.details = options.details ?? [];
  }
}

export interface Output {
  /** One line of data on stdout. */
  data(line: string): void;
  /** A value as pretty JSON on stdout. */
  json(value: unknown): void;
  /** One line of progress or information on stderr. */
  info(line: string): void;
  /** Progress text on stderr without a newline (finished later by `info`). */
  progress(text: string): void;
  /** An error and its hint on stderr. */
  error(message: string, hint?: string, details?: string[]): void;
}

export interface Streams {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
}

export function createOutput(streams: Streams = process): Output {
  return {
    data: (line) => void streams.stdout.write(`${line}\n`),
    json: (value) => void streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    info: (line) => void streams.stderr.write(`${line}\n`),
    progress: (text) => void streams.stderr.write(text),
    error: (message, hint, details = []) => {
      streams.stderr.write(`error: ${message}\n`);
      for (const line of details) streams.stderr.write(`${line}\n`);
      if (hint) streams.stderr.write(`hint: ${hint}\n`);
    },
  };
}

/** How the failing command reached the daemon; picks the hint for "unreachable". */
export interface ErrorContext {
  /** The daemon URL came from --url / FORGE_URL / BOT_SERVICE_URL. */
  remote: boolean;
}

/**
 * Print an error the way a user can act on it and return the exit code. The shared client's
 * errors are recognised by name so this module does not load @forge/shared (and zod) up front.
 */
export function reportError(err: unknown, out: Output, context: ErrorContext = { remote: false }): ExitCode {
  if (err instanceof CliError) {
    out.error(err.message, err.hint, err.details);
    return err.exitCode;
  }
  const e = err as Partial<{
    name: string;
    message: string;
    status: number;
    code: string;
    serverMessage: string;
    hint: string;
    baseUrl: string;
    stack: string;
  }>;
  if (e?.name === 'ForgeHttpError') {
    const tag = [e.code, e.status === undefined ? undefined : `HTTP ${e.status}`].filter(Boolean).join(', ');
    const hints = [e.hint];
    if (e.status === 401) hints.push('Pass the daemon access token with --token or FORGE_TOKEN.');
    out.error(`${e.serverMessage ?? e.message}${tag ? ` [${tag}]` : ''}`, hints.filter(Boolean).join(' '));
    return EXIT.failure;
  }
  if (e?.name === 'ForgeUnreachableError') {
    out.error(
      `${e.message}.`,
      context.remote
        ? 'Check the address given with --url / FORGE_URL, or start Forge there with `forge daemon start`.'
        : 'Start it with `forge daemon start` (`forge daemon logs` shows why it stopped).',
    );
    return EXIT.unreachable;
  }
  if (e?.name === 'ForgeProtocolError') {
    out.error(
      e.message ?? 'The daemon answered something this forge does not understand.',
      'Are the CLI and the daemon the same version? Check with `forge --version` and `forge daemon status`.',
    );
    return EXIT.failure;
  }
  const message = e?.message ?? String(err);
  out.error(message, undefined, process.env.FORGE_DEBUG && e?.stack ? [e.stack] : []);
  return EXIT.failure;
}
