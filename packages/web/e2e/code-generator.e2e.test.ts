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

describe('the code generator in Chromium against a real daemon', () => {
  it('marks an implementation and a skeleton, each with its reason', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto(`${daemon.url}/code-generator`);
    await page.getByRole('heading', { level: 1, name: 'Code Generator' }).waitFor();
    const description = page.getByLabel('Description');

    await description.fill('a login form with email and password');
    await page.getByRole('button', { name: 'Component', exact: true }).click();
    const implemented = page.getByRole('note', {
      name: /^Implemented: a form with a labelled input per field/,
    });
    await implemented.waitFor();
    expect(await page.getByLabel('Generated code').textContent()).toContain("input: 'password'");

    await description.fill('a drag and drop kanban board');
    await page.getByRole('button', { name: 'Component', exact: true }).click();
    const skeleton = page.getByRole('note', { name: /^Skeleton: no recipe of the catalogue/ });
    await skeleton.waitFor();
    expect(await skeleton.getAttribute('data-honesty')).toBe('skeleton');
    expect(await page.getByLabel('Generated code').textContent()).toMatch(/^\/\/ Skeleton: /);
    expect(await implemented.count()).toBe(0);
    await screenshot(page, 'code-generator-skeleton');
    expect(errors).toEqual([]);
    await close();
  });
});
