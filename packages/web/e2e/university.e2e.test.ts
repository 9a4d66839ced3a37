import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { AUTH_TOKEN_STORAGE_KEY, UI_TEXT } from '@forge/shared';
import { startDaemon, type TestDaemon } from '@forge/testing';
import { connectedIndicator, launch, openPage } from './support/browser.ts';

let daemon: TestDaemon;
let browser: Browser;

/** Family accounts are added from this machine (a request without Origin), as `forge family add` does. */
async function addMember(name: string, password: string): Promise<void> {
  const res = await fetch(`${daemon.url}/api/family/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password }),
  });
  if (!res.ok) throw new Error(`adding ${name}: ${res.status} ${await res.text()}`);
}

async function signIn(page: Page, name: string, password: string): Promise<void> {
  await page.goto(`${daemon.url}/login`);
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor({ timeout: 15_000 });
}

const storedToken = (page: Page) =>
  page.evaluate(
    (key) =>
      (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(
        key,
      ),
    AUTH_TOKEN_STORAGE_KEY,
  );

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
  await addMember('ada', 'ada-password-1');
  await addMember('bob', 'bob-password-1');
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

describe('the university in Chromium against a real daemon', () => {
  it('refuses a wrong password with "Invalid credentials"', async () => {
    const { page, close } = await openPage(browser);
    try {
      await page.goto(`${daemon.url}/login`);
      await page.getByLabel('Username').fill('ada');
      await page.getByLabel('Password').fill('not-her-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect
        .poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 })
        .toBe(UI_TEXT.invalidCredentials);
      expect(await storedToken(page)).toBeNull();
    } finally {
      await close();
    }
  });

  it('refuses a visitor without a valid token on the first navigation to /university', async () => {
    const { page, close, errors } = await openPage(browser);
    try {
      // No token at all (docs/product.md#roles): the login form appears in place of the tabs.
      await page.goto(`${daemon.url}/university/memory`);
      await page.getByText('Family access required').waitFor({ timeout: 15_000 });
      expect(await page.getByRole('navigation', { name: 'University' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(0);

      // A forged token in localStorage: the daemon refuses it, the token is dropped, back to /login.
      await page.evaluate(
        (key) =>
          (
            globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }
          ).localStorage.setItem(key, 'forged-token-0000000000000000000000000000'),
        AUTH_TOKEN_STORAGE_KEY,
      );
      await page.goto(`${daemon.url}/university/memory`);
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/login');
      await expect.poll(() => storedToken(page), { timeout: 15_000 }).toBeNull();
      await page.getByText('Family access required').waitFor({ timeout: 15_000 });
      // Nothing of the university was shown to it: the audit log is family-only.
      expect(await page.getByRole('list', { name: 'Audit log' }).count()).toBe(0);
      // The forged token is refused (401) where it was tried, and nothing else went wrong.
      expect(errors.filter((e) => !e.startsWith('401 GET /api/'))).toEqual([]);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  it('family chat between two browser contexts, live over /ws; logout ends the session', async () => {
    const ada = await openPage(browser);
    const bob = await openPage(browser);
    try {
      await signIn(ada.page, 'ada', 'ada-password-1');
      await signIn(bob.page, 'bob', 'bob-password-1');
      // The platform tab's audit log has both sign-ins (and the failed one of the test before).
      const audit = bob.page.getByRole('list', { name: 'Audit log' });
      await audit.waitFor({ timeout: 15_000 });
      await expect
        .poll(() => audit.locator('li[data-action="login"]').allTextContents(), { timeout: 15_000 })
        .toEqual([expect.stringContaining('bob'), expect.stringContaining('ada')]);
      expect(await audit.locator('li[data-action="login-failed"]').count()).toBeGreaterThan(0);
      for (const { page } of [ada, bob]) {
        await page.getByRole('link', { name: 'Family chat', exact: true }).click();
        await connectedIndicator(page).waitFor({ timeout: 15_000 });
        // The connection signed in as family: live messages will reach it.
        await page.getByText('Live', { exact: true }).waitFor({ timeout: 15_000 });
      }

      await ada.page.getByRole('textbox', { name: 'Message' }).fill('Dinner at 7?');
      await ada.page.getByRole('button', { name: 'Send' }).click();
      const bobsLog = bob.page.getByRole('log', { name: 'Family chat' });
      await bobsLog.getByText('Dinner at 7?').waitFor({ timeout: 15_000 });
      expect(await bobsLog.locator('li[data-from="ada"]').count()).toBe(1);

      await bob.page.getByRole('textbox', { name: 'Message' }).fill('Yes, bringing dessert');
      await bob.page.getByRole('button', { name: 'Send' }).click();
      const adasLog = ada.page.getByRole('log', { name: 'Family chat' });
      await adasLog.getByText('Yes, bringing dessert').waitFor({ timeout: 15_000 });

      // The history is kept by the daemon: a reload reads it back.
      await ada.page.reload();
      await ada.page.getByRole('log', { name: 'Family chat' }).getByText('Dinner at 7?').waitFor();

      // Logout revokes the token: it is gone here and the daemon refuses it from now on.
      const token = await storedToken(bob.page);
      expect(token).toBeTruthy();
      await bob.page.getByRole('button', { name: 'Logout' }).click();
      await expect.poll(() => new URL(bob.page.url()).pathname, { timeout: 15_000 }).toBe('/login');
      expect(await storedToken(bob.page)).toBeNull();
      const after = await fetch(`${daemon.url}/api/family/chat`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(after.status).toBe(401);

      expect(ada.errors).toEqual([]);
    } finally {
      await ada.close();
      await bob.close();
    }
  });
});
