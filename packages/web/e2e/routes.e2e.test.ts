import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { connectedIndicator, launch, openPage, screenshot } from './support/browser.ts';
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
    await page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText('Did you forget to add the page to the router?').count()).toBe(1);
    await screenshot(page, 'not-found');
    await close();
  });

  it('redirects /dashboard to / and shows the live connection', async () => {
    const { page, errors, answered, close } = await openPage(browser);
    await page.goto(`${daemon.url}/dashboard`);
    await page.waitForURL(`${daemon.url}/`);
    await connectedIndicator(page).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ state: 'attached' });
    await answered();
    await screenshot(page, 'dashboard');
    expect(errors).toEqual([]);
    await close();
  });

  it.each([
    ['settings', '/settings', 'Settings'],
    ['file-explorer', '/file-explorer', 'File Explorer'],
    ['console', '/console', 'Console'],
    ['bot-factory', '/bot-factory', 'Bot Factory'],
    ['code-generator', '/code-generator', 'Code Generator'],
    ['description-pad', '/description-pad', 'Description Pad'],
    ['login', '/login', 'Login'],
    ['university', '/university', 'University'],
  ])('renders the %s screen without errors', async (name, route, title) => {
    const { page, errors, answered, close } = await openPage(browser);
    await page.goto(`${daemon.url}${route}`);
    // The screen's chunk has loaded and rendered, and everything it asked the daemon has answered.
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await answered();
    await screenshot(page, name);
    // Anything the browser logs (a failed call, an exception, a CSP violation) is a bug.
    expect(errors).toEqual([]);
    await close();
  });
});
