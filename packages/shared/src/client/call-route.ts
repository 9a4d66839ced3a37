import type * as ClientErrors from './errors.ts';

/**
 * One call of a daemon route, as every client makes it: the headers, the JSON body, the errors a
 * caller gets (unreachable, "status: body", an answer that is not the protocol's) and the check of
 * the answer. Clients differ only in how they send (fetch; the CLI's node:http) and how they check an
 * answer (the route's zod schema; the CLI's precomputed JSON Schema, with zod behind it), so those two
 * are given. Free of zod and of Node, so each client loads only what it needs.
 */

/** What a client needs to know of a route to call it. */
export interface RouteCall {
  method: string;
  path: string;
  /** The route takes a JSON body. */
  body: boolean;
  /** The answer is a download (bytes), not JSON. */
  binary: boolean;
}

export interface WireRequest<B> {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: B | string;
  signal?: AbortSignal;
}

export interface WireAnswer<H> {
  status: number;
  statusText: string;
  /** Given by a client that shows them: they go along on its callers' errors (Retry-After of a 429). */
  headers?: H;
  text(): Promise<string>;
  bytes(): Promise<Uint8Array>;
}

export type Validation = { success: true; data: unknown } | { success: false; message: string };

export type ErrorClasses = Pick<
  typeof ClientErrors,
  'ForgeHttpError' | 'ForgeProtocolError' | 'ForgeUnreachableError'
>;

export interface RouteCaller<B, H> {
  /** Daemon origin without a trailing slash; '' is the page's own (the web app). */
  baseUrl: string;
  token?: string;
  /** Resolves with any HTTP answer; rejects when nothing was answered (refused, reset, aborted). */
  send(request: WireRequest<B>): Promise<WireAnswer<H>>;
  /** The error classes, which may be loaded only when an error happens. */
  errors(): ErrorClasses | Promise<ErrorClasses>;
}

export interface CallInput<B, H> {
  url: string;
  /** A body the caller encoded itself (a multipart upload), with its content type if it sets one. */
  payload?: { body: B; contentType?: string };
  /** The JSON body of a route that takes one. */
  json?: unknown;
  signal?: AbortSignal;
  /** Headers beyond the client's own. */
  headers?: Record<string, string>;
  /** Called with the headers of a successful answer, before its body is checked. */
  onHeaders?: (headers: H) => void;
}

/** Call a route: the checked answer, or the error of the documented kind (client/errors.ts). */
export async function callRoute<B, H>(
  caller: RouteCaller<B, H>,
  route: RouteCall,
  input: CallInput<B, H>,
  validate: (json: unknown) => Validation | Promise<Validation>,
): Promise<unknown> {
  const request: WireRequest<B> = {
    url: input.url,
    method: route.method,
    headers: { ...input.headers, accept: 'application/json' },
    ...(input.signal ? { signal: input.signal } : {}),
  };
  if (caller.token) request.headers.authorization = `Bearer ${caller.token}`;
  if (input.payload) {
    if (input.payload.contentType) request.headers['content-type'] = input.payload.contentType;
    request.body = input.payload.body;
  } else if (route.method !== 'GET' && route.body) {
    request.headers['content-type'] = 'application/json';
    request.body = JSON.stringify(input.json ?? {});
  }

  let answer: WireAnswer<H>;
  try {
    answer = await caller.send(request);
  } catch (err) {
    // An aborted request is the caller's doing, not an unreachable daemon.
    if (input.signal?.aborted) throw input.signal.reason;
    const { ForgeUnreachableError } = await caller.errors();
    throw new ForgeUnreachableError(caller.baseUrl || 'this page', err);
  }
  if (answer.status < 200 || answer.status > 299) {
    const bodyText = await answer.text().catch(() => '');
    const { ForgeHttpError } = await caller.errors();
    const error = new ForgeHttpError(answer.status, answer.statusText, bodyText);
    throw answer.headers === undefined ? error : Object.assign(error, { headers: answer.headers });
  }
  if (answer.headers !== undefined) input.onHeaders?.(answer.headers);
  if (route.binary) return answer.bytes();
  const text = await answer.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const { ForgeProtocolError } = await caller.errors();
    throw new ForgeProtocolError(`${route.method} ${route.path} answered non-JSON: ${text.slice(0, 200)}`);
  }
  const parsed = await validate(json);
  if (!parsed.success) {
    const { ForgeProtocolError } = await caller.errors();
    throw new ForgeProtocolError(
      `${route.method} ${route.path} answered an unexpected shape: ${parsed.message}`,
    );
  }
  return parsed.data;
}
