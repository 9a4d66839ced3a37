import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECTS, type ProjectFiles } from '@forge/testing';
import type { Build, ServerMessage, UploadResult } from '@forge/shared';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip, processesWith, upload, watch } from './build-helpers.ts';

afterEach(cleanup);

/** Issue 10 §3: tests run as CI runs them, after the preview is up, and never hold the build. */

/** Writes dist/ with a page: enough for a static build with a preview. */
const BUILD_JS =
  "const fs = require('fs'); fs.mkdirSync('dist', { recursive: true }); fs.writeFileSync('dist/index.html', '<h1>built for tests</h1>');\n";

const pkg = (name: string, scripts: Record<string, string>, extra: object = {}) =>
  JSON.stringify({ name, private: true, scripts, ...extra }, null, 2);

async function build(app: TestApp, name: string, files: ProjectFiles) {
  const live = await watch(app);
  const result = (await (await upload(app, makeZip(`${name}.zip`, files))).json()) as UploadResult;
  expect(result.buildId).toBeTruthy();
  return { live, buildId: result.buildId! };
}

const testStep = (b: Build) => b.steps.find((s) => s.name === 'test');

/** Index of the first /ws message matching `pred` among this build's messages. */
const indexOf = (messages: ServerMessage[], pred: (m: ServerMessage) => boolean): number =>
  messages.findIndex(pred);

describe('a test runner that would wait forever', () => {
  it(
    'is stopped as soon as it says it watches, and the build succeeds with its preview up',
    { timeout: 60_000 },
    async () => {
      const app = await startTestApp();
      const { live, buildId } = await build(app, 'tests-watch', PROJECTS['tests-watch']);
      const b = await live.finished(buildId, 50_000);

      expect(b.status).toBe('succeeded');
      expect(b.test).toMatchObject({
        ran: true,
        passed: null,
        command: 'npm run test',
        reason: expect.stringMatching(
          /^stopped after .+: Jest entered watch mode \("Watch Usage"\) and would never end; run it once/,
        ),
      });
      expect(b.test!.outputTail).toContain('Watch Usage');
      expect(testStep(b)).toMatchObject({ status: 'failed', detail: b.test!.reason });
      // Nothing of the runner is left behind.
      await expect.poll(() => processesWith('watch-runner.js')).toEqual([]);

      // The preview reached clients (/ws) before the tests ended, with the URL the record keeps.
      const messages = live.messages;
      const ready = indexOf(messages, (m) => m.type === 'preview-ready' && m.buildId === buildId);
      const testEnd = indexOf(
        messages,
        (m) =>
          m.type === 'log' &&
          m.buildId === buildId &&
          m.botName === 'TestBot' &&
          m.message.includes('the build goes on'),
      );
      expect(ready).toBeGreaterThanOrEqual(0);
      expect(testEnd).toBeGreaterThan(ready);
      expect(messages[ready]).toMatchObject({ projectName: 'tests-watch', previewUrl: b.previewUrl });
      expect(await (await fetch(b.previewUrl!)).text()).toContain('<h1>built</h1>');
    },
  );

  it('is skipped, saying why, when Karma finds no browser', { timeout: 60_000 }, async () => {
    const app = await startTestApp();
    const { live, buildId } = await build(app, 'karma-no-browser', {
      'package.json': pkg('karma-no-browser', { build: 'node build.js', test: 'node karma-like.js' }),
      'build.js': BUILD_JS,
      // What Karma prints when CHROME_BIN names nothing, then waits for a browser that never comes.
      'karma-like.js': `console.log('INFO [karma-server]: Karma v6.4.4 server started at http://localhost:9876/');
console.log('INFO [launcher]: Starting browser ChromeHeadless');
console.error('ERROR [launcher]: No binary for ChromeHeadless browser on your platform.');
console.error('  Please, set "CHROME_BIN" env variable.');
setInterval(() => {}, 60000);
`,
    });
    const b = await live.finished(buildId, 50_000);
    expect(b.status).toBe('succeeded');
    expect(b.previewUrl).toBeTruthy();
    expect(b.test).toMatchObject({
      ran: true,
      passed: null,
      reason: expect.stringMatching(
        // What CHROME_BIN ran, or that there was none to give: this test's machine may have either.
        /Karma found no binary for ChromeHeadless; (CHROME_BIN runs \/\S+|this machine has no Chrome or Chromium)/,
      ),
    });
    expect(testStep(b)).toMatchObject({ status: 'skipped', detail: `skipped: ${b.test!.reason}` });
    await expect.poll(() => processesWith('karma-like.js')).toEqual([]);
  });

  it(
    'is skipped before it starts when it needs Chrome and the machine has none',
    { timeout: 60_000 },
    async () => {
      // The daemon's own CHROME_BIN would count as the machine's browser; the project's PATH has none.
      const saved = process.env.CHROME_BIN;
      delete process.env.CHROME_BIN;
      try {
        const app = await startTestApp();
        const { live, buildId } = await build(app, 'ng-no-browser', {
          'index.html': '<h1>static with tests</h1>',
          'package.json': pkg('ng-no-browser', { test: 'ng test' }),
          '.forgerc.json': JSON.stringify({ env: { PATH: '/forge-test/no-browser-here' } }),
        });
        const b = await live.finished(buildId, 50_000);
        expect(b.status).toBe('succeeded');
        expect(b.blueprint!.test).toEqual([
          'npm',
          'exec',
          '--no',
          '--',
          'ng',
          'test',
          '--watch=false',
          '--browsers=ChromeHeadless',
        ]);
        expect(b.test).toMatchObject({
          ran: false,
          passed: null,
          reason: expect.stringMatching(
            /runs its tests in Chrome, and this machine has no Chrome or Chromium/,
          ),
        });
        expect(testStep(b)).toMatchObject({ status: 'skipped' });
        expect(await (await fetch(b.previewUrl!)).text()).toContain('static with tests');
      } finally {
        if (saved !== undefined) process.env.CHROME_BIN = saved;
      }
    },
  );

  it(
    'is left to its timeout when it prints nothing: silence is not a reason to stop',
    { timeout: 60_000 },
    async () => {
      const app = await startTestApp();
      const { live, buildId } = await build(app, 'tests-silent', {
        'package.json': pkg('tests-silent', {
          build: 'node build.js',
          test: 'node -e "setTimeout(() => {}, 60000)"',
        }),
        'build.js': BUILD_JS,
        '.forgerc.json': JSON.stringify({ timeout: '3s' }),
      });
      const b = await live.finished(buildId, 50_000);
      expect(b.status).toBe('succeeded');
      expect(testStep(b)).toMatchObject({ status: 'timed-out', detail: 'tests timed out' });
      expect(b.test).toMatchObject({ ran: true, passed: false });
      // The verdict says the run was stopped by its timeout, not that the runner failed.
      expect(b.test!.reason).toBe('timed out after 3s, before the runner said how its tests ended');
      expect(b.verdict).toMatchObject({
        status: 'failed',
        summary: 'npm run test: timed out after 3s, before the runner said how its tests ended',
      });
    },
  );
});

