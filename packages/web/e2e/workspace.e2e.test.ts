import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, openPage, screenshot } from './support/browser.ts';
import { startDaemon, type TestDaemon } from '@forge/testing';
import { PROJECTS, writeZip } from '@forge/testing';

let daemon: TestDaemon;
let browser: Browser;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

/** A project whose build needs no install: `node build.js` writes dist/ with assets. */
const APP = PROJECTS['node-build'];
let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-zips-'));
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const previewFrame = (page: Page) => page.frameLocator('iframe[title^="Preview of"]');

describe('the dashboard in Chromium against a real daemon', () => {
  it('uploads a ZIP, follows the stages, opens Build Complete, previews at each viewport', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto(daemon.url);
    await page.getByLabel('Project ZIP file').setInputFiles(writeZip(scratch, 'e2e-app.zip', APP));

    // The Build Complete dialog opens on the window build_complete event.
    const dialog = page.getByRole('dialog', {
      name: 'Build Complete - What do you want to do with this project?',
    });
    await dialog.waitFor({ timeout: 60_000 });
    await screenshot(page, 'build-complete-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The live viewer reached the last stage.
    await expect
      .poll(() => page.getByText('Integration Available').first().isVisible(), { timeout: 30_000 })
      .toBe(true);

    // The preview frame loads the built page and its assets (from its own origin).
    const frame = previewFrame(page);
    await frame
      .locator('#title')
      .waitFor({ timeout: 30_000 })
      .catch(async (err: unknown) => {
        await screenshot(page, 'failure-preview');
        const src = await page
          .locator('iframe')
          .first()
          .getAttribute('src')
          .catch(() => 'no iframe');
        throw new Error(`preview frame never showed the page (iframe src ${src}): ${String(err)}`);
      });
    expect(await frame.locator('#title').textContent()).toBe('Built by Forge');
    await expect.poll(() => frame.locator('body').getAttribute('data-js')).toBe('ran');
    expect(
      await frame
        .locator('#title')
        .evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).color),
    ).toBe('rgb(0, 128, 128)');

    const iframe = page.locator('iframe[title^="Preview of"]');
    for (const [label, width] of [
      ['Mobile', 375],
      ['Tablet', 768],
    ] as const) {
      await page.getByRole('button', { name: label, exact: true }).click();
      await expect
        .poll(async () => Math.round((await iframe.boundingBox())!.width))
        .toBeLessThanOrEqual(width);
      expect(await frame.locator('#title').textContent()).toBe('Built by Forge');
      await screenshot(page, `preview-${label.toLowerCase()}`);
    }
    await page.getByRole('button', { name: 'Desktop', exact: true }).click();
    await expect.poll(async () => Math.round((await iframe.boundingBox())!.width)).toBeGreaterThan(400);
    await screenshot(page, 'dashboard-built');
    expect(errors.filter((e) => !/status of (503|404)/.test(e))).toEqual([]);
    await close();
  });

  it('opens a file from the tree, edits it in Monaco, saves with Ctrl+S, and the change is on disk', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto(daemon.url);
    const tree = page.getByRole('tree').first();
    const item = tree.getByRole('treeitem', { name: /build\.js/ });
    await item.waitFor({ timeout: 30_000 });
    await item.dblclick();
    const editor = page.locator('.monaco-editor .view-lines').first();
    await editor.waitFor({ timeout: 30_000 });
    // Monaco renders spaces as no-break spaces.
    await expect
      .poll(async () => (await editor.textContent())?.replace(/\u00a0/g, ' '))
      .toContain("require('fs')");
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n// edited in the browser');
    await page.keyboard.press('Control+S');
    await page.getByText('File saved').first().waitFor({ timeout: 10_000 });
    const onDisk = path.join(daemon.home, 'projects', 'e2e-app', 'build.js');
    await expect.poll(() => fs.readFileSync(onDisk, 'utf8')).toContain('// edited in the browser');
    await screenshot(page, 'editor-saved');
    expect(errors.filter((e) => !/status of (503|404)/.test(e))).toEqual([]);
    await close();
  });

  it('stacks the side panels at full width under 768 px', async () => {
    const { page, close } = await openPage(browser, { width: 390, height: 844 });
    await page.goto(daemon.url);
    const workspace = page.getByRole('region', { name: 'Workspace' });
    const actions = page.getByRole('complementary', { name: 'Project actions' });
    await workspace.waitFor();
    const vw = 390;
    for (const panel of [workspace, actions]) {
      const box = (await panel.boundingBox())!;
      // Full width of the content area (a few px of page padding at most).
      expect(box.width).toBeGreaterThan(vw - 40);
    }
    const [w, a] = [(await workspace.boundingBox())!, (await actions.boundingBox())!];
    expect(a.y).toBeGreaterThan(w.y);
    await screenshot(page, 'dashboard-mobile');
    await close();
  });
});
