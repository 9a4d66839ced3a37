import type { IncomingMessage } from 'node:http';
import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import { ForgeError } from '../../http/forge-error.ts';
import type { Hub } from '../../ws/hub.ts';
import type { FamilyService } from './service.ts';

/**
 * AuthBot's routes: the university's login and logout, who is signed in, the family chat, the audit
 * log, and the account administration used by `forge family`.
 *
 * Account administration is for this machine's CLI only: it answers requests that carry no Origin
 * header. Browsers always send Origin on POST/PUT/DELETE (and on these routes' cross-origin GETs
 * too), so no web page — not even the daemon's own — can add, list, remove or re-password accounts;
 * the CLI (Node's fetch sends no Origin) can. A non-browser client could omit Origin, but it would
 * still have to pass the daemon's Host check and, off loopback, its access token: whoever has those
 * can already run the daemon's CLI.
 */

/** 403 LOCAL_ONLY for a request that came from a browser page. */
function localOnly(req: IncomingMessage): void {
  if (req.headers.origin !== undefined) throw new ForgeError('LOCAL_ONLY');
}

export interface FamilyRouteDeps {
  family: FamilyService;
  /** The family chat goes to the signed-in /ws connections only. */
  familySockets: Pick<Hub, 'sendToFamily'>;
}

export function registerFamilyRoutes(router: Router, deps: FamilyRouteDeps): void {
  const { family, familySockets } = deps;

  defineRoute(router, routes.login, async ({ body, req, res }) => {
    try {
      return { token: await family.login(body.username, body.password, req) };
    } catch (error) {
      if (error instanceof ForgeError && error.code === 'TOO_MANY_ATTEMPTS') {
        const { retryAfterSeconds } = error.details as { retryAfterSeconds: number };
        res.setHeader('Retry-After', String(retryAfterSeconds));
      }
      throw error;
    }
  });
  defineRoute(router, routes.logout, async ({ req }) => {
    await family.logout(req);
    return { ok: true as const };
  });
  defineRoute(router, routes.familyMe, ({ req }) => family.session(req));

  defineRoute(router, routes.familyAccounts, ({ req }) => {
    localOnly(req);
    return family.accounts();
  });
  defineRoute(router, routes.familyAdd, async ({ body, req }) => {
    localOnly(req);
    await family.add(body.name, body.password, req);
    return { ok: true as const, name: body.name };
  });
  defineRoute(router, routes.familyRemove, async ({ params, req }) => {
    localOnly(req);
    return { ok: true as const, name: await family.remove(params.name, req) };
  });
  defineRoute(router, routes.familyPasswd, async ({ params, body, req }) => {
    localOnly(req);
    return { ok: true as const, name: await family.passwd(params.name, body.password, req) };
  });

  defineRoute(router, routes.familyChat, ({ query, req }) => {
    family.require(req);
    return family.chat(query);
  });
  defineRoute(router, routes.familyChatSend, ({ body, req }) => {
    const { name } = family.require(req);
    const message = family.say(name, body.text);
    familySockets.sendToFamily({ type: 'family-chat', message });
    return message;
  });
  defineRoute(router, routes.familyAudit, ({ req }) => {
    family.require(req);
    return family.auditLog();
  });
}
