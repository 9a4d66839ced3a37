import { afterEach, describe, expect, it } from 'vitest';
import { PROJECTS } from '@forge/testing';
import type { BotInfo, BotStatusResponse, UploadResult } from '@forge/shared';
import { cleanup, startTestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';

afterEach(cleanup);

/**
 * A project's failing tests are the project's result, not a bot's fault: TestBot did its job and
 * its card says what the tests said; a refused integrate is the request's answer, not a failed
 * job of IntegrationBot. Neither turns its bot, or its category in the navigation, red.
 */
describe('the bots of a build whose tests fail', () => {
  it(
    'TestBot stays healthy and says "ran tests: …"; the Development activity is not red',
    { timeout: 60_000 },
    async () => {
      const app = await startTestApp();
      const live = await watch(app);
      const result = (await (
        await upload(app, makeZip('tests-fail.zip', PROJECTS['tests-fail']))
      ).json()) as UploadResult;
      const build = await live.finished(result.buildId!, 50_000);
      expect(build.status).toBe('succeeded');
      expect(build.verdict).toMatchObject({ status: 'failed', policy: 'required' });
      expect(build.steps.find((s) => s.name === 'test')).toMatchObject({ status: 'failed' });

      const bots = (await (await fetch(`${app.url}/api/bots`)).json()) as BotInfo[];
      const testBot = bots.find((b) => b.name === 'TestBot')!;
      expect(testBot.status).toBe('active');
      expect(testBot.failures).toBe(0);
      expect(testBot.lastJob).toMatchObject({ ok: true, summary: 'ran tests: failed (exit 1)' });
      const status = (await (await fetch(`${app.url}/api/bots/status`)).json()) as BotStatusResponse;
      expect(status.activities.find((a) => a.type === 'development')).toMatchObject({
        status: 'online',
        count: 6,
      });
      // The bot-status message said the same on /ws.
      expect(
        live.messages.filter((m) => m.type === 'bot-status' && m.botName === 'TestBot').at(-1),
      ).toMatchObject({
        status: 'active',
      });

      // A refused integrate answers the request; IntegrationBot did not fail a job.
      const refused = await fetch(`${app.url}/api/integrate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ projectName: build.projectName, buildPath: '/not/its/output', files: [] }),
      });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe('PATH_OUTSIDE_PROJECT');
      const after = (await (await fetch(`${app.url}/api/bots`)).json()) as BotInfo[];
      expect(after.find((b) => b.name === 'IntegrationBot')).toMatchObject({ status: 'active', failures: 0 });
      const nav = (await (await fetch(`${app.url}/api/bots/status`)).json()) as BotStatusResponse;
      expect(nav.activities.every((a) => a.status !== 'error')).toBe(true);
    },
  );

  it(
    'TestBot\'s card counts the cases it read: "ran tests: 3 failed, 1 passed"',
    { timeout: 60_000 },
    async () => {
      const app = await startTestApp();
      const live = await watch(app);
      const tests = `const test = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.equal(1 + 1, 2));
for (const n of [1, 2, 3]) test(\`breaks \${n}\`, () => assert.equal(n, 0));
`;
      const zip = makeZip('counted.zip', {
        'package.json': JSON.stringify({ name: 'counted', private: true, scripts: { test: 'node --test' } }),
        'index.html': '<h1>counted</h1>',
        'test/sum.test.js': tests,
      });
      const result = (await (await upload(app, zip)).json()) as UploadResult;
      const build = await live.finished(result.buildId!, 50_000);
      expect(build.status).toBe('succeeded');
      expect(build.verdict).toMatchObject({
        status: 'failed',
        counts: { passed: 1, failed: 3, skipped: 0, total: 4 },
      });
      const testBot = ((await (await fetch(`${app.url}/api/bots`)).json()) as BotInfo[]).find(
        (b) => b.name === 'TestBot',
      )!;
      expect(testBot).toMatchObject({ status: 'active', failures: 0 });
      expect(testBot.lastJob).toMatchObject({ ok: true, summary: 'ran tests: 3 failed, 1 passed' });
    },
  );
});
