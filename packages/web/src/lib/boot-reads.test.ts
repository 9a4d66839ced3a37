import { describe, expect, it } from 'vitest';
import { routes } from '@forge/shared';
import { BOOT_READS, type BootRead } from '../boot-protocol.ts';
import { BOOT_READ_ROUTES, bootAnswer, takeBootReads } from './boot-reads.ts';

const health = { ok: true, version: '1.2.3', uptimeMs: 5 };

describe('takeBootReads', () => {
  it('names, in order, the routes whose paths the boot script asks for', () => {
    expect(BOOT_READ_ROUTES.map((name) => routes[name].path)).toEqual([...BOOT_READS]);
    for (const name of BOOT_READ_ROUTES) expect(routes[name].method).toBe('GET');
  });

  it('answers the first GET of each path that is in, once, as the 200 it was; leaves the rest to the daemon', async () => {
    const reads: Record<string, BootRead> = {
      '/api/health': { settled: { json: health } },
      // A non-2xx answer.
      '/api/bots/status': { settled: null },
      // Still on its way.
      '/api/projects': {},
    };
    const host = { __forgeBootReads: reads };

    takeBootReads(host);

    expect(host.__forgeBootReads).toBeUndefined();
    const answer = bootAnswer('/api/health');
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toEqual(health);
    expect(bootAnswer('/api/health')).toBeNull();
    expect(bootAnswer('/api/bots/status')).toBeNull();
    expect(bootAnswer('/api/projects')).toBeNull();
    expect(bootAnswer('/api/health?project=app')).toBeNull();
  });

  it('takes only the shell reads, once, and does nothing without a boot script', () => {
    const host: { __forgeBootReads?: Record<string, BootRead> } = {
      __forgeBootReads: { '/api/settings': { settled: { json: {} } } },
    };
    takeBootReads(host);
    takeBootReads({});
    expect(bootAnswer('/api/settings')).toBeNull();
  });
});
