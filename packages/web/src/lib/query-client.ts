import { QueryClient, type QueryFunction, type QueryKey } from '@tanstack/react-query';
import { ForgeHttpError, routes, type RouteName } from '@forge/shared';

/**
 * Query key of a GET route: its path split into segments, e.g. getSettings → ['api', 'settings'].
 * The default queryFn joins them back, so a path is written once (in the shared route table).
 */
export function routeQueryKey(name: RouteName): readonly string[] {
  return routes[name].path.split('/').filter(Boolean);
}

type QueryParams = Record<string, string | number | boolean | null | undefined>;

const isParams = (value: unknown): value is QueryParams =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Spec §7: the GET path is the key's segments joined with '/'. Always absolute, so a key is not
 * resolved against the page's own path (/university/chat). A trailing plain object becomes the query
 * string (['api', 'files', 'content', { path: 'a.ts' }] → /api/files/content?path=a.ts).
 */
export function queryPath(queryKey: QueryKey): string {
  const last = queryKey.at(-1);
  const params = isParams(last) ? last : undefined;
  const segments = (params ? queryKey.slice(0, -1) : queryKey).map((s) =>
    String(s).replace(/^\/+|\/+$/g, ''),
  );
  const path = `/${segments.filter(Boolean).join('/')}`;
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) search.set(k, String(v));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Spec §8: any non-OK answer becomes an error reading "status: body text" (or the status text). */
export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const body = await res.text().catch(() => '');
  throw new ForgeHttpError(res.status, res.statusText, body);
}

export type UnauthorizedBehavior = 'throw' | 'returnNull';

/** The app's default queryFn: GET the key's path with cookies, read JSON. 401 throws unless asked. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryPath(queryKey), {
      credentials: 'include',
      headers: { accept: 'application/json' },
      signal,
    });
    if (on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}

/**
 * Spec §7 defaults: results never go stale, no refetch on focus, no retries. Freshness comes from
 * the socket instead (lib/socket.tsx writes pushed changes into the cache and refetches after a
 * reconnect).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
