import { vi } from 'vitest';
import { DEFAULT_SETTINGS, type HealthResponse, type Settings } from '@forge/shared';

export interface FakeDaemonRequest {
  method: string;
  path: string;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

export const json = (value: unknown, status = 200): Response =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

/**
 * A global fetch that answers the few routes the shell uses, like the daemon would. `onPostSettings`
 * decides the answer to a settings change (default: apply it and return the settings).
 */
export function installFakeDaemon(
  options: {
    settings?: Settings;
    health?: HealthResponse;
    onPostSettings?: (body: Record<string, unknown>, settings: Settings) => Response | Promise<Response>;
  } = {},
) {
  let settings = { ...(options.settings ?? DEFAULT_SETTINGS) };
  const requests: FakeDaemonRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://forge.test',
    );
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({ method, path: url.pathname + url.search, body, credentials: init?.credentials });
    if (method === 'GET' && url.pathname === '/api/health') {
      return json(options.health ?? { ok: true, version: '1.0.0', uptimeMs: 1234 });
    }
    if (method === 'GET' && url.pathname === '/api/settings') return json(settings);
    if (method === 'GET' && url.pathname === '/api/bots/status') {
      // The whole fleet online, as a quiet daemon reports it.
      const activities = [
        { type: 'infrastructure', count: 6, status: 'online' },
        { type: 'development', count: 6, status: 'online' },
        { type: 'operations', count: 6, status: 'online' },
        { type: 'services', count: 7, status: 'online' },
      ];
      return json({ success: true, activities });
    }
    if (method === 'POST' && url.pathname === '/api/settings') {
      const update = body as Record<string, unknown>;
      if (options.onPostSettings) return options.onPostSettings(update, settings);
      settings = { ...settings, ...update };
      return json(settings);
    }
    return json({ error: 'No such API route.', code: 'NOT_FOUND' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetch: fetchMock, requests };
}
