/**
 * Where the CLI's words go, and with which exit code. stdout carries data (URLs, values, JSON);
 * stderr carries progress and errors, so `forge … --json | jq` always sees clean JSON.
 *
 * This module is on the `--version` / `--help` path: it must stay free of heavy imports.
 */
import type { CLI_ERROR_CODES } from '@forge/shared';

/** Exit codes; printed in `forge --help` and in the help of every command that follows builds. */
export const EXIT = {
  ok: 0,
  /** The build failed (or was interrupted by a daemon restart); or another error. */
  failure: 1,
  usage: 2,
  unreachable: 3,
  /** The build hit its stage timeout, or `--timeout` expired before it finished. */
  timedOut: 4,
  /** The build was cancelled (forge cancel, the web UI, a newer upload of the project, daemon shutdown). */
  cancelled: 5,
  /** The archive was refused: by forge's checks, or by the daemon (any 4xx answer to the upload). */
  refused: 6,
  /** The build succeeded and the project's tests failed, with tests required (--tests, the forge config). */
  testsFailed: 7,
  /** forge verify --rebuild: the rebuilt artifact is not the statement's subject (the files that differ are listed). */
  rebuildDiffers: 8,
  /** forge verify --rebuild: the daemon cannot rebuild (source not kept, toolchain unavailable, the build failed). */
  cannotRebuild: 9,
  /** Ctrl+C while following a build (128 + SIGINT, as shells report it). */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `
Exit codes:
  0    success (with --wait: the build succeeded)
  1    failure (the build failed, or was interrupted by a daemon restart; or another error)
  2    usage error (unknown command or option, invalid value, no such file)
  3    daemon unreachable (not running, not started under CI, --url does not answer)
  4    timed out (the build hit its stage timeout, or --timeout expired before it ended)
  5    cancelled (forge cancel, the web UI, a newer upload of the same project, daemon stop)
  6    upload refused (not a ZIP, over 50MB, or the daemon refused the archive or its config)
  7    tests failed (the build succeeded, its tests failed, and tests are required: --tests; optional reports them and exits 0)
  130  stopped with Ctrl+C while waiting (the build goes on, unless in forge ci's private daemon)`;

export const ENVIRONMENT_HELP = `
Environment:
  FORGE_HOME       data directory (state file, logs, store)
  FORGE_PORT       port for a daemon started by forge (0 = any free port)
  FORGE_HOST       host for a daemon started by forge
  FORGE_URL        use the daemon at this URL (also BOT_SERVICE_URL); never starts one
  FORGE_TOKEN      access token sent to the daemon
  FORGE_AUTOSTART  1 = start the daemon when needed even under CI, 0 = never
  FORGE_QUEUE_URL  Redis build queue (scale-out): for forge worker, and a daemon started by forge
  CI               when true, commands do not start the daemon on their own
  NO_COLOR         no colours or redrawn progress lines (like --no-color; also TERM=dumb)`;

/** A code the CLI itself puts in a --json result (defined with the result schema in @forge/shared). */
export type CliErrorCode = keyof typeof CLI_ERROR_CODES;

/** An error the CLI explains itself: message, optional hint, exit code. Never printed with a stack. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;
  /** Extra lines printed after the message (e.g. the tail of the daemon log). */
  readonly details: string[];
  /** For --json results: a daemon error code (INVALID_FILE_TYPE, …) or a CLI one; else derived from the exit code. */
  readonly code: string | undefined;

  constructor(
    message: string,
    options: { exitCode?: ExitCode; hint?: string; details?: string[]; code?: string } = {},
  ) {
    super(message);
    this.exitCode = options.exitCode ?? EXIT.failure;
    this.hint = options.hint;
    this.details = options.details ?? [];
    this.code = options.code;
  }
}

