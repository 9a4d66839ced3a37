import { ForgeError } from '../../http/forge-error.ts';

/** Codes detection can fail with (all 422: the upload is fine, its content cannot be planned as asked). */
export type BlueprintErrorCode =
  | 'BLUEPRINT_INVALID_PACKAGE_JSON'
  | 'BLUEPRINT_INVALID_CONFIG'
  /** The app asked for (the `app` option or forge config key) is not one the project holds. */
  | 'BLUEPRINT_UNKNOWN_APP';

/** One invalid field of the project's forge config. */
export interface BlueprintIssue {
  /** Dotted field path, e.g. "env.MY VAR" or "timeout"; "(root)" for the whole config. */
  field: string;
  message: string;
}

/**
 * A project the detector cannot plan because one of its own files is broken. A ForgeError, so the
 * HTTP layer answers it with the catalogue's status and `details: { file, issues }`.
 */
export class BlueprintError extends ForgeError {
  declare readonly code: BlueprintErrorCode;

  constructor(
    code: BlueprintErrorCode,
    message: string,
    /** Project-relative file at fault; null when the fault is in the request (an `app` option). */
    readonly file: string | null,
    readonly issues: readonly BlueprintIssue[] = [],
    /** Where in the file (1-based), when the fault has a place (a JSON syntax error). */
    readonly place?: { line: number; column: number },
  ) {
    super(code, message, { file, ...(place ?? {}), issues });
  }
}
