import { createForgeClient, ForgeHttpError, type RouteInput, type RouteResponse } from '@forge/shared';
import { apiFetch } from '@/lib/api.ts';

/**
 * POST /api/login (docs/product.md#live-state). Kept apart from the shared client because a refusal for too
 * many failed attempts (429 TOO_MANY_ATTEMPTS) says how long to wait in its Retry-After header, which the
 * client's error does not carry.
 */

/** Too many failed logins: the daemon refuses more until the wait is over. */
export class LoginLockedError extends ForgeHttpError {
  /** Seconds until another try is accepted, when the daemon said (Retry-After). */
  readonly retryAfterSeconds: number | null;

  constructor(error: ForgeHttpError, retryAfterSeconds: number | null) {
    super(error.status, '', error.bodyText);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Retry-After as whole seconds from `now`: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(header: string | null, now: number): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** "45 s", "5 min", "2 h 10 min": how long to wait, rounded up to what a person cares about. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.ceil(seconds))} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

export async function requestLogin(body: RouteInput<'login'>['body']): Promise<RouteResponse<'login'>> {
  let retryAfter: string | null = null;
  const client = createForgeClient({
    baseUrl: '',
    credentials: 'include',
    fetch: async (input, init) => {
      const res = await apiFetch(input, init);
      retryAfter = res.headers.get('retry-after');
      return res;
    },
  });
  try {
    return await client.request('login', { body });
  } catch (error) {
    if (error instanceof ForgeHttpError && error.status === 429) {
      throw new LoginLockedError(error, parseRetryAfter(retryAfter, Date.now()));
    }
    throw error;
  }
}
