import { QueryClient, queryOptions, type QueryKey } from '@tanstack/react-query';
import type { RouteInput, RouteResponse } from '@forge/shared';
import { buildPath, ROUTE_PATHS } from '@forge/shared/schema-free';
import { forgeClient } from './api.ts';
import type { QueryRouteName } from './query-routes.ts';

export type { QueryRouteName } from './query-routes.ts';

/** What a query passes to its route: path parameters and the query string (a GET has no body). */
export type QueryInput<N extends QueryRouteName> = RouteInput<N>;

/** The input is optional exactly when the route has no required path parameter. */
type QueryArgs<N extends QueryRouteName> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` asks "is every field optional?"
  {} extends QueryInput<N> ? [input?: QueryInput<N>] : [input: QueryInput<N>];

const definedEntries = (query: object | undefined): Record<string, unknown> | null => {
  const entries = Object.entries(query ?? {}).filter(([, v]) => v !== undefined);
  return entries.length ? Object.fromEntries(entries) : null;
};

/**
 * docs/product.md#http-calls: a query's key is the path segments of its GET (the shared route table's path
 * with its parameters filled in), then the query string as a trailing object when it has one — e.g. ['api',
 * 'settings'], ['api', 'builds', { project: 'app', limit: 1 }]. Without input, a route with path parameters
 * gives the segments before the first one: the prefix every such key starts with (for invalidating them all).
 */
export function routeQueryKey<N extends QueryRouteName>(name: N, input?: QueryInput<N>): QueryKey {
  const { params, query } = (input ?? {}) as { params?: Record<string, string>; query?: object };
  const path = ROUTE_PATHS[name].path;
  const filled = params ? buildPath(path, params) : path.split('/:')[0]!;
  const segments = filled.split('/').filter(Boolean);
  const search = definedEntries(query);
  return search ? [...segments, search] : segments;
}

/**
 * Everything `useQuery` needs to read a route: its query key (docs/product.md#http-calls) and a queryFn that
 * calls it through the typed client, so the answer is validated against the route's schema like every other
 * client's (a non-OK answer rejects with "status: body", docs/product.md#error-texts; 401 included).
 * `queryKey` carries the answer's type, so `setQueryData` / `getQueryData` with it are typed too.
 */
export function routeQuery<N extends QueryRouteName>(name: N, ...args: QueryArgs<N>) {
  const [input] = args;
  // The client's `request` spells its input per route; for a generic N it is this signature.
  const request = forgeClient.request as (
    n: N,
    i?: QueryInput<N> & { signal?: AbortSignal },
  ) => Promise<RouteResponse<N>>;
  return queryOptions({
    queryKey: routeQueryKey(name, input),
    // A query nobody waits for any more (its panel closed) stops its request.
    queryFn: ({ signal }) => request(name, { ...input, signal } as QueryInput<N> & { signal: AbortSignal }),
  });
}

/**
 * docs/product.md#http-calls defaults: results never go stale, no refetch on focus, no retries. Freshness
 * comes from the socket instead (lib/socket.tsx writes pushed changes into the cache and refetches after a
 * reconnect). There is no default queryFn: every query names its route (`routeQuery`).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
