import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, openPage, screenshot } from './support/browser.ts';
import { startDaemon, type TestDaemon } from '@forge/testing';

// The description pad hands a description to the real daemon's code generator and shows its answer
// with the honesty mark the Code Generator page and the brain chat use: implemented, or a skeleton
// that says why.

let daemon: TestDaemon;
let browser: Browser;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

describe('the description pad in Chromium against a real daemon', () => {
  it('marks an implementation and a skeleton, each with its reason', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto(`${daemon.url}/description-pad`);
    await page.getByRole('heading', { level: 1, name: 'Description Pad' }).waitFor();
    const description = page.getByLabel('Description', { exact: true });
    const kind = page.getByRole('combobox', { name: 'Code kind' });
    const generate = page.getByRole('button', { name: 'Generate code' });

    await description.fill('a login form with email and password');
    await kind.selectOption('component');
    await generate.click();
    const implemented = page.getByRole('note', {
      name: /^Implemented: a form with a labelled input per field/,
    });
    await implemented.waitFor();
    expect(await implemented.getAttribute('data-honesty')).toBe('implemented');
    const reply = page.getByLabel('Generated code reply');
    expect(await reply.getByLabel('Generated code').textContent()).toContain("input: 'password'");

    await description.fill('a drag and drop kanban board');
    await generate.click();
    const skeleton = page.getByRole('note', { name: /^Skeleton: no recipe of the catalogue/ });
    await skeleton.waitFor();
    expect(await skeleton.getAttribute('data-honesty')).toBe('skeleton');
    expect(await reply.getByLabel('Generated code').textContent()).toMatch(/^\/\/ Skeleton: /);
    expect(await implemented.count()).toBe(0);
    await screenshot(page, 'description-pad-skeleton');
    expect(errors).toEqual([]);
    await close();
  });
});
