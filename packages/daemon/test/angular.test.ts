import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Build, ServerMessage, UploadResult } from '@forge/shared';
import { cleanup, startTestApp, type TestApp } from './helpers.ts';
import { makeZip, upload, watch } from './build-helpers.ts';
import { ANGULAR_APP } from './fixtures/angular-app.ts';

/**
 * A real Angular CLI project (Angular 20, Karma) built through the daemon, once for the whole file:
 * installed from the npm registry, `ng build`, previewed, then `ng test --watch=false
 * --browsers=ChromeHeadless` in the machine's Chromium (Debian's /usr/bin/chromium; CI installs it).
 * Before tests ran the way CI runs them (docs/pipeline.md#tests), its `ng test` watched, found no Chrome and
 * held TestBot for 5 minutes.
 */
let app: TestApp;
let build: Build;
let messages: ServerMessage[];

beforeAll(async () => {
  app = await startTestApp();
  const live = await watch(app);
  const result = (await (await upload(app, makeZip('ng-app.zip', ANGULAR_APP))).json()) as UploadResult;
  build = await live.finished(result.buildId!, 230_000);
  messages = live.messages.filter((m) => 'buildId' in m && m.buildId === build.id);
  if (build.status !== 'succeeded') {
    const logs = await (await fetch(`${app.url}/api/builds/${build.id}/logs?limit=10000`)).json();
    throw new Error(
      `build ${build.status}: ${JSON.stringify(build.error)}\n${JSON.stringify(logs).slice(-6000)}`,
    );
  }
}, 240_000);
// Removing the installed node_modules takes a while on a busy machine.
afterAll(cleanup, 120_000);

const testLog = (text: string) => (m: ServerMessage) =>
  m.type === 'log' && m.botName === 'TestBot' && m.message.includes(text);

describe('a real Angular CLI project', () => {
  it('is planned to test once in headless Chromium, with the evidence', () => {
    expect(build.blueprint).toMatchObject({
      framework: 'angular',
      kind: 'static-build',
      outputDir: 'dist/ng-app/browser',
      test: ['npm', 'exec', '--no', '--', 'ng', 'test', '--watch=false', '--browsers=ChromeHeadless'],
    });
    const rule = build.blueprint!.decisions.filter((d) => d.field === 'test').at(-1)!.rule;
    expect(rule).toContain('"test" script is exactly ng test');
    expect(rule).toContain('Karma via ng test (angular.json: @angular/build:karma)');
    expect(rule).toContain("CHROME_BIN: the machine's Chromium");
  });

  it('is previewed before its tests end', async () => {
    const ready = messages.findIndex((m) => m.type === 'preview-ready');
    const testsEnd = messages.findIndex(testLog('(recorded; the build goes on)'));
    expect(ready).toBeGreaterThanOrEqual(0);
    expect(testsEnd).toBeGreaterThan(ready);
    expect(messages[ready]).toMatchObject({ previewUrl: build.previewUrl });
    const steps = build.steps.map((s) => s.name);
    expect(steps.indexOf('preview')).toBeLessThan(steps.indexOf('test'));
    const page = await (await fetch(build.previewUrl!)).text();
    expect(page).toContain('<app-root></app-root>');
    expect(page).toContain('<title>Angular on Forge</title>');
  });

  it("runs ng test in the machine's Chromium, once, and the specs pass", () => {
    expect(messages.some(testLog('CHROME_BIN: '))).toBe(true);
    expect(build.test).toMatchObject({
      ran: true,
      passed: true,
      command: 'npm exec --no -- ng test --watch=false --browsers=ChromeHeadless',
    });
    expect(build.test!.reason).toBeUndefined();
    expect(build.test!.outputTail).toMatch(/Executed 2 of 2 SUCCESS/);
    expect(build.steps.find((s) => s.name === 'test')).toMatchObject({
      status: 'succeeded',
      detail: 'tests passed',
    });
  });
});
