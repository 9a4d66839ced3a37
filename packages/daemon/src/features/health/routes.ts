import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import type { HealthService } from './service.ts';

export function registerHealthRoutes(router: Router, deps: { health: HealthService }): void {
  defineRoute(router, routes.health, () => deps.health.health());
}
