import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildCompleteDialog, connectedIndicator, launch, openPage, screenshot } from './support/browser.ts';
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

/**
 * Page script (run before the app's): notes the `data-layout` of every dashboard layout added to the
 * DOM in `window.forgeLayoutsSeen`. A MutationObserver sees added nodes even when they are replaced
 * in the same task, so a desktop frame never painted would still be caught.
 */
const RECORD_LAYOUTS = `
  const seen = new Set();
  window.forgeLayoutsSeen = seen;
  const note = (node) => {
    if (!(node instanceof Element)) return;
    for (const el of [node, ...node.querySelectorAll('[data-layout]')]) {
      const layout = el.getAttribute('data-layout');
      if (layout) seen.add(layout);
    }
  };
  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(note);
  }).observe(document, { childList: true, subtree: true });
`;

/** Where the keys go and what covers the page: said by a failure instead of a bare timeout. */
const pageState = (page: Page): Promise<unknown> =>
  page.evaluate(`({
    active: document.activeElement?.tagName + '.' + document.activeElement?.className,
    dialogs: [...document.querySelectorAll('[role="dialog"],[role="alertdialog"]')].map(
      (d) => d.getAttribute('aria-label') ?? d.textContent?.slice(0, 80),
    ),
    tabs: [...document.querySelectorAll('[role="tab"]')].map((t) => t.textContent),
  })`);

/**
 * What a failed wait throws: a screenshot named `shot`, then `what` with the page's state (where the
 * keys went, what covered the editor, which tabs were open) and the wait's own error.
 */
const failWithState = (page: Page, shot: string, what: string) => async (err: unknown) => {
  await screenshot(page, shot);
  throw new Error(`${what}: ${JSON.stringify(await pageState(page))} (${String(err)})`);
};

/** Close the Build Complete dialog with "Not now" and wait until it is gone. */
async function dismissBuildComplete(page: Page): Promise<void> {
  const dialog = buildCompleteDialog(page);
  await dialog.getByRole('button', { name: 'Not now' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('the dashboard in Chromium against a real daemon', () => {
  it('uploads a ZIP, follows the stages, opens Build Complete, previews at each viewport', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto(daemon.url);
    // The build's progress arrives over /ws: upload only once the page listens.
    await connectedIndicator(page).waitFor();
    await page.getByLabel('Project ZIP file').setInputFiles(writeZip(scratch, 'e2e-app.zip', APP));

    // The Build Complete dialog opens on the window build_complete event.
    await buildCompleteDialog(page).waitFor({ timeout: 60_000 });
    await screenshot(page, 'build-complete-dialog');
    await dismissBuildComplete(page);

    // The live viewer reached the last stage.
    const viewer = page.getByRole('region', { name: 'Live Development' });
    await viewer.getByText('Integration Available', { exact: true }).first().waitFor({ timeout: 30_000 });
    await viewer.getByText('e2e-app', { exact: true }).first().waitFor();

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

    const preview = page.getByRole('region', { name: 'Live preview' });
    const iframe = preview.getByTitle(/^Preview of/);
    const viewports = preview.getByRole('group', { name: 'Viewport' });
    for (const [label, width] of [
      ['Mobile', 375],
      ['Tablet', 768],
    ] as const) {
      await viewports.getByRole('button', { name: label, exact: true }).click();
      await expect
        .poll(async () => Math.round((await iframe.boundingBox())?.width ?? Infinity))
        .toBeLessThanOrEqual(width);
      expect(await frame.locator('#title').textContent()).toBe('Built by Forge');
      await screenshot(page, `preview-${label.toLowerCase()}`);
    }
    await viewports.getByRole('button', { name: 'Desktop', exact: true }).click();
    await expect.poll(async () => Math.round((await iframe.boundingBox())?.width ?? 0)).toBeGreaterThan(400);
    await screenshot(page, 'dashboard-built');
    expect(errors).toEqual([]);
    await close();
  });

  it('opens a file from the tree, edits it in Monaco, saves with Ctrl+S, and auto-forge rebuilds it', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto(daemon.url);
    await connectedIndicator(page).waitFor();
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
    // A click on a line Monaco has drawn, near its start: the middle of .view-lines can lie below
    // the editor's visible area when lines wrap (as they do with another machine's fonts), and a
    // click there does not reach the editor.
    await editor
      .locator('.view-line')
      .first()
      .click({ position: { x: 4, y: 4 } });
    // The keys go to Monaco only once it has focus; the edit is in the editor before it is saved.
    await expect
      .poll(() => page.evaluate("document.activeElement?.closest('.monaco-editor') != null"), {
        timeout: 30_000,
      })
      .toBe(true)
      .catch(failWithState(page, 'failure-focus', 'Monaco never had the focus'));
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n// edited in the browser');
    await expect
      .poll(async () => (await editor.textContent())?.replace(/\u00a0/g, ' '), { timeout: 30_000 })
      .toContain('// edited in the browser');
    await page.keyboard.press('Control+S');
    // Either answer of a save is a toast: "File saved", or "Unable to save" with the reason, which
    // the failure then names instead of a bare timeout.
    const notifications = page.getByRole('region', { name: 'Notifications (F8)' });
    const answer = notifications.getByText('File saved').or(notifications.getByText('Unable to save file'));
    await answer
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(failWithState(page, 'failure-save', 'no answer to Ctrl+S'));
    expect(await notifications.textContent()).toContain('File saved');
    const onDisk = path.join(daemon.home, 'projects', 'e2e-app', 'build.js');
    await expect.poll(() => fs.readFileSync(onDisk, 'utf8')).toContain('// edited in the browser');
    await screenshot(page, 'editor-saved');

    // Auto-forge is on by default: the saved change is built again, and this page hears it end.
    // Waiting for it also leaves the daemon quiet for the next test (a Build Complete dialog opening
    // there would hide the page from the accessibility tree).
    await buildCompleteDialog(page).waitFor({ timeout: 60_000 });
    await dismissBuildComplete(page);
    expect(errors).toEqual([]);
    await close();
  });

  it('stacks the side panels at full width under 768 px', async () => {
    const { page, close } = await openPage(browser, { width: 390, height: 844 });
    // Every dashboard layout the page ever puts into the DOM, even one replaced before a paint.
    await page.addInitScript({ content: RECORD_LAYOUTS });
    await page.goto(daemon.url);
    const workspace = page.getByRole('region', { name: 'Workspace' });
    const actions = page.getByRole('complementary', { name: 'Project actions' });
    await workspace.waitFor();
    await actions.waitFor();
    const vw = 390;
    await expect
      .poll(async () => {
        const [w, a] = await Promise.all([workspace.boundingBox(), actions.boundingBox()]);
        if (!w || !a) return null;
        // Full width of the content area (a few px of page padding at most), actions below.
        return { workspace: w.width > vw - 40, actions: a.width > vw - 40, actionsBelow: a.y > w.y };
      })
      .toEqual({ workspace: true, actions: true, actionsBelow: true });
    // Never a frame of the desktop columns on the way.
    expect(await page.evaluate('[...window.forgeLayoutsSeen]')).toEqual(['stacked']);
    await screenshot(page, 'dashboard-mobile');
    await close();
  });
});
