import { ForgeHttpError, ForgeUnreachableError } from '@forge/shared';

/** A call that did not answer in time; the dashboard moved on without it. */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(
      `The daemon did not answer within ${timeoutMs >= 1_000 ? `${Math.round(timeoutMs / 1_000)} s` : `${timeoutMs} ms`}.`,
    );
  }
}

/**
 * `promise`, or a RequestTimeoutError after `timeoutMs`. The UI never awaits a daemon call without
 * this: a daemon that accepts a request and hangs must not freeze a pane. (runTui's fetch also
 * aborts the request itself, so the socket is freed too.)
 */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new RequestTimeoutError(timeoutMs)), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** One line for the status bar: the daemon's own message and hint, or what went wrong on the way. */
export function describeError(err: unknown): string {
  if (err instanceof ForgeHttpError) {
    const message = err.serverMessage.replace(/\.$/, '');
    return err.hint ? `${message} — ${err.hint}` : message;
  }
  const name = (err as { name?: string } | undefined)?.name;
  if (err instanceof ForgeUnreachableError) {
    const cause = (err.cause as { name?: string } | undefined)?.name;
    return cause === 'TimeoutError' ? 'The daemon did not answer in time.' : err.message;
  }
  if (name === 'TimeoutError') return 'The daemon did not answer in time.';
  return err instanceof Error ? err.message : String(err);
}

/** The code the daemon gave a refusal (e.g. BUILD_FINISHED), if any. */
export const errorCode = (err: unknown): string | undefined =>
  err instanceof ForgeHttpError ? err.code : undefined;
