import type { RouteName, routes } from '@forge/shared';

/** The routes a query may read: GETs that answer JSON (downloads go through links, not the cache). */
export type QueryRouteName = {
  [N in RouteName]: (typeof routes)[N] extends { method: 'GET'; response: infer R }
    ? R extends 'binary'
      ? never
      : N
    : never;
}[RouteName];
