import type {
  ForgeClient,
  RequestInput,
  RouteInput,
  RouteName,
  RouteResponse,
  SocketHandlers,
  SocketSubscription,
} from '@forge/shared';
import type { IncomingHttpHeaders } from 'node:http';
import { ROUTES } from '../protocol/protocol.precomputed.ts';
import { routeUrl } from '../protocol/route-url.ts';
import { loadShared, safeParse, type SafeParser } from '../protocol/safe-parse.ts';
import { fileBody, type UploadFile } from './multipart.ts';
import { send, type HttpAnswer, type HttpRequest } from './send.ts';

/**
 * The CLI's client of the daemon's REST API: the shared client's contract (routes by name, the same
 * answers and the same errors), made to start fast. It sends with node:http instead of fetch, and
 * checks an answer against the JSON Schema of its zod schema, precomputed at build time, instead of
 * loading zod: an answer that this check vouches for is exactly what zod would return. Anything it
 * cannot vouch for, and every error, goes through @forge/shared itself, loaded then (~30 ms).
 */

/** A route's input as the CLI gives it: a multipart route takes the file to send instead of a FormData. */
export type CliRequestInput<N extends RouteName> = Omit<RequestInput<N>, 'form'> &
  (RouteInput<N> extends { form: FormData } ? { file: UploadFile } : { file?: never }) &
  HeaderExchange;

/**
 * Headers beyond the client's own, and the answer's headers: the brain's session lives in an
 * HttpOnly cookie (`forge_brain`) that the CLI keeps between runs and sends back (commands/brain.ts).
 */
export interface HeaderExchange {
  headers?: Record<string, string>;
  /** Called with the headers of a successful answer, before its body is checked. */
  onHeaders?: (headers: IncomingHttpHeaders) => void;
}

export interface CliClient {
  readonly baseUrl: string;
  request<N extends RouteName>(
    name: N,
    // `{}` is the point here: the input is optional exactly when every field of it is optional.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    ...input: {} extends CliRequestInput<N> ? [CliRequestInput<N>?] : [CliRequestInput<N>]
  ): Promise<RouteResponse<N>>;
  url: ForgeClient['url'];
  /** /ws; only for a client made with `subscribe` (it needs the `ws` package and the event schemas). */
  subscribe(handlers: SocketHandlers): SocketSubscription;
}

export interface CliClientOptions {
  baseUrl: string;
  token?: string;
  /** The shared client's subscribe, for commands that follow builds live. */
  subscribe?: ForgeClient['subscribe'];
}

export function createCliClient(options: CliClientOptions): CliClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');

  const url: ForgeClient['url'] = (name, input) =>
    routeUrl(baseUrl, name, (input ?? {}) as Parameters<typeof routeUrl>[2]);

  async function request<N extends RouteName>(
    name: N,
    input?: CliRequestInput<N>,
  ): Promise<RouteResponse<N>> {
    const route = ROUTES[name];
    const i = (input ?? {}) as { body?: unknown; file?: UploadFile; signal?: AbortSignal } & HeaderExchange;
    const req: HttpRequest = {
      url: url(name, input as never),
      method: route.method,
      headers: { ...i.headers, accept: 'application/json' },
      ...(i.signal ? { signal: i.signal } : {}),
    };
    if (options.token) req.headers.authorization = `Bearer ${options.token}`;
    if (i.file && route.multipart) {
      const form = fileBody(route.multipart, i.file);
      req.headers['content-type'] = form.contentType;
      req.body = form.body;
    } else if (route.method !== 'GET' && route.body) {
      req.headers['content-type'] = 'application/json';
      req.body = JSON.stringify(i.body ?? {});
    }

    let res: HttpAnswer;
    try {
      res = await send(req);
    } catch (err) {
      // An aborted request is the caller's doing, not an unreachable daemon.
      if (i.signal?.aborted) throw i.signal.reason;
      const { ForgeUnreachableError } = await loadShared();
      throw new ForgeUnreachableError(baseUrl || 'this page', err);
    }
    if (res.status < 200 || res.status > 299) {
      const { ForgeHttpError } = await loadShared();
      // The answer's headers go along (Retry-After of a 429 says how long to wait).
      throw Object.assign(new ForgeHttpError(res.status, res.statusText, res.body.toString('utf8')), {
        headers: res.headers,
      });
    }
    i.onHeaders?.(res.headers);
    if (route.response === 'binary') return new Uint8Array(res.body) as RouteResponse<N>;
    const text = res.body.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const { ForgeProtocolError } = await loadShared();
      throw new ForgeProtocolError(`${route.method} ${route.path} answered non-JSON: ${text.slice(0, 200)}`);
    }
    // The shared client's check, made without zod for an answer of this version (safe-parse.ts).
    const parsed = await safeParse(
      route.response,
      json,
      (shared) => shared.routes[name].response as SafeParser,
    );
    if (!parsed.success) {
      const { ForgeProtocolError } = await loadShared();
      throw new ForgeProtocolError(
        `${route.method} ${route.path} answered an unexpected shape: ${parsed.message}`,
      );
    }
    return parsed.data as RouteResponse<N>;
  }

  return {
    baseUrl,
    request: request as CliClient['request'],
    url,
    subscribe: (handlers) => {
      if (!options.subscribe) throw new Error('This connection to the daemon was not opened for /ws.');
      return options.subscribe(handlers);
    },
  };
}
