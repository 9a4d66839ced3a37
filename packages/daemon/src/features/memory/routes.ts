import type { Router } from 'express';
import { routes } from '@forge/shared';
import type { AppDeps, AppServices, FeatureHandle } from '../../app.ts';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { createMemoryService } from './service.ts';

/**
 * MemoryBot's routes: GET /api/memory-cells (newest first), PUT and DELETE /api/memory-cells/:key.
 * The brain changes the same cells ("remember X is Y", "forget X").
 */
export function registerMemoryRoutes(router: Router, services: AppServices, deps: AppDeps): FeatureHandle {
  const memory = createMemoryService({
    store: services.store,
    fleet: services.fleet,
    now: deps.now ?? Date.now,
  });

  defineRoute(router, routes.memoryCells, () => memory.list());
  defineRoute(router, routes.memorySet, ({ params, body }) => memory.set(params.key, body.value));
  defineRoute(router, routes.memoryDelete, async ({ params }) => {
    if (!(await memory.delete(params.key))) {
      throw new ForgeError('MEMORY_CELL_NOT_FOUND', `There is no memory cell named "${params.key}".`);
    }
    return { ok: true as const, key: params.key };
  });
  return {};
}
