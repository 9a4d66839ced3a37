import type { ForgeHttpError } from '@forge/shared';

/**
 * Whether a failed call was answered by the daemon with a non-OK status (the shared client's
 * ForgeHttpError, or a subclass): by name, because the class itself lives with the schemas, which
 * the first paint does not load (lib/protocol.ts).
 */
export const isForgeHttpError = (error: unknown): error is ForgeHttpError =>
  error instanceof Error && error.name === 'ForgeHttpError' && 'status' in error && 'serverMessage' in error;

/** Whether a call failed because the daemon could not be reached at all (the shared client's ForgeUnreachableError). */
export const isForgeUnreachableError = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ForgeUnreachableError';
