import type { Router } from 'express';
import { routes } from '@forge/shared';
import type { AppDeps, AppServices, FeatureHandle } from '../../app.ts';
import { defineRoute } from '../../http/define-route.ts';
import { createCodegenService } from './service.ts';

/**
 * CodeGenBot's route: POST /api/generate (a component, API, function or schema from a description).
 * An unknown kind or an empty description is refused by the shared schema (400 VALIDATION_FAILED).
 */
export function registerCodegenRoutes(router: Router, services: AppServices, _deps: AppDeps): FeatureHandle {
  const codegen = createCodegenService({
    fleet: services.fleet,
    logger: services.logger,
    model: () => services.model,
  });
  // A model call is abandoned when the daemon closes.
  const closing = new AbortController();
  defineRoute(router, routes.generate, ({ body }) => codegen.generate(body, closing.signal));
  return { close: () => closing.abort(new Error('The daemon is shutting down.')) };
}
