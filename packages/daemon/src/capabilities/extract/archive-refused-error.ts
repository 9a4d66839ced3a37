import { ForgeError } from '../../http/forge-error.ts';
import type { ArchiveErrorCode } from './refusal.ts';

/**
 * An upload refused as a whole (HTTP 422 with a stable ARCHIVE_* code). The message names the entry;
 * `details.entry` carries it for clients. Nothing was written: the previous project is untouched.
 */
export class ArchiveRefusedError extends ForgeError {
  override readonly name = 'ArchiveRefusedError';
  declare readonly code: ArchiveErrorCode;

  constructor(
    code: ArchiveErrorCode,
    /** The raw entry name with unprintable characters escaped; null when the archive as a whole is at fault. */
    readonly entry: string | null,
    message: string,
  ) {
    super(code, message, { entry });
  }
}
