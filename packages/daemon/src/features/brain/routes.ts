import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { projectAsked, type ProjectStore } from '../projects/projects.ts';
import type { Brain } from './brain.ts';

export interface BrainRouteDeps extends ProjectStore {
  brain: Brain;
}

/**
 * The brain's routes: POST /api/brain/handshake (greeting, code phrase, then answers), GET
 * /api/brain/status (polled every 5 s), and the user's own greeting and code phrase.
 */
export function registerBrainRoutes(router: Router, deps: BrainRouteDeps): void {
  const { brain } = deps;

  defineRoute(router, routes.brainStatus, ({ req }) => brain.status(req));
  defineRoute(router, routes.brainHandshake, ({ req, res, body }) =>
    brain.handshake(
      req,
      res,
      body.message,
      // An unknown name is refused (404) before the brain answers.
      body.project === undefined ? undefined : (projectAsked(deps, body.project) ?? undefined),
    ),
  );
  defineRoute(router, routes.brainGreeting, ({ body }) => brain.setGreeting(body.greeting));
  defineRoute(router, routes.brainCode, ({ body }) => brain.setCode(body.code));
}
