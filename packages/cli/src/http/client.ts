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
import { buildPath, callRoute, withQuery, type RouteCaller } from '@forge/shared/schema-free';
import { ROUTES } from '../protocol/protocol.precomputed.ts';
import { loadShared, safeParse, type SafeParser } from '../protocol/safe-parse.ts';
import { fileBody, type UploadFile } from './multipart.ts';
import { send, type RequestBody } from './send.ts';

/**
 * The CLI's client of the daemon's REST API: the shared client's contract (routes by name, the same
 * answers, the same errors), and the same code for the call itself (@forge/shared's callRoute and
 * route-path). The CLI keeps two things of its own, for start-up time, measured with farm-bench (CPU
 * seconds, medians of 20 runs, the three calls of `forge status`): the shared client whole (fetch +
 * zod) takes 0.32 s, against 0.12 s for this one; sending with fetch instead of node:http costs 0.13 s
 * of it (undici loads on the first fetch) and checking with zod instead of the precomputed JSON
 * Schema ~0.05 s (zod and every schema evaluated). So: send.ts sends with node:http, and safe-parse.ts
 * checks an answer against the JSON Schema of its zod schema, computed at build time: an answer it
 * vouches for is exactly what zod would return. Anything it cannot vouch for, and every error, goes
 * through @forge/shared itself, loaded then. See docs/decisions.md.
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

  const url: ForgeClient['url'] = (name, input) => {
    const i = (input ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown> };
    return baseUrl + withQuery(buildPath(ROUTES[name].path, i.params), i.query);
  };

  const caller: RouteCaller<RequestBody, IncomingHttpHeaders> = {
    baseUrl,
    ...(options.token ? { token: options.token } : {}),
    errors: loadShared,
    send: async (req) => {
      const res = await send(req);
      return {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
        text: async () => res.body.toString('utf8'),
        bytes: async () => new Uint8Array(res.body),
      };
    },
  };

  async function request<N extends RouteName>(
    name: N,
    input?: CliRequestInput<N>,
  ): Promise<RouteResponse<N>> {
    const route = ROUTES[name];
    const i = (input ?? {}) as { body?: unknown; file?: UploadFile; signal?: AbortSignal } & HeaderExchange;
    const form = i.file && route.multipart ? fileBody(route.multipart, i.file) : undefined;
    const answer = await callRoute(
      caller,
      { method: route.method, path: route.path, body: route.body, binary: route.response === 'binary' },
      {
        url: url(name, input as never),
        json: i.body,
        ...(form ? { payload: { body: form.body, contentType: form.contentType } } : {}),
        ...(i.signal ? { signal: i.signal } : {}),
        ...(i.headers ? { headers: i.headers } : {}),
        ...(i.onHeaders ? { onHeaders: i.onHeaders } : {}),
      },
      // The shared client's check, made without zod for an answer of this version (safe-parse.ts).
      (json) =>
        safeParse(
          route.response === 'binary' ? null : route.response,
          json,
          (shared) => shared.routes[name].response as SafeParser,
        ),
    );
    return answer as RouteResponse<N>;
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
