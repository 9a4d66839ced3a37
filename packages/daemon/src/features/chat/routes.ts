import type { Router } from 'express';
import { routes } from '@forge/shared';
import type { AppDeps, AppServices, FeatureHandle } from '../../app.ts';
import { defineRoute } from '../../http/define-route.ts';
import { brainFor } from '../brain/brain.ts';
import { projectAsked } from '../projects/routes.ts';
import { createChat } from './service.ts';

/**
 * POST /api/chat { q, clientId?, project? }: with a connected client, answered `{ ok: true }` at once
 * and the replies arrive over /ws as `chat` messages; without one, the replies are in the answer.
 * A `brain:` question is answered for the brain session of the request's cookie.
 */
export function registerChatRoutes(router: Router, services: AppServices, deps: AppDeps): FeatureHandle {
  const brain = brainFor(services, deps);
  const chat = createChat(services, brain, services.logger);

  defineRoute(router, routes.chat, async ({ req, body }) => {
    const project = body.project === undefined ? null : projectAsked(services, body.project);
    const replies = await chat.receive(body.q, brain.contextOf(req), { clientId: body.clientId, project });
    return replies ? { ok: true as const, replies } : { ok: true as const };
  });
  return { close: () => chat.close() };
}
