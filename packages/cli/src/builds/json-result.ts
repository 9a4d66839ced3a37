import type { CliResult, CliResultError } from '@forge/shared';
import { describeError, EXIT, type ErrorContext, type Output } from '../output.ts';

/** What is known of the upload or build when an error ends the command. */
export interface ResultContext extends ErrorContext {
  file?: string;
  projectName?: string;
  buildId?: string;
  /** forge ci: the JUnit report written for a refusal. */
  junit?: string;
}

/** An error as a --json result: `refused` for exit 6, else `error`. Same code as the exit status says. */
export function errorResult(err: unknown, context: ResultContext): CliResult {
  const described = describeError(err, context);
  const error: CliResultError = {
    code: described.code,
    message: described.message,
    ...(described.hint ? { hint: described.hint } : {}),
  };
  if (described.exitCode === EXIT.refused) {
    return {
      status: 'refused',
      ...(context.file ? { file: context.file } : {}),
      error,
      ...(context.junit ? { junit: context.junit } : {}),
    };
  }
  return {
    status: 'error',
    ...(context.projectName ? { projectName: context.projectName } : {}),
    ...(context.buildId ? { buildId: context.buildId } : {}),
    error,
    ...(context.junit ? { junit: context.junit } : {}),
  };
}

/**
 * The --json promise of the commands that follow builds: exactly one document on stdout, whatever
 * happens once the command runs (a usage error found by commander prints on stderr only).
 */
export class JsonResult {
  private printed = false;
  /** Filled in as the command learns them, for an error result. */
  readonly context: ResultContext;

  constructor(
    private readonly out: Output,
    private readonly enabled: boolean,
    context: ResultContext,
  ) {
    this.context = { ...context };
  }

  print(result: CliResult): void {
    if (!this.enabled || this.printed) return;
    this.printed = true;
    this.out.json(result);
  }

  /** The error as the document (if none was printed yet); the caller rethrows it for stderr and the exit code. */
  printError(err: unknown): void {
    this.print(errorResult(err, this.context));
  }
}
