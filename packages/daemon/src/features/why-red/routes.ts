import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { compareWithLastGreen, type CompareDeps } from './compare.ts';

/** GET /api/builds/:id/diff: a failed build compared with the last green build of its project. */
export function registerWhyRedRoutes(router: Router, deps: CompareDeps): void {
  defineRoute(router, routes.buildDiff, ({ params }) => compareWithLastGreen(deps, params.id));
}
