import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { ForgeError } from './forge-error.ts';
import {
  TOKEN_COOKIE,
  checkBodyType,
  hasHeaderOrCookieToken,
  isHostAllowed,
  isOriginAllowed,
  isSafeMethod,
  parseRequestTarget,
  tokenMatches,
  type SecurityPolicy,
} from './security.ts';

/** Headers every answer carries. No Access-Control-* header is ever sent: no CORS at all. */
export function setBaseHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Keeps a ?token= URL out of Referer headers sent to previews and links.
  res.setHeader('Referrer-Policy', 'no-referrer');
  // Other origins may not embed our answers (no-cors <script>/<img> reads).
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

export const baseHeaders: RequestHandler = (_req, res, next) => {
  setBaseHeaders(res);
  next();
};

/**
 * A safe request that passes every check with nothing to say (allowed Host; the access token, when
 * one is set, in a header or cookie): what may be answered without the Express app. Anything else
 * goes through `securityMiddleware`, which refuses it with its reason.
 */
export function admitsQuietly(policy: SecurityPolicy, req: IncomingMessage): boolean {
  return (
    isSafeMethod(req.method ?? 'GET') &&
    isHostAllowed(policy, req.headers.host, req.socket.localPort ?? 0) &&
    (policy.token === null || hasHeaderOrCookieToken(policy, req))
  );
}

/**
 * Host allow-list on every request, Origin check on every state-changing request, then the access
 * token when one is configured, then the body's Content-Type on the API's state-changing calls.
 * Runs before body parsing and routing, so a refused request changes nothing.
 */
export function securityMiddleware(policy: SecurityPolicy): RequestHandler {
  return (req, res, next) => {
    const localPort = req.socket.localPort ?? 0;
    if (!isHostAllowed(policy, req.headers.host, localPort)) return next(new ForgeError('HOST_NOT_ALLOWED'));
    if (!isSafeMethod(req.method) && !isOriginAllowed(policy, req.headers.origin, localPort)) {
      return next(new ForgeError('ORIGIN_NOT_ALLOWED'));
    }
    const url = parseRequestTarget(req.originalUrl);
    if (policy.token === null || hasHeaderOrCookieToken(policy, req)) {
      const wrongType = checkBodyType(req, url.pathname);
      return next(wrongType === null ? undefined : new ForgeError('VALIDATION_FAILED', wrongType));
    }

    // A page opened with ?token=… (from `forge open`) trades it for a cookie and drops it from the URL.
    const queryToken = url.searchParams.get('token');
    const isApi = url.pathname === '/api' || url.pathname.startsWith('/api/');
    if (isSafeMethod(req.method) && !isApi && tokenMatches(policy, queryToken)) {
      url.searchParams.delete('token');
      res.cookie(TOKEN_COOKIE, queryToken, { httpOnly: true, sameSite: 'strict', path: '/' });
      res.setHeader('Cache-Control', 'no-store');
      // One leading slash: "//host" would be a protocol-relative redirect to another site.
      return res.redirect(302, `/${url.pathname.replace(/^\/+/, '')}${url.search}`);
    }
    return next(new ForgeError('TOKEN_REQUIRED'));
  };
}
