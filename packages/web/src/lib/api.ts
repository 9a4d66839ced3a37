import { createForgeClient } from '@forge/shared';

/**
 * The typed client for mutations, same origin as the page (the daemon serves the app).
 * fetch is looked up per call, not bound once at import, so a later-installed fetch is honoured.
 */
export const forgeClient = createForgeClient({
  baseUrl: '',
  credentials: 'include',
  fetch: (input, init) => globalThis.fetch(input, init),
});
