import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import type { Brain } from '../brain/brain.ts';
import { projectAsked, type ProjectStore } from '../projects/projects.ts';
import type { Chat } from './service.ts';

export interface ChatRouteDeps extends ProjectStore {
  chat: Chat;
  /** Whose brain session a `brain:` question belongs to (the request's cookie). */
  brain: Pick<Brain, 'contextOf'>;
}

/**
 * POST /api/chat { q, clientId?, project? }: with a connected client, answered `{ ok: true }` at once
 * and the replies arrive over /ws as `chat` messages; without one, the replies are in the answer.
 * A `brain:` question is answered for the brain session of the request's cookie.
 */
export function registerChatRoutes(router: Router, deps: ChatRouteDeps): void {
  const { chat, brain } = deps;

  defineRoute(router, routes.chat, async ({ req, body }) => {
    const project = body.project === undefined ? null : projectAsked(deps, body.project);
    const replies = await chat.receive(body.q, brain.contextOf(req), { clientId: body.clientId, project });
    return replies ? { ok: true as const, replies } : { ok: true as const };
  });
}
