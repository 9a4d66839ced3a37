import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Build, UploadResult } from '@forge/shared';
import { startDaemon, writeZip, type TestDaemon } from '@forge/testing';
import { connectedIndicator, launch, openPage, screenshot } from './support/browser.ts';

let daemon: TestDaemon;
let browser: Browser;
let scratch: string;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-history-'));
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** A site without dependencies whose build writes a page saying `label`. */
const release = (label: string) => ({
  'package.json': JSON.stringify({
    name: 'rollback-site',
    private: true,
    scripts: { build: 'node build.js' },
  }),
  'build.js': `require('fs').mkdirSync('dist', { recursive: true });
require('fs').writeFileSync('dist/index.html', '<!doctype html><title>release</title><h1>Release ${label}</h1>');
`,
});

/** Upload through the API and wait for the build to succeed; returns its id. */
async function build(label: string): Promise<string> {
  const form = new FormData();
  const zip = writeZip(scratch, 'rollback-site.zip', release(label));
  form.set('file', new Blob([fs.readFileSync(zip)]), 'rollback-site.zip');
  const { buildId } = (await (
    await fetch(`${daemon.url}/api/upload`, { method: 'POST', body: form })
  ).json()) as UploadResult;
  await expect
    .poll(async () => ((await (await fetch(`${daemon.url}/api/builds/${buildId}`)).json()) as Build).status, {
      timeout: 60_000,
    })
    .toBe('succeeded');
  return buildId!;
}

describe('history and rollback in Chromium against a real daemon', () => {
  it('Roll back switches the live preview to the earlier build, without building', async () => {
    // Auto-Forge rebuilds on file changes: off, so the only builds are the two uploads.
    const off = await fetch(`${daemon.url}/api/forge/toggle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ active: false }),
    });
    expect(off.status).toBe(200);
    const first = await build('one');
    const second = await build('two');

    const { page, close } = await openPage(browser);
    await page.goto(daemon.url);
    await connectedIndicator(page).waitFor();

    const history = page.getByLabel('Build history');
    const current = history.getByRole('listitem', { name: `Build ${second} (current)` });
    await current.waitFor({ timeout: 30_000 });
    const preview = page.frameLocator('iframe[title="Preview of rollback-site"]');
    await preview.getByRole('heading', { name: 'Release two' }).waitFor({ timeout: 30_000 });

    const before = (await (await fetch(`${daemon.url}/api/builds?project=rollback-site`)).json()) as Build[];
    await history.getByRole('button', { name: `Roll back rollback-site to build ${first}` }).click();
    await history.getByRole('listitem', { name: `Build ${first} (current)` }).waitFor({ timeout: 15_000 });
    await preview.getByRole('heading', { name: 'Release one' }).waitFor({ timeout: 15_000 });
    // The row of the build left behind offers the way back.
    await history.getByRole('button', { name: `Roll back rollback-site to build ${second}` }).waitFor();

    // No build ran for it.
    const after = (await (await fetch(`${daemon.url}/api/builds?project=rollback-site`)).json()) as Build[];
    expect(after.map((b) => b.id)).toEqual(before.map((b) => b.id));
    await screenshot(page, 'history-rollback');
    await close();
  });
});
