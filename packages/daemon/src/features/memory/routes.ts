import type { IncomingMessage } from 'node:http';
import type { Router } from 'express';
import { routes } from '@forge/shared';
import type { AppDeps, AppServices, FeatureHandle } from '../../app.ts';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { familyOf } from '../family/guard.ts';
import { createMemoryService } from './service.ts';

/**
 * MemoryBot's routes: GET /api/memory-cells (newest first), PUT and DELETE /api/memory-cells/:key.
 * The brain changes the same cells ("remember X is Y", "forget X"), through its own session; these
 * routes (the university's memory manager, `forge memory`) need a family token (AuthBot's guard).
 */
export function registerMemoryRoutes(router: Router, services: AppServices, deps: AppDeps): FeatureHandle {
  const memory = createMemoryService({
    store: services.store,
    fleet: services.fleet,
    now: deps.now ?? Date.now,
  });

  /** Refused without a family token, and also when the guard is missing: never open by accident. */
  const guard = (req: IncomingMessage): void => {
    const family = familyOf(services);
    if (!family) throw new ForgeError('FAMILY_AUTH_REQUIRED');
    family.require(req);
  };

  defineRoute(router, routes.memoryCells, ({ req }) => {
    guard(req);
    return memory.list();
  });
  defineRoute(router, routes.memorySet, ({ params, body, req }) => {
    guard(req);
    return memory.set(params.key, body.value);
  });
  defineRoute(router, routes.memoryDelete, async ({ params, req }) => {
    guard(req);
    if (!(await memory.delete(params.key))) {
      throw new ForgeError('MEMORY_CELL_NOT_FOUND', `There is no memory cell named "${params.key}".`);
    }
    return { ok: true as const, key: params.key };
  });
  return {};
}
