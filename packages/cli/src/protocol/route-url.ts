import { ROUTES } from './protocol.precomputed.ts';

/**
 * A route's URL, the way the shared client builds it (buildPath + withQuery in @forge/shared's
 * routes.ts, which also loads every schema): `:name` segments filled with URI-encoded params, then
 * the query without its undefined and null values. route-url.test.ts holds the two to the same answers.
 */
export function routeUrl(
  baseUrl: string,
  name: keyof typeof ROUTES,
  input: { params?: Record<string, string | number>; query?: Record<string, unknown> } = {},
): string {
  const { path } = ROUTES[name];
  const filled = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, key: string) => {
    const value = input.params?.[key];
    if (value === undefined) throw new Error(`Missing path parameter "${key}" for ${path}`);
    return encodeURIComponent(String(value));
  });
  const entries = Object.entries(input.query ?? {}).filter(([, v]) => v !== undefined && v !== null);
  // Most calls have no query: URLSearchParams is not worth building (or loading) for them.
  if (entries.length === 0) return baseUrl + filled;
  const search = new URLSearchParams();
  for (const [k, v] of entries) search.set(k, String(v));
  const qs = search.toString();
  return baseUrl + (qs ? `${filled}?${qs}` : filled);
}
