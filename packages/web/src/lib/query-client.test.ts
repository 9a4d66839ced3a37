import { describe, expect, it, vi } from 'vitest';
import { createQueryClient, getQueryFn, queryPath, routeQueryKey } from './query-client.ts';

function stubFetch(response: () => Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('query client (spec §7 defaults)', () => {
  it('GETs the path built from the key segments, with cookies, and reads JSON', async () => {
    const fetchMock = stubFetch(() => Response.json({ botOrchestration: true }));
    const client = createQueryClient();

    const data = await client.fetchQuery({ queryKey: ['api', 'settings'] });

    expect(data).toEqual({ botOrchestration: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/settings');
    expect(init?.credentials).toBe('include');
    expect(init?.method ?? 'GET').toBe('GET');
  });

  it('builds absolute paths from any segment style, with a trailing object as the query string', () => {
    expect(queryPath(['/api/settings'])).toBe('/api/settings');
    expect(queryPath(['api', 'bots', 'status'])).toBe('/api/bots/status');
    expect(queryPath(['/api/files/', '/content', { path: 'src/a b.ts', project: undefined }])).toBe(
      '/api/files/content?path=src%2Fa+b.ts',
    );
    expect(routeQueryKey('getSettings')).toEqual(['api', 'settings']);
  });

  it('turns a non-OK answer into "status: body text"', async () => {
    stubFetch(() => new Response('boom', { status: 500, statusText: 'Internal Server Error' }));
    const client = createQueryClient();

    await expect(client.fetchQuery({ queryKey: ['api', 'health'] })).rejects.toThrow(/^500: boom$/);
  });

  it('uses the status text when the body is empty', async () => {
    stubFetch(() => new Response('', { status: 404, statusText: 'Not Found' }));
    const client = createQueryClient();

    await expect(client.fetchQuery({ queryKey: ['api', 'nothing'] })).rejects.toThrow(/^404: Not Found$/);
  });

  it('throws on 401 by default, and answers null only when asked to', async () => {
    stubFetch(() => new Response('', { status: 401, statusText: 'Unauthorized' }));
    const client = createQueryClient();

    await expect(client.fetchQuery({ queryKey: ['api', 'memory-cells'] })).rejects.toThrow(
      '401: Unauthorized',
    );
    await expect(
      client.fetchQuery({
        queryKey: ['api', 'brain', 'status'],
        queryFn: getQueryFn({ on401: 'returnNull' }),
      }),
    ).resolves.toBeNull();
  });

  it('never retries a failure and never refetches a result on its own', async () => {
    const failing = stubFetch(() => new Response('down', { status: 503 }));
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['api', 'health'] })).rejects.toThrow('503: down');
    expect(failing).toHaveBeenCalledTimes(1);

    const ok = stubFetch(() => Response.json({ ok: true }));
    await client.fetchQuery({ queryKey: ['api', 'settings'] });
    await client.fetchQuery({ queryKey: ['api', 'settings'] });
    expect(ok).toHaveBeenCalledTimes(1);
  });
});
