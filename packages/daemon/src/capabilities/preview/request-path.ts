import type { ServerResponse } from 'node:http';

/**
 * A static answer's request path and plain answers, shared by the file server (static-server.ts)
 * and a site's own routes (site-answers.ts).
 */

/** Plain-text answer with the headers every static answer carries. */
export function sendStatus(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body = `${message}\n`;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  412: 'Precondition Failed',
  416: 'Range Not Satisfiable',
};

/** A request's path, checked and decoded once (the rules static-server.ts states), or why it is refused. */
export type RequestPath =
  | { kind: 'refused'; status: 400 | 404 }
  | {
      kind: 'path';
      /** Decoded, without empty or "." segments. */
      segments: string[];
      /** The path ended with "/". */
      slash: boolean;
      /** "?a=b" or "". */
      search: string;
    };

/** Decodes and checks a request target: 400 for a malformed or traversing path, 404 for a dot entry. */
export function requestPath(target: string): RequestPath {
  const cut = target.search(/[?#]/);
  const rawPath = cut < 0 ? target : target.slice(0, cut);
  const search = cut < 0 || target[cut] !== '?' ? '' : target.slice(cut).replace(/#.*$/, '');
  if (!rawPath.startsWith('/')) return { kind: 'refused', status: 400 };
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { kind: 'refused', status: 400 };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'refused', status: 400 };
  const segments = decoded.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return { kind: 'refused', status: 400 };
  if (segments.some((segment) => segment.startsWith('.'))) return { kind: 'refused', status: 404 };
  return { kind: 'path', segments, slash: decoded.endsWith('/') && segments.length > 0, search };
}

/** The URL path of decoded segments, each percent-encoded whole ("/a%20b/c"), with a final slash if asked. */
export const urlPathOf = (segments: readonly string[], slash = false): string =>
  `/${segments.map(encodeURIComponent).join('/')}${slash && segments.length > 0 ? '/' : ''}`;
