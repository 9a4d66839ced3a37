import { afterEach, describe, expect, it } from 'vitest';
import { PROJECTS } from '@forge/testing';
import type { UploadResult } from '@forge/shared';
import { cleanup, startTestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

afterEach(cleanup);

/** The output cache never hands a build whose tests count the blank verdict of one that skipped them. */
describe('the output cache and the tests policy', () => {
  it(
    'builds again to run the tests when the stored output was built with --tests skip',
    { timeout: 90_000 },
    async () => {
      const app = await startTestApp();
      const live = await watch(app);
      const zip = makeZip('tests-fail.zip', PROJECTS['tests-fail']);
      const send = async (query: string) =>
        ((await (await upload(app, zip, query)).json()) as UploadResult).buildId!;

      const skipped = await live.finished(await send('?tests=skip'), 60_000);
      expect(skipped).toMatchObject({ status: 'succeeded', test: null });
      expect(skipped.verdict).toMatchObject({ status: 'skipped', policy: 'skip' });

      const required = await live.finished(await send(''), 60_000);
      expect(required.cacheHit ?? false).toBe(false);
      expect(required.test).toMatchObject({ ran: true, passed: false });
      expect(required.verdict).toMatchObject({ status: 'failed', policy: 'required' });

      // With a test report stored, the same source is a cache hit that carries the report and verdict.
      const cached = await live.finished(await send(''), 60_000);
      expect(cached.cacheHit).toBe(true);
      expect(cached.verdict).toMatchObject({ status: 'failed', policy: 'required' });
    },
  );
});
