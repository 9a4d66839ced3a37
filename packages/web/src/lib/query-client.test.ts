import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, ForgeProtocolError } from '@forge/shared';
import { createQueryClient, routeQuery, routeQueryKey } from './query-client.ts';

function stubFetch(response: () => Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => response());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('route queries (docs/product.md#http-calls defaults)', () => {
  it("GETs the route's path with cookies and answers what the route's schema read", async () => {
    const fetchMock = stubFetch(() => Response.json(DEFAULT_SETTINGS));
    const client = createQueryClient();

    const data = await client.fetchQuery(routeQuery('getSettings'));

    expect(data).toEqual(DEFAULT_SETTINGS);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/settings');
    expect(init?.credentials).toBe('include');
    expect(init?.method).toBe('GET');
    expect(client.getQueryData(routeQuery('getSettings').queryKey)).toEqual(DEFAULT_SETTINGS);
  });

  it('keys a query by its path segments, then its query string (docs/product.md#http-calls)', async () => {
    expect(routeQueryKey('getSettings')).toEqual(['api', 'settings']);
    expect(routeQueryKey('botStatus')).toEqual(['api', 'bots', 'status']);
    expect(routeQueryKey('fileContent', { query: { path: 'src/a b.ts', project: undefined } })).toEqual([
      'api',
      'files',
      'content',
      { path: 'src/a b.ts' },
    ]);
    expect(routeQueryKey('buildLogs', { params: { id: 'b1' }, query: { after: 3 } })).toEqual([
      'api',
      'builds',
      'b1',
      'logs',
      { after: 3 },
    ]);
    // Without its parameters, a route's key is the prefix all of its keys share.
    expect(routeQueryKey('build')).toEqual(['api', 'builds']);

    const fetchMock = stubFetch(() => Response.json({ content: 'x', path: 'src/a b.ts' }));
    await createQueryClient().fetchQuery(routeQuery('fileContent', { query: { path: 'src/a b.ts' } }));
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/files/content?path=src%2Fa+b.ts');
  });

  it('refuses an answer the route does not allow, instead of handing it on', async () => {
    stubFetch(() => Response.json({ botOrchestration: 'yes' }));
    await expect(createQueryClient().fetchQuery(routeQuery('getSettings'))).rejects.toBeInstanceOf(
      ForgeProtocolError,
    );
  });

  it('turns a non-OK answer into "status: body text", or the status text when the body is empty', async () => {
    stubFetch(() => new Response('boom', { status: 500, statusText: 'Internal Server Error' }));
    await expect(createQueryClient().fetchQuery(routeQuery('health'))).rejects.toThrow(/^500: boom$/);

    stubFetch(() => new Response('', { status: 404, statusText: 'Not Found' }));
    await expect(createQueryClient().fetchQuery(routeQuery('projects'))).rejects.toThrow(/^404: Not Found$/);
  });

  it('throws on 401', async () => {
    stubFetch(() => new Response('', { status: 401, statusText: 'Unauthorized' }));
    await expect(createQueryClient().fetchQuery(routeQuery('memoryCells'))).rejects.toThrow(
      '401: Unauthorized',
    );
  });

  it('never retries a failure and never refetches a result on its own', async () => {
    const failing = stubFetch(() => new Response('down', { status: 503 }));
    const client = createQueryClient();
    await expect(client.fetchQuery(routeQuery('health'))).rejects.toThrow('503: down');
    expect(failing).toHaveBeenCalledTimes(1);

    const ok = stubFetch(() => Response.json(DEFAULT_SETTINGS));
    await client.fetchQuery(routeQuery('getSettings'));
    await client.fetchQuery(routeQuery('getSettings'));
    expect(ok).toHaveBeenCalledTimes(1);
  });
});