export interface Output {
  /** One line of data on stdout. */
  data(line: string): void;
  /** Data on stdout without a newline (a chat reply printed as it streams in). */
  text(chunk: string): void;
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
    text: (chunk) => void streams.stdout.write(chunk),
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

/** An error as the user sees it (stderr) and as a --json result carries it, with its exit code. */
export interface DescribedError {
  exitCode: ExitCode;
  /** Stable code for --json: the daemon's, or a CLI_ERROR_CODES one. */
  code: string;
  /** The sentence for --json (no tags). */
  message: string;
  /** The line printed after `error: ` (the message, with the daemon's code and HTTP status). */
  text: string;
  hint: string | undefined;
  details: string[];
}

/**
 * Daemon codes that mean "this archive (or its config) is refused": exit 6 from any command
 * (`forge plan bad.zip` too). An upload's other 4xx answers are refusals as well (see upload-zip).
 */
export const isRefusalCode = (code: string | undefined): boolean =>
  code !== undefined &&
  (code.startsWith('ARCHIVE_') ||
    code.startsWith('BLUEPRINT_') ||
    code === 'INVALID_FILE_TYPE' ||
    code === 'FILE_TOO_LARGE');

const CODE_OF_EXIT: Partial<Record<ExitCode, CliErrorCode>> = {
  [EXIT.usage]: 'USAGE',
  [EXIT.unreachable]: 'DAEMON_UNREACHABLE',
  [EXIT.timedOut]: 'WAIT_TIMEOUT',
  [EXIT.testsFailed]: 'TESTS_FAILED',
  [EXIT.interrupted]: 'WAIT_INTERRUPTED',
};

/**
 * What an error means for the user: the text, the hint and the exit code. The shared client's errors
 * are recognised by name so this module does not load @forge/shared (and zod) up front.
 */
export function describeError(err: unknown, context: ErrorContext = { remote: false }): DescribedError {
  if (err instanceof CliError) {
    return {
      exitCode: err.exitCode,
      code: err.code ?? CODE_OF_EXIT[err.exitCode] ?? 'UNEXPECTED',
      message: err.message,
      text: err.message,
      hint: err.hint,
      details: err.details,
    };
  }
  const e = err as Partial<{
    name: string;
    message: string;
    status: number;
    code: string;
    serverMessage: string;
    hint: string;
    stack: string;
    /** Set by the upload on any refusal (4xx) of the archive. */
    refused: boolean;
  }>;
  if (e?.name === 'ForgeHttpError') {
    const tag = [e.code, e.status === undefined ? undefined : `HTTP ${e.status}`].filter(Boolean).join(', ');
    const hints = [e.hint];
    if (e.status === 401) hints.push('Pass the daemon access token with --token or FORGE_TOKEN.');
    const message = e.serverMessage ?? e.message ?? 'The daemon refused the request.';
    return {
      exitCode:
        e.refused === true || isRefusalCode(e.code)
          ? EXIT.refused
          : e.code === 'BUILD_SUPERSEDED'
            ? EXIT.cancelled
            : EXIT.failure,
      code: e.code ?? `HTTP_${e.status ?? 'ERROR'}`,
      message,
      text: `${message}${tag ? ` [${tag}]` : ''}`,
      hint: hints.filter(Boolean).join(' ') || undefined,
      details: [],
    };
  }
  if (e?.name === 'ForgeUnreachableError') {
    return {
      exitCode: EXIT.unreachable,
      code: 'DAEMON_UNREACHABLE',
      message: `${e.message}.`,
      text: `${e.message}.`,
      hint: context.remote
        ? 'Check the address given with --url / FORGE_URL, or start Forge there with `forge daemon start`.'
        : 'Start it with `forge daemon start` (`forge daemon logs` shows why it stopped).',
      details: [],
    };
  }
  if (e?.name === 'ForgeProtocolError') {
    const message = e.message ?? 'The daemon answered something this forge does not understand.';
    return {
      exitCode: EXIT.failure,
      code: 'PROTOCOL_ERROR',
      message,
      text: message,
      hint: 'Are the CLI and the daemon the same version? Check with `forge --version` and `forge daemon status`.',
      details: [],
    };
  }
  const message = e?.message ?? String(err);
  return {
    exitCode: EXIT.failure,
    code: 'UNEXPECTED',
    message,
    text: message,
    hint: undefined,
    details: process.env.FORGE_DEBUG && e?.stack ? [e.stack] : [],
  };
}

/** Print an error the way a user can act on it (stderr) and return the exit code. */
export function reportError(err: unknown, out: Output, context: ErrorContext = { remote: false }): ExitCode {
  const described = describeError(err, context);
  out.error(described.text, described.hint, described.details);
  return described.exitCode;
}
