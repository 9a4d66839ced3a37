import type { Router } from 'express';
import { routes } from '@forge/shared';
import type { AppDeps, AppServices, FeatureHandle } from '../../app.ts';
import { defineRoute } from '../../http/define-route.ts';
import { brainFor } from '../brain/brain.ts';
import { createChat } from './service.ts';

/**
 * POST /api/chat { q }: answered `{ ok: true }` at once; the replies arrive over /ws as `chat`
 * messages. A `brain:` question is answered for the brain session of the request's cookie.
 */
export function registerChatRoutes(router: Router, services: AppServices, deps: AppDeps): FeatureHandle {
  const brain = brainFor(services, deps);
  const chat = createChat(services, brain, services.logger);

  defineRoute(router, routes.chat, ({ req, body }) => {
    chat.receive(body.q, brain.contextOf(req), body.clientId);
    return { ok: true as const };
  });
  return { close: () => chat.close() };
}
