import { Option, type Command } from 'commander';
import { formatTimeout, parseDuration } from '../options.ts';
import { CliError, EXIT } from '../output.ts';

/** The options of every command that follows a build to its end (upload/build --wait, ci). */
export interface WaitOptions {
  /** --timeout, in ms: bounds the upload and the wait for the build. */
  timeout?: number;
  /** --cancel-on-timeout */
  cancelOnTimeout?: boolean;
  /** --logs: the build's log on stderr too. */
  logs?: boolean;
  /** --tests: whether failed tests fail the verdict (exit 7) or are only reported. */
  tests?: 'required' | 'optional';
}

/** Light on purpose (commander only): command modules load it on the --help path. */
export function addWaitOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--timeout <duration>',
        'stop waiting after this long (e.g. 90s, 10m, 1h): exit 4; the build goes on unless --cancel-on-timeout',
      ).argParser(parseDuration),
    )
    .option('--cancel-on-timeout', 'cancel the build when --timeout expires (still exit 4)')
    .option('--logs', "print the build's log on stderr as it is written")
    .addOption(
      new Option(
        '--tests <policy>',
        'required: failed project tests fail the verdict (exit 7); optional: reported, exit 0. Default: the forge config\'s "tests", else required',
      ).choices(['required', 'optional']),
    );
}

/** --cancel-on-timeout needs --timeout; with `needsWait`, all three need --wait. Usage errors (exit 2). */
export function checkWaitOptions(opts: WaitOptions & { wait?: boolean }, needsWait: boolean): void {
  const given = [
    opts.timeout !== undefined && '--timeout',
    opts.cancelOnTimeout && '--cancel-on-timeout',
    opts.logs && '--logs',
    opts.tests !== undefined && '--tests',
  ].filter((flag): flag is string => typeof flag === 'string');
  if (needsWait && !opts.wait && given.length > 0) {
    throw new CliError(`${given.join(', ')} ${given.length === 1 ? 'applies' : 'apply'} only with --wait.`, {
      exitCode: EXIT.usage,
    });
  }
  if (opts.cancelOnTimeout && opts.timeout === undefined) {
    throw new CliError('--cancel-on-timeout needs --timeout <duration>.', { exitCode: EXIT.usage });
  }
}

/** The wait's deadline, started now. */
export interface Deadline {
  signal: AbortSignal;
  ms: number;
  /** As given: `90s`, `1h30m`. */
  label: string;
  cancel: boolean;
}

export function startDeadline(opts: WaitOptions): Deadline | undefined {
  if (opts.timeout === undefined) return undefined;
  return {
    signal: AbortSignal.timeout(opts.timeout),
    ms: opts.timeout,
    label: formatTimeout(opts.timeout),
    cancel: opts.cancelOnTimeout === true,
  };
}
