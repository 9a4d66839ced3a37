import { createForgeClient, ForgeHttpError } from '@forge/shared';

/**
 * The typed client for every call, same origin as the page (the daemon serves the app), cookies
 * included (spec §7). fetch is looked up per call, not bound once at import, so a later-installed
 * fetch is honoured.
 */
export const forgeClient = createForgeClient({
  baseUrl: '',
  credentials: 'include',
  fetch: (input, init) => globalThis.fetch(input, init),
});

/**
 * For the few reads that need the raw Response (a download's headers or stream): a non-OK answer
 * rejects the same way the client's do, "status: body text" (spec §8).
 */
export async function assertOk(res: Response): Promise<void> {
  if (!res.ok) throw new ForgeHttpError(res.status, res.statusText, await res.text().catch(() => ''));
}
