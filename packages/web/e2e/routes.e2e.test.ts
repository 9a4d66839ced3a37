import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, openPage, screenshot } from './support/browser.ts';
import { startDaemon, type TestDaemon } from '@forge/testing';

let daemon: TestDaemon;
let browser: Browser;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

describe('routes in Chromium against a real daemon', () => {
  it('shows both 404 texts on an unknown route', async () => {
    const { page, close } = await openPage(browser);
    await page.goto(`${daemon.url}/no/such/page`);
    await expect.poll(() => page.getByText('404 Page Not Found').count()).toBe(1);
    expect(await page.getByText('Did you forget to add the page to the router?').count()).toBe(1);
    await screenshot(page, 'not-found');
    await close();
  });

  it('redirects /dashboard to / and shows the live connection', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto(`${daemon.url}/dashboard`);
    await page.waitForURL(`${daemon.url}/`);
    await expect.poll(() => page.getByText('Connected', { exact: true }).first().isVisible()).toBe(true);
    await screenshot(page, 'dashboard');
    // Endpoints no issue has built yet (brain, extensions, dynamic routes) answer 503 by design.
    expect(errors.filter((e) => !/status of 503/.test(e))).toEqual([]);
    await close();
  });

  it.each([
    ['settings', '/settings'],
    ['file-explorer', '/file-explorer'],
    ['console', '/console'],
    ['bot-factory', '/bot-factory'],
    ['code-generator', '/code-generator'],
    ['description-pad', '/description-pad'],
    ['login', '/login'],
    ['university', '/university'],
  ])('renders the %s screen without errors', async (name, route) => {
    const { page, errors, close } = await openPage(browser);
    await page.goto(`${daemon.url}${route}`);
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    // Failed API calls of endpoints not built yet are expected 503s, logged by the browser as resource
    // errors; anything else (exceptions, CSP violations) is a bug.
    expect(
      errors.filter((e) => !/Failed to load resource: the server responded with a status of 503/.test(e)),
    ).toEqual([]);
    await close();
  });
});
