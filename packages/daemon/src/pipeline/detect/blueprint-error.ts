import { ForgeError } from '../../http/forge-error.ts';

/** Codes detection can fail with (all 422: the upload is fine, its content cannot be planned). */
export type BlueprintErrorCode = 'BLUEPRINT_INVALID_PACKAGE_JSON' | 'BLUEPRINT_INVALID_CONFIG';

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
    /** Project-relative file at fault. */
    readonly file: string,
    readonly issues: readonly BlueprintIssue[] = [],
  ) {
    super(code, message, { file, issues });
  }
}
