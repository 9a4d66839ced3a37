import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Project } from '@forge/shared';
import { startDaemon, writeZip, type TestDaemon } from '@forge/testing';
import { connectedIndicator, launch, openPage } from './support/browser.ts';

let daemon: TestDaemon;
let browser: Browser;
let scratch: string;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-frame-'));
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const projectNames = async (): Promise<string[]> =>
  ((await (await fetch(`${daemon.url}/api/projects`)).json()) as Project[]).map((p) => p.name);

describe("the dashboard's first frame, before the app's script has run", () => {
  it('says Connected from the daemon, takes a ZIP, and the app uploads it once it is there', async () => {
    const { page, errors, close } = await openPage(browser);
    try {
      // The app's script is held back: what the page does until then is the first frame's alone.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(daemon.url, { waitUntil: 'commit' });

      const frame = page.locator('[data-boot-shell]');
      await connectedIndicator(page).waitFor({ timeout: 20_000 });
      expect(await frame.getByRole('status').textContent()).toBe('Connected');
      await frame
        .getByRole('main')
        .getByLabel('Project ZIP file')
        .setInputFiles(
          writeZip(scratch, 'early-frame.zip', { 'index.html': '<!doctype html><h1>Early</h1>' }),
        );
      await expect
        .poll(() =>
          frame.getByText('early-frame.zip: uploading as soon as the workspace has loaded…').count(),
        )
        .toBe(1);
      expect(await projectNames()).not.toContain('early-frame');

      release();
      // The app renders over the frame and uploads the ZIP chosen there, as its own panel would.
      await frame.waitFor({ state: 'detached', timeout: 30_000 });
      await expect.poll(projectNames, { timeout: 30_000 }).toContain('early-frame');
      await expect
        .poll(() => page.getByText('Uploaded early-frame').count(), { timeout: 30_000 })
        .toBeGreaterThan(0);
      await connectedIndicator(page).waitFor();
      // The inline boot script ran under the page's CSP; nothing failed.
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('is only on the dashboard: another screen opens without it', async () => {
    const { page, errors, close } = await openPage(browser);
    try {
      const response = await page.goto(`${daemon.url}/settings`);
      const html = await response!.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain('<div data-boot-shell');
      await page.getByRole('heading', { name: 'Settings' }).first().waitFor({ timeout: 30_000 });
      await connectedIndicator(page).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
