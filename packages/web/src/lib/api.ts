import type { ForgeClient, RouteInput, RouteName } from '@forge/shared';
import { buildPath, ROUTE_PATHS, withQuery } from '@forge/shared/schema-free';
import { expireAuthToken, readAuthToken } from './auth.ts';
import { bootAnswer } from './boot-reads.ts';
import { isForgeHttpError } from './http-error.ts';
import { protocol } from './protocol.ts';

/** Same-origin daemon API paths: the only requests the family token may travel on. */
const isApiRequest = (target: string): boolean => {
  try {
    const url = new URL(target, window.location.href);
    return url.origin === window.location.origin && url.pathname.startsWith('/api/');
  } catch {
    return false;
  }
};

/** True when a 401 says the family token was refused (expired, revoked), not something else. */
async function refusesFamilyToken(res: Response): Promise<boolean> {
  if (res.status !== 401) return false;
  try {
    const body = (await res.clone().json()) as { code?: unknown };
    return body.code === 'FAMILY_AUTH_REQUIRED';
  } catch {
    return false;
  }
}

/**
 * fetch for the daemon API: the university token (docs/product.md#live-state, `authToken`) rides along as
 * `Authorization: Bearer` on every same-origin /api request while one is stored, and a
 * FAMILY_AUTH_REQUIRED answer to it signs this browser out (lib/auth.ts `expireAuthToken`).
 * fetch is looked up per call, not bound once at import, so a later-installed fetch is honoured.
 */
export async function apiFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const token = isApiRequest(target) ? readAuthToken() : null;
  let sent = init;
  if (token) {
    const headers = new Headers(init.headers);
    // An explicit Authorization (another credential) is the caller's choice and stays.
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    sent = { ...init, headers };
  }
  // The boot script's early answer to this very GET, when it has one (lib/boot-reads.ts).
  const early = (init.method ?? 'GET') === 'GET' ? bootAnswer(target) : null;
  if (early) return early;
  const res = await globalThis.fetch(input, sent);
  if (token && (await refusesFamilyToken(res))) expireAuthToken(token);
  return res;
}

/** The shared typed client, once the protocol's schemas are in (lib/protocol.ts). */
let sharedClient: Promise<ForgeClient> | undefined;
const client = (): Promise<ForgeClient> =>
  (sharedClient ??= protocol().then(({ createForgeClient }) =>
    createForgeClient({ baseUrl: '', credentials: 'include', fetch: apiFetch }),
  ));

/**
 * The typed client for every call, same origin as the page (the daemon serves the app), cookies
 * included (docs/product.md#http-calls), the family token attached by `apiFetch`. A call waits for
 * the protocol's schemas (lib/protocol.ts), which validate its answer; a URL needs only the route's
 * path, which the first paint has.
 */
export const forgeClient: Pick<ForgeClient, 'baseUrl' | 'request' | 'url'> = {
  baseUrl: '',
  request: (async (name: RouteName, input?: unknown) =>
    (await client()).request(name, input as never)) as ForgeClient['request'],
  url: <N extends RouteName>(name: N, input?: Pick<RouteInput<N>, 'params' | 'query'>): string => {
    const i = (input ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown> };
    return withQuery(buildPath(ROUTE_PATHS[name].path, i.params), i.query);
  },
};

/**
 * For the few reads that need the raw Response (a download's headers or stream): a non-OK answer
 * rejects the same way the client's do, "status: body text" (docs/product.md#error-texts).
 */
export async function assertOk(res: Response): Promise<void> {
  if (res.ok) return;
  const { ForgeHttpError } = await protocol();
  throw new ForgeHttpError(res.status, res.statusText, await res.text().catch(() => ''));
}

/** What to tell a person about a failed call: the daemon's own words when it answered, else the error. */
export const errorMessage = (error: unknown): string =>
  isForgeHttpError(error)
    ? error.serverMessage || error.message
    : error instanceof Error
      ? error.message
      : String(error);
