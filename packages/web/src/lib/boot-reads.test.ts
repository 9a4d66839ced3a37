import { describe, expect, it } from 'vitest';
import { routes } from '@forge/shared';
import { BOOT_READS, type BootRead } from '../boot-protocol.ts';
import { BOOT_READ_ROUTES, takeBootReads } from './boot-reads.ts';
import { createQueryClient, routeQuery } from './query-client.ts';

const health = { ok: true, version: '1.2.3', uptimeMs: 5 };

describe('takeBootReads', () => {
  it('names, in order, the routes whose paths the boot script asks for', () => {
    expect(BOOT_READ_ROUTES.map((name) => routes[name].path)).toEqual([...BOOT_READS]);
    for (const name of BOOT_READ_ROUTES) expect(routes[name].method).toBe('GET');
  });

  it('stores the answers that are in and valid, and leaves the rest to the queries', () => {
    const queryClient = createQueryClient();
    const reads: Record<string, BootRead> = {
      '/api/health': { settled: { json: health } },
      // Not the route's shape: left out, the query asks again and reports it.
      '/api/projects': { settled: { json: [{ name: 'app' }] } },
      // A non-2xx answer.
      '/api/bots/status': { settled: null },
    };
    const host = { __forgeBootReads: reads };

    takeBootReads(queryClient, host);

    expect(queryClient.getQueryData(routeQuery('health').queryKey)).toEqual(health);
    expect(queryClient.getQueryData(routeQuery('projects').queryKey)).toBeUndefined();
    expect(queryClient.getQueryData(routeQuery('botStatus').queryKey)).toBeUndefined();
    expect(host.__forgeBootReads).toBeUndefined();
  });

  it('takes what is in, once, and does nothing without a boot script', () => {
    const first = createQueryClient();
    const host: { __forgeBootReads?: Record<string, BootRead> } = {
      // Health is in; the bot status is still on its way.
      __forgeBootReads: { '/api/health': { settled: { json: health } }, '/api/bots/status': {} },
    };
    takeBootReads(first, host);
    const second = createQueryClient();
    takeBootReads(second, host);
    takeBootReads(second, {});

    expect(first.getQueryData(routeQuery('health').queryKey)).toEqual(health);
    expect(first.getQueryData(routeQuery('botStatus').queryKey)).toBeUndefined();
    expect(second.getQueryData(routeQuery('health').queryKey)).toBeUndefined();
  });
});
