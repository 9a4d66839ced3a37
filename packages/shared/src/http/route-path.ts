/**
 * A route's path and query as every client writes them. Free of zod, so a client that must start
 * fast (the CLI's read commands) builds URLs with the same code as the others.
 */

/** Fill `:name` segments of a route path; values are URI-encoded. */
export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined) throw new Error(`Missing path parameter "${key}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Append a query object (undefined and null values skipped). */
export function withQuery(path: string, query?: Record<string, unknown>): string {
  if (!query) return path;
  const entries = Object.entries(query).filter(([, v]) => v !== undefined && v !== null);
  // Most calls have no query: URLSearchParams is not worth building for them.
  if (entries.length === 0) return path;
  const search = new URLSearchParams();
  for (const [k, v] of entries) search.set(k, String(v));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}
