import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type RequestHandler } from 'express';
import { errorBody } from '@forge/shared';
import { ForgeError } from './forge-error.ts';

/**
 * Checks on a request's shape that run before routing and body parsing, so a malformed request is
 * answered with its catalogue code at once instead of reaching a handler (or a library) half-decoded.
 */

/**
 * Is the request target valid percent-encoding of UTF-8? Node's parser already refuses raw bytes
 * outside ASCII; this refuses what decodes to no text: a stray "%", "%zz", "%ff", an overlong
 * "%c0%ae" or an encoded surrogate "%ed%a0%80". Left alone, the query parser would turn those into
 * U+FFFD (two different URLs naming the same file) and the router would throw a bare URIError (a 500).
 */
export function isWellFormedTarget(target: string): boolean {
  if (!target.includes('%')) return true;
  try {
    decodeURIComponent(target);
    return true;
  } catch {
    return false;
  }
}

/** Refuses a request whose URL is not valid percent-encoded UTF-8 (VALIDATION_FAILED, 400). */
export const wellFormedTarget: RequestHandler = (req, _res, next) => {
  if (isWellFormedTarget(req.originalUrl)) return next();
  next(
    new ForgeError(
      'VALIDATION_FAILED',
      'The URL is not valid: every "%" must start a percent-encoded UTF-8 character (encodeURIComponent).',
      { part: 'url' },
    ),
  );
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON is UTF-8 (RFC 8259). body-parser would decode other bytes to U+FFFD, so "\xff" and "\xfe" in
 * a file path would both name the file "\ufffd"; refuse them instead (INVALID_JSON).
 */
function requireUtf8(_req: unknown, _res: unknown, buf: Buffer, encoding: string): void {
  if (encoding !== 'utf-8' && encoding !== 'utf8') return;
  try {
    strictUtf8.decode(buf);
  } catch {
    throw Object.assign(new Error('The request body is not valid UTF-8.'), { status: 400 });
  }
}

/**
 * `express.json`, but a body whose Content-Length is over `limit` is refused before a byte of it is
 * read, and the connection is closed after the answer. express.json would read (and throw away) the
 * whole declared body first — gigabytes, if the client says so — before answering 413.
 */
export function jsonBody(limit: number): RequestHandler {
  const parse = express.json({ limit, verify: requireUtf8 });
  return (req, res, next) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit && req.is('application/json')) {
      res.setHeader('Connection', 'close');
      return next(new ForgeError('BODY_TOO_LARGE'));
    }
    parse(req, res, next);
  };
}

/** Node's own status for a request its parser refused, as its default clientError handler picks it. */
const PARSER_STATUS: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * A request Node's HTTP parser refuses (raw bytes or a NUL in the request line, a broken header,
 * chunked framing that lies) never reaches Express; Node would answer a bare "400 Bad Request".
 * Answer it in the catalogue shape instead, so every refusal carries a code, then close the socket.
 */
export function answerParserErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset, or an answer already under way: nothing can be said on this socket any more.
    const busy = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
    if (err.code === 'ECONNRESET' || busy || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = PARSER_STATUS[err.code ?? ''] ?? 400;
    const body = JSON.stringify(
      errorBody('VALIDATION_FAILED', 'The request is not valid HTTP (a raw byte, a NUL or a broken header).'),
    );
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
        body,
    );
  });
}
