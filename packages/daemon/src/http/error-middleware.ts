import type { ErrorRequestHandler, RequestHandler } from 'express';
import { errorBody, type ErrorBody } from '@forge/shared';
import type { Logger } from '../logging/logger.ts';
import { redactUrl } from '../logging/logger.ts';
import { ForgeError } from './forge-error.ts';

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
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    // Other client errors from the body parser (bad charset, aborted upload): their messages are safe.
    return { status: e.status, body: errorBody('VALIDATION_FAILED', e.message) };
  }
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
    const { status, body } = known ?? { status: 500, body: errorBody('INTERNAL') };
    res.status(status).json(body);
  };
}