describe('the preview does not wait for the tests', () => {
  it(
    'is served, and announced, while the tests still run; their result follows live',
    { timeout: 60_000 },
    async () => {
      const app = await startTestApp();
      const name = 'tests-gated';
      const { live, buildId } = await build(app, name, {
        'package.json': pkg(name, { build: 'node build.js', test: 'node gate.js' }),
        'build.js': BUILD_JS,
        // The tests end only when this test releases them: the preview must be up before that.
        'gate.js': `const fs = require('fs');
console.log('tests waiting to be released');
const timer = setInterval(() => {
  if (!fs.existsSync('release')) return;
  clearInterval(timer);
  console.log('ok 1 - released');
}, 50);
`,
      });
      const ready = await live.until((m) => m.type === 'preview-ready' && m.buildId === buildId, 50_000);
      const url = (ready as Extract<ServerMessage, { type: 'preview-ready' }>).previewUrl;
      expect(await (await fetch(url)).text()).toContain('built for tests');
      // Wait until TestBot has started, then look at the record: running, previewed, tests in flight.
      await live.until(
        (m) => m.type === 'build-output' && m.buildId === buildId && m.output.includes('tests waiting'),
      );
      const during = (await (await fetch(`${app.url}/api/builds/${buildId}`)).json()) as Build;
      expect(during).toMatchObject({
        status: 'running',
        stage: 'build-success',
        previewUrl: url,
        test: null,
      });
      expect(testStep(during)?.status).toBe('running');

      fs.writeFileSync(path.join(app.home, 'projects', name, 'release'), '');
      const b = await live.finished(buildId, 50_000);
      expect(b).toMatchObject({ status: 'succeeded', previewUrl: url });
      expect(b.test).toMatchObject({ ran: true, passed: true });
      expect(testStep(b)?.status).toBe('succeeded');
    },
  );
});

// Installs vitest from the npm registry.
describe('a real Vitest project', () => {
  it('runs vitest run once, and it passes', { timeout: 240_000 }, async () => {
    const app = await startTestApp();
    const { live, buildId } = await build(app, 'vitest-app', {
      'package.json': pkg(
        'vitest-app',
        { build: 'node build.js', test: 'vitest' },
        { type: 'commonjs', devDependencies: { vitest: '4.1.12' } },
      ),
      'build.js': BUILD_JS,
      'sum.js': 'module.exports = (a, b) => a + b;\n',
      'sum.test.mjs': `import { expect, it } from 'vitest';
import sum from './sum.js';
it('adds', () => expect(sum(2, 3)).toBe(5));
`,
    });
    const b = await live.finished(buildId, 220_000);
    if (b.status !== 'succeeded') {
      const logs = await (await fetch(`${app.url}/api/builds/${b.id}/logs?limit=10000`)).json();
      throw new Error(`build ${b.status}: ${JSON.stringify(b.error)}\n${JSON.stringify(logs).slice(-4000)}`);
    }
    expect(b.blueprint!.test).toEqual(['npm', 'exec', '--no', '--', 'vitest', 'run']);
    expect(b.blueprint!.decisions).toContainEqual(
      expect.objectContaining({
        field: 'test',
        rule: expect.stringContaining('"test" script is exactly vitest'),
      }),
    );
    expect(b.test).toMatchObject({ ran: true, passed: true, command: 'npm exec --no -- vitest run' });
    expect(b.test!.outputTail).toMatch(/1 passed/);
    expect(testStep(b)?.status).toBe('succeeded');
  });
});
