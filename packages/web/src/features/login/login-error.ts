import { isForgeHttpError } from '@/lib/http-error.ts';
import { UI_TEXT } from '@forge/shared/schema-free';
import { formatWait, LoginLockedError } from './login-request.ts';

/**
 * 401/403 refusals that come from the daemon's own guard (access token, Host, Origin) rather than
 * from checking the username and password: the credentials were never looked at.
 */
const GUARD_CODES = new Set(['TOKEN_REQUIRED', 'HOST_NOT_ALLOWED', 'ORIGIN_NOT_ALLOWED']);

/**
 * docs/product.md#error-texts: "Invalid credentials" when the login is rejected, "Login failed" for anything
 * else.
 */
export function loginErrorText(error: unknown): string {
  if (
    isForgeHttpError(error) &&
    (error.status === 401 || error.status === 403) &&
    !(error.code && GUARD_CODES.has(error.code))
  ) {
    return UI_TEXT.invalidCredentials;
  }
  return UI_TEXT.loginFailed;
}

/**
 * The detail under "Login failed" (why), or nothing for a plain rejection. A lockout says how long
 * to wait, from the daemon's Retry-After.
 */
export function loginErrorDetail(error: unknown): string | null {
  if (loginErrorText(error) === UI_TEXT.invalidCredentials) return null;
  if (error instanceof LoginLockedError) {
    return error.retryAfterSeconds === null
      ? 'Too many failed logins. Try again later.'
      : `Too many failed logins. Try again in ${formatWait(error.retryAfterSeconds)}.`;
  }
  if (isForgeHttpError(error)) return `${error.status}: ${error.serverMessage}`;
  return error instanceof Error ? error.message : null;
}

/** Router state of a trip to /login made because the daemon refused the stored token. */
export interface LoginLocationState {
  expired?: boolean;
}

/** Said on /login after the daemon refused the stored token (expired or revoked). */
export const SESSION_ENDED_TEXT = 'Your family session ended. Sign in again.';
