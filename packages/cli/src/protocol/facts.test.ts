import {
  BOT_CATEGORIES as SHARED_BOT_CATEGORIES,
  CODE_KINDS as SHARED_CODE_KINDS,
  isZipName as sharedIsZipName,
  routes,
  SETTING_KEYS as SHARED_SETTING_KEYS,
  stageLabel as sharedStageLabel,
  STAGES,
  WorkerHelloBody,
  type RouteName,
} from '@forge/shared';
import { describe, expect, it } from 'vitest';
import {
  BOT_CATEGORIES,
  CODE_KINDS,
  isZipName,
  SETTING_KEYS,
  stageLabel,
  WORKER_CONCURRENCY_MAX,
} from './facts.ts';
import { ROUTES } from './protocol.precomputed.ts';

// The read commands' stand-ins for @forge/shared answer as shared does.

describe('facts', () => {
  it('stage labels, bot categories and setting keys are shared’s', () => {
    for (const stage of [...STAGES, 'some-new-stage'])
      expect(stageLabel(stage)).toBe(sharedStageLabel(stage));
    expect(BOT_CATEGORIES).toEqual(SHARED_BOT_CATEGORIES);
    expect(SETTING_KEYS).toEqual(SHARED_SETTING_KEYS);
    expect(CODE_KINDS).toEqual(SHARED_CODE_KINDS);
  });

  it('isZipName', () => {
    for (const name of ['a.zip', 'A.ZIP', 'dir/x.Zip', 'a.zip.txt', 'zip', '.zip', 'a.zipx', 'site'])
      expect(isZipName(name), name).toBe(sharedIsZipName(name));
  });

  it('the most builds a worker may run at once is what its hello may announce', () => {
    const concurrency = WorkerHelloBody.shape.concurrency;
    expect(concurrency.safeParse(WORKER_CONCURRENCY_MAX).success).toBe(true);
    expect(concurrency.safeParse(WORKER_CONCURRENCY_MAX + 1).success).toBe(false);
  });

  it('every route, with its method and path', () => {
    expect(Object.keys(ROUTES).sort()).toEqual(Object.keys(routes).sort());
    for (const [name, route] of Object.entries(routes)) {
      expect(ROUTES[name as RouteName], name).toMatchObject({ method: route.method, path: route.path });
    }
  });
});
