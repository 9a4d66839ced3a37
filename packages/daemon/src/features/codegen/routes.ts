import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import type { CodegenService } from './service.ts';

export interface CodegenRouteDeps {
  codegen: CodegenService;
  /** Aborted when the daemon closes: a model call in flight is abandoned. */
  shutdown: AbortSignal;
}

/**
 * CodeGenBot's route: POST /api/generate (a component, API, function or schema from a description).
 * An unknown kind or an empty description is refused by the shared schema (400 VALIDATION_FAILED).
 */
export function registerCodegenRoutes(router: Router, deps: CodegenRouteDeps): void {
  const { codegen, shutdown } = deps;
  defineRoute(router, routes.generate, ({ body }) => codegen.generate(body, shutdown));
}
