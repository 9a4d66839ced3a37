import {
  buildPath,
  routes,
  withQuery,
  type RouteInput,
  type RouteName,
  type RouteResponse,
} from '../http/routes.ts';
import { callRoute, type RouteCaller } from './call-route.ts';
import { ForgeHttpError, ForgeProtocolError, ForgeUnreachableError } from './errors.ts';
import { connectSocket, type SocketHandlers, type SocketSubscription, type WebSocketLike } from './socket.ts';

export interface ForgeClientOptions {
  /** Daemon origin, e.g. http://127.0.0.1:4317. Empty string means same origin (the web app). */
  baseUrl: string;
  /** Access token for a daemon bound beyond loopback. */
  token?: string;
  fetch?: typeof fetch;
  /** WebSocket constructor; defaults to globalThis.WebSocket (pass `ws` on Node 20). */
  WebSocket?: new (url: string) => WebSocketLike;
  /** Send cookies (the web app's default, docs/product.md#http-calls). */
  credentials?: RequestCredentials;
}

/** A route's input, plus a signal that aborts the request (e.g. a query nobody waits for any more). */
export type RequestInput<N extends RouteName> = RouteInput<N> & { signal?: AbortSignal };

export interface ForgeClient {
  readonly baseUrl: string;
  /** Call a route by name; resolves with the parsed answer or rejects with ForgeHttpError / ForgeUnreachableError. */
  request<N extends RouteName>(
    name: N,
    // `{}` is the point here: the input is optional exactly when every field of it is optional.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    ...input: {} extends RouteInput<N> ? [RequestInput<N>?] : [RequestInput<N>]
  ): Promise<RouteResponse<N>>;
  /** URL of a route (for downloads and links). */
  url<N extends RouteName>(name: N, input?: Pick<RouteInput<N>, 'params' | 'query'>): string;
  /** Subscribe to /ws; reconnects every 3 s until closed. */
  subscribe(handlers: SocketHandlers): SocketSubscription;
}

export function createForgeClient(options: ForgeClientOptions): ForgeClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  const url: ForgeClient['url'] = (name, input) => {
    const route = routes[name];
    const i = (input ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown> };
    return baseUrl + withQuery(buildPath(route.path, i.params), i.query);
  };

  const errors = { ForgeHttpError, ForgeProtocolError, ForgeUnreachableError };
  const caller: RouteCaller<BodyInit, never> = {
    baseUrl,
    token: options.token,
    errors: () => errors,
    send: async ({ url: target, method, headers, body, signal }) => {
      const res = await doFetch(target, {
        method,
        headers,
        body,
        credentials: options.credentials ?? 'include',
        ...(signal ? { signal } : {}),
      });
      return {
        status: res.status,
        statusText: res.statusText,
        text: () => res.text(),
        bytes: async () => new Uint8Array(await res.arrayBuffer()),
      };
    },
  };

  async function request<N extends RouteName>(name: N, input?: RequestInput<N>): Promise<RouteResponse<N>> {
    const route = routes[name];
    const i = (input ?? {}) as { body?: unknown; form?: FormData; signal?: AbortSignal };
    const call = {
      method: route.method,
      path: route.path,
      body: 'body' in route && route.body !== undefined,
      binary: route.response === 'binary',
    };
    const answer = await callRoute(
      caller,
      call,
      {
        url: url(name, input as never),
        json: i.body,
        ...(i.form ? { payload: { body: i.form } } : {}),
        ...(i.signal ? { signal: i.signal } : {}),
      },
      (json) => {
        if (route.response === 'binary') return { success: true, data: json };
        const parsed = route.response.safeParse(json);
        return parsed.success ? parsed : { success: false, message: parsed.error.message };
      },
    );
    return answer as RouteResponse<N>;
  }

  return {
    baseUrl,
    request: request as ForgeClient['request'],
    url,
    subscribe: (handlers) =>
      connectSocket({
        url: socketUrl(baseUrl, options.token),
        WebSocket: options.WebSocket,
        ...handlers,
      }),
  };
}

/** ws:// or wss:// URL of /ws for a base URL ('' = the current page's origin). */
export function socketUrl(baseUrl: string, token?: string): string {
  let origin = baseUrl;
  if (!origin) {
    const loc = (globalThis as { location?: { protocol: string; host: string } }).location;
    if (!loc) throw new Error('socketUrl needs a baseUrl outside a browser');
    origin = `${loc.protocol}//${loc.host}`;
  }
  const u = new URL('/ws', origin);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  if (token) u.searchParams.set('token', token);
  return u.toString();
}
