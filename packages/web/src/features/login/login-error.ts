import { ForgeHttpError, UI_TEXT } from '@forge/shared';

/**
 * 401/403 refusals that come from the daemon's own guard (access token, Host, Origin) rather than
 * from checking the username and password: the credentials were never looked at.
 */
const GUARD_CODES = new Set(['TOKEN_REQUIRED', 'HOST_NOT_ALLOWED', 'ORIGIN_NOT_ALLOWED']);

/** Spec §8: "Invalid credentials" when the login is rejected, "Login failed" for anything else. */
export function loginErrorText(error: unknown): string {
  if (
    error instanceof ForgeHttpError &&
    (error.status === 401 || error.status === 403) &&
    !(error.code && GUARD_CODES.has(error.code))
  ) {
    return UI_TEXT.invalidCredentials;
  }
  return UI_TEXT.loginFailed;
}

/** The detail under "Login failed" (why), or nothing for a plain rejection. */
export function loginErrorDetail(error: unknown): string | null {
  if (loginErrorText(error) === UI_TEXT.invalidCredentials) return null;
  if (error instanceof ForgeHttpError) return `${error.status}: ${error.serverMessage}`;
  return error instanceof Error ? error.message : null;
}
