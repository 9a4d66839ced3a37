import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '@forge/testing/chromium';
import { expect } from 'vitest';

export { CHROMIUM };
/** Screenshots of each main screen, kept as CI artifacts (README "Browser tests"). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../../artifacts/screenshots/', import.meta.url));

export const launch = (): Promise<Browser> => launchChromium();

/**
 * A page that records console errors and failed requests, so a test can assert there were none, and
 * counts the requests in flight, so a test can wait until everything a screen asked for has answered.
 */
export async function openPage(browser: Browser, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    // A failed request is recorded below with its method and URL, which the console's line lacks.
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource:')) errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('response', (response) => {
    if (response.status() >= 400) {
      const url = new URL(response.url());
      errors.push(`${response.status()} ${response.request().method()} ${url.pathname}${url.search}`);
    }
  });
  let inFlight = 0;
  page.on('request', () => inFlight++);
  page.on('requestfinished', () => inFlight--);
  page.on('requestfailed', () => inFlight--);
  return {
    page,
    errors,
    /** Resolves once no request of the page is outstanding (the socket is not a request). */
    answered: () => expect.poll(() => inFlight, { timeout: 30_000 }).toBe(0),
    close: () => context.close(),
  };
}

/** The Build Complete dialog (docs/product.md#dashboard-widgets), by the role and name Chromium gives it. */
export const buildCompleteDialog = (page: Page) =>
  page.getByRole('dialog', { name: 'Build Complete - What do you want to do with this project?' });

/**
 * The header's connection indicator once it says Connected. It is a `status`, whose name Chromium
 * does not take from its text, so it is found by role and then by text.
 */
export const connectedIndicator = (page: Page) => page.getByRole('status').filter({ hasText: /^Connected$/ });

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
