import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { FamilyGuard } from '../family/service.ts';
import type { MemoryService } from './service.ts';

export interface MemoryRouteDeps {
  memory: MemoryService;
  family: Pick<FamilyGuard, 'require'>;
}

/**
 * MemoryBot's routes: GET /api/memory-cells (newest first), PUT and DELETE /api/memory-cells/:key.
 * The brain changes the same cells ("remember X is Y", "forget X"), through its own session; these
 * routes (the university's memory manager, `forge memory`) need a family token (AuthBot's guard).
 */
export function registerMemoryRoutes(router: Router, deps: MemoryRouteDeps): void {
  const { memory, family } = deps;

  defineRoute(router, routes.memoryCells, ({ req }) => {
    family.require(req);
    return memory.list();
  });
  defineRoute(router, routes.memorySet, ({ params, body, req }) => {
    family.require(req);
    return memory.set(params.key, body.value);
  });
  defineRoute(router, routes.memoryDelete, async ({ params, req }) => {
    family.require(req);
    if (!(await memory.delete(params.key))) {
      throw new ForgeError('MEMORY_CELL_NOT_FOUND', `There is no memory cell named "${params.key}".`);
    }
    return { ok: true as const, key: params.key };
  });
}
