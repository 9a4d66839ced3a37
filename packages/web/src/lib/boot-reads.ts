import type { QueryClient } from '@tanstack/react-query';
import { routes } from '@forge/shared';
import type { BootRead } from '../boot-protocol.ts';
import { routeQuery, type QueryRouteName } from './query-client.ts';

/**
 * The routes of the boot script's reads (boot-protocol.ts, BOOT_READS, which spells out their paths):
 * the GETs the shell makes on every screen. In the same order; the test holds the two lists together.
 */
export const BOOT_READ_ROUTES = [
  'projects',
  'health',
  'botStatus',
] as const satisfies readonly QueryRouteName[];

/**
 * Takes the boot script's early answers into the query cache, before the first render: each answer
 * already read is validated against its route's schema, as the client validates every answer, and
 * stored, so the first render shows it instead of a loading state, and the reads that depend on it
 * (the project's files, builds, preview) start in the first commit instead of a round trip later.
 * Anything else (still on its way, failed, invalid) is left out: the query asks the daemon itself
 * when it mounts, and reports what goes wrong as it always does. Takes them once.
 */
export function takeBootReads(
  queryClient: QueryClient,
  host: { __forgeBootReads?: Record<string, BootRead> } = window,
): void {
  const reads = host.__forgeBootReads;
  if (!reads) return;
  delete host.__forgeBootReads;
  for (const name of BOOT_READ_ROUTES) {
    const settled = reads[routes[name].path]?.settled;
    if (!settled) continue;
    const parsed = routes[name].response.safeParse(settled.json);
    if (parsed.success) queryClient.setQueryData(routeQuery(name).queryKey, parsed.data as never);
  }
}
