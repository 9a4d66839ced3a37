import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Build } from '@forge/shared';
import { startDaemon, writeZip, type TestDaemon } from '@forge/testing';
import { buildCompleteDialog, connectedIndicator, launch, openPage, screenshot } from './support/browser.ts';

let daemon: TestDaemon;
let browser: Browser;
let scratch: string;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-verdict-'));
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** A static site whose own tests (Node's runner: one passes, three fail) Forge reads case by case. */
const TESTED_SITE = {
  'package.json': JSON.stringify({ name: 'tested-site', private: true, scripts: { test: 'node --test' } }),
  'index.html': '<!doctype html><title>tested</title><h1>tested</h1>',
  'test/sum.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "test('adds', () => assert.equal(1 + 1, 2));",
    'for (const n of [1, 2, 3]) test(`breaks ${n}`, () => assert.equal(n, 0));',
    '',
  ].join('\n'),
};

describe("the tests' verdict in Chromium against a real daemon", () => {
  it('a build that succeeded with failing tests shows "tests failed · 3 failed, 1 passed" beside its status', async () => {
    const { page, close } = await openPage(browser);
    await page.goto(daemon.url);
    await connectedIndicator(page).waitFor();
    await page
      .getByLabel('Project ZIP file')
      .setInputFiles(writeZip(scratch, 'tested-site.zip', TESTED_SITE));

    await expect
      .poll(
        async () => {
          const res = await fetch(`${daemon.url}/api/builds?project=tested-site&limit=1`);
          return ((await res.json()) as Build[])[0]?.status;
        },
        { timeout: 60_000 },
      )
      .toBe('succeeded');

    // The Build Complete dialog is modal: the page behind it is out of reach until it is closed.
    await buildCompleteDialog(page).waitFor({ timeout: 30_000 });
    await buildCompleteDialog(page).getByRole('button', { name: 'Not now' }).click();
    await buildCompleteDialog(page).waitFor({ state: 'hidden' });

    const viewer = page.getByRole('region', { name: 'Live Development' });
    const badge = viewer.getByLabel('Tests: failed · 3 failed, 1 passed');
    await badge.waitFor({ timeout: 30_000 });
    expect(await badge.textContent()).toBe('tests failed · 3 failed, 1 passed');
    // Red: under the default policy these failing tests fail the verdict (forge ci would exit 7).
    expect(await badge.getAttribute('class')).toContain('text-error');
    expect(await badge.getAttribute('title')).toBe(
      '3 failed, 1 passed (npm run test) — tests required (by default)',
    );
    // The build itself kept its own status.
    await viewer.getByText('Integration Available', { exact: true }).first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'tests-verdict');
    await close();
  });
});
