import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import type { Rebuilds } from './rebuild.ts';

export interface RebuildRouteDeps {
  rebuilds: Pick<Rebuilds, 'start' | 'get'>;
}

/**
 * Verification rebuilds (`forge verify --rebuild`, docs/artifacts.md): started by the digests of a
 * verified statement, followed by id.
 */
export function registerRebuildRoutes(router: Router, deps: RebuildRouteDeps): void {
  const { rebuilds } = deps;
  defineRoute(router, routes.startRebuild, ({ body, res }) => {
    res.status(202);
    return rebuilds.start(body);
  });
  defineRoute(router, routes.rebuild, ({ params, query }) =>
    rebuilds.get(params.id, (query.wait ?? 0) * 1000),
  );
}
