import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Settings } from '@forge/shared';
import { REPO_ROOT, startDaemon, writeZip, type TestDaemon } from '@forge/testing';
import { connectedIndicator, launch, openPage } from './support/browser.ts';

let daemon: TestDaemon;
let browser: Browser;
let scratch: string;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-ext-'));
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The example extension the repo ships (examples/extensions/hello), zipped as a user would. */
function helloZip(): string {
  const dir = path.join(REPO_ROOT, 'examples/extensions/hello');
  const files = Object.fromEntries(
    fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name), 'utf8')]),
  );
  return writeZip(scratch, 'hello.zip', files);
}

const settings = async (): Promise<Settings> =>
  (await (await fetch(`${daemon.url}/api/settings`)).json()) as Settings;

describe('extensions in Chromium against a real daemon', () => {
  it('installs the example extension, opens it at its route in a sandboxed frame from another origin, and the frame cannot call the daemon', async () => {
    const before = await settings();
    const { page, close } = await openPage(browser);
    try {
      await page.goto(daemon.url);
      await connectedIndicator(page).waitFor();

      await page.getByLabel('Extension ZIP file').setInputFiles(helloZip());
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Installed Hello' }).count(), {
          timeout: 30_000,
        })
        .toBe(1);

      await page.getByRole('link', { name: 'Open Hello' }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/ext/hello');

      const frameElement = page.locator('iframe[title="Hello"]');
      await frameElement.waitFor({ timeout: 20_000 });
      expect(await frameElement.getAttribute('sandbox')).not.toContain('allow-same-origin');

      // The extension's own page runs: its script wrote where it was served from.
      const frame = page.frameLocator('iframe[title="Hello"]');
      const origin = frame.locator('#origin');
      await expect.poll(() => origin.textContent(), { timeout: 20_000 }).toMatch(/^Served from /);
      const src = new URL((await frameElement.getAttribute('src'))!);
      expect(src.origin).not.toBe(new URL(daemon.url).origin);

      // From inside the frame, the daemon's API is out of reach: a JSON POST needs a CORS
      // preflight the daemon does not grant, and a "simple" POST must not change anything either.
      const handle = await frameElement.elementHandle();
      const inner = await handle!.contentFrame();
      const attempt = await inner!.evaluate(async (daemonUrl) => {
        const flip = { debugMode: true };
        const results: string[] = [];
        for (const init of [
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(flip) },
          { method: 'POST', mode: 'no-cors' as const, body: JSON.stringify(flip) },
        ]) {
          try {
            const res = await fetch(`${daemonUrl}/api/settings`, init);
            results.push(`answered ${res.type} ${res.status}`);
          } catch (error) {
            results.push(`refused ${(error as Error).name}`);
          }
        }
        return results;
      }, daemon.url);
      expect(attempt[0]).toMatch(/^refused /);
      expect(await settings()).toEqual(before);
    } finally {
      await close();
    }
  });
});
