import type { ForgeClient } from '@forge/shared';

/**
 * The slice of the shared typed client the dashboard uses. Components get it through context, so
 * tests pass a small fake instead of mocking modules.
 */
export type TuiClient = Pick<ForgeClient, 'baseUrl' | 'request' | 'subscribe'>;
