import {
  buildPath,
  routes,
  withQuery,
  type RouteInput,
  type RouteName,
  type RouteResponse,
} from '../http/routes.ts';
import { ForgeHttpError, ForgeProtocolError, ForgeUnreachableError } from './errors.ts';
import { connectSocket, type SocketHandlers, type SocketSubscription, type WebSocketLike } from './socket.ts';
import { socketUrl } from './socket-transport.ts';

export { socketUrl };

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

  async function request<N extends RouteName>(name: N, input?: RequestInput<N>): Promise<RouteResponse<N>> {
    const route = routes[name];
    const i = (input ?? {}) as { body?: unknown; form?: FormData; signal?: AbortSignal };
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (i.form) body = i.form;
    else if (route.method !== 'GET' && 'body' in route && route.body) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(i.body ?? {});
    }
    const target = url(name, input as never);
    let res: Response;
    try {
      res = await doFetch(target, {
        method: route.method,
        headers,
        body,
        credentials: options.credentials ?? 'include',
        ...(i.signal ? { signal: i.signal } : {}),
      });
    } catch (err) {
      // An aborted request is the caller's doing, not an unreachable daemon.
      if (i.signal?.aborted) throw i.signal.reason;
      throw new ForgeUnreachableError(baseUrl || 'this page', err);
    }
    if (!res.ok) throw new ForgeHttpError(res.status, res.statusText, await res.text().catch(() => ''));
    if (route.response === 'binary') return new Uint8Array(await res.arrayBuffer()) as RouteResponse<N>;
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ForgeProtocolError(`${route.method} ${route.path} answered non-JSON: ${text.slice(0, 200)}`);
    }
    const parsed = route.response.safeParse(json);
    if (!parsed.success) {
      throw new ForgeProtocolError(
        `${route.method} ${route.path} answered an unexpected shape: ${parsed.error.message}`,
      );
    }
    return parsed.data as RouteResponse<N>;
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
