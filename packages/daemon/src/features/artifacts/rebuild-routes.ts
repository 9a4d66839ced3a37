import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { createRebuilds, type RebuildDeps } from './rebuild.ts';

/**
 * Verification rebuilds (`forge verify --rebuild`, docs/artifacts.md): started by the digests of a
 * verified statement, followed by id. Returns what closes the rebuilds in flight at shutdown.
 */
export function registerRebuildRoutes(router: Router, deps: RebuildDeps): { close(): Promise<void> } {
  const rebuilds = createRebuilds(deps);
  defineRoute(router, routes.startRebuild, ({ body, res }) => {
    res.status(202);
    return rebuilds.start(body);
  });
  defineRoute(router, routes.rebuild, ({ params, query }) =>
    rebuilds.get(params.id, (query.wait ?? 0) * 1000),
  );
  return rebuilds;
}
