import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import type { AutoForge } from './auto-forge.ts';

/** GET/POST /api/forge/toggle: the auto-forge switch (persisted; on by default). */
export function registerAutoRebuildRoutes(router: Router, deps: { autoForge: AutoForge }): void {
  const { autoForge } = deps;
  defineRoute(router, routes.forgeToggleState, () => ({ active: autoForge.isActive() }));
  defineRoute(router, routes.forgeToggle, ({ body }) => ({ active: autoForge.setActive(body.active) }));
}
