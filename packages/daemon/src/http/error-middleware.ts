import type { ErrorRequestHandler, RequestHandler } from 'express';
import { errorBody, type ErrorBody } from '@forge/shared';
import type { Logger } from '../logging/logger.ts';
import { redactUrl } from '../logging/logger.ts';
import { ForgeError } from './forge-error.ts';
import { diskFullMessage, isDiskFull } from '../fs/disk-full.ts';

/** body-parser failures carry a `type` and an HTTP status. */
interface HttpLikeError {
  type?: string;
  status?: number;
  expose?: boolean;
  message?: string;
}

function toResponse(err: unknown): { status: number; body: ErrorBody } | null {
  if (err instanceof ForgeError) return { status: err.status, body: err.toBody() };
  const e = (err ?? {}) as HttpLikeError;
  if (e.type === 'entity.too.large') return { status: 413, body: errorBody('BODY_TOO_LARGE') };
  if (e.type === 'entity.parse.failed') return { status: 400, body: errorBody('INVALID_JSON') };
  // request-guards' verify hook: bytes that are not UTF-8 are not JSON either.
  if (e.type === 'entity.verify.failed' && e.status === 400)
    return { status: 400, body: errorBody('INVALID_JSON', e.message) };
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    // Other client errors from the body parser (bad charset, aborted upload): their messages are safe.
    // An unexposed one (the router's URIError for a param that does not decode) keeps its 4xx but
    // gets the catalogue's message: a client error is never a 500.
    return { status: e.status, body: errorBody('VALIDATION_FAILED', e.expose ? e.message : undefined) };
  }
  // ENOSPC, EDQUOT or SQLITE_FULL from any write on the way: the user's disk, not a bug (507).
  if (isDiskFull(err))
    return { status: 507, body: errorBody('DISK_FULL', diskFullMessage('The request', err)) };
  return null;
}

/** Unknown /api routes, any method: JSON 404, never the web app's HTML. */
export const apiNotFound: RequestHandler = (req, _res, next) => {
  next(new ForgeError('NOT_FOUND', `No such API route: ${req.method} ${req.baseUrl}${req.path}`));
};

/** Anything no earlier handler took (e.g. a POST to a page path). */
export const notFound: RequestHandler = (_req, _res, next) => {
  next(new ForgeError('NOT_FOUND', 'Not found.'));
};

/** The one place errors become answers: the catalogue shape, and never a stack on the wire. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = toResponse(err);
    const where = { method: req.method, url: redactUrl(req.originalUrl) };
    if (!known) logger.error({ err, ...where }, 'unhandled error while answering a request');
    else if (known.status >= 500) logger.warn({ code: known.body.code, ...where }, known.body.error);
    else logger.debug({ code: known.body.code, status: known.status, ...where }, known.body.error);
    // Headers already out: the answer cannot be fixed, so cut the connection rather than end it "ok".
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    // Refused before its body was read (too large, bad URL): close after answering rather than
    // let Node read and throw away whatever the client still sends.
    const hasBody =
      req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
    if (hasBody && !req.complete) res.setHeader('Connection', 'close');
    const { status, body } = known ?? { status: 500, body: errorBody('INTERNAL') };
    res.status(status).json(body);
  };
}
