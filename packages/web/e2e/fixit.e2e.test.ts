import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Build, FixResult } from '@forge/shared';
import { startDaemon, writeZip, type TestDaemon } from '@forge/testing';
import { buildCompleteDialog, connectedIndicator, launch, openPage, screenshot } from './support/browser.ts';

let daemon: TestDaemon;
let browser: Browser;
let scratch: string;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-fixit-'));
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The line of build.mjs that imports the library with the wrong letter case. */
const IMPORT_LINE = 2;

/**
 * A project broken the ordinary way, needing no registry: `node build.mjs` imports './Lib.mjs' while
 * the file is lib.mjs, which a case-sensitive file system refuses (ERR_MODULE_NOT_FOUND).
 */
const CASE_APP = {
  'package.json': JSON.stringify(
    { name: 'case-app', private: true, type: 'module', scripts: { build: 'node build.mjs' } },
    null,
    2,
  ),
  'build.mjs': [
    '// Writes dist/index.html with the title lib.mjs exports.',
    "import { title } from './Lib.mjs';",
    "import fs from 'node:fs';",
    '',
    "fs.mkdirSync('dist', { recursive: true });",
    'fs.writeFileSync(\'dist/index.html\', `<!doctype html><title>${title}</title><h1 id="title">${title}</h1>`);',
    "console.log('built case-app');",
    '',
  ].join('\n'),
  'lib.mjs': "export const title = 'Repaired by Forge';\n",
};

async function api<T>(pathname: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${daemon.url}${pathname}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init?.headers },
  });
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The newest build of a project, as the daemon records it. */
const latestBuild = async (project: string): Promise<Build | undefined> =>
  (await api<Build[]>(`/api/builds?project=${project}&limit=1`))[0];

/** Monaco's line number of the cursor (the active line number in its gutter). */
const cursorLine = (page: Page) =>
  page.locator('.monaco-editor .line-numbers.active-line-number').first().textContent();

describe('FixIt in Chromium against a real daemon', () => {
  it('shows the diagnosis of a failed build, opens its file:line in the editor, and "Apply fix" makes it green', async () => {
    // RepairBot proposes instead of repairing, so FixIt has something to apply.
    await api('/api/settings', { method: 'POST', body: JSON.stringify({ autoRepair: false }) });

    const { page, errors, close } = await openPage(browser);
    await page.goto(daemon.url);
    await connectedIndicator(page).waitFor();
    await page.getByLabel('Project ZIP file').setInputFiles(writeZip(scratch, 'case-app.zip', CASE_APP));

    // The build fails; ScanBot's diagnosis comes with its end.
    await expect
      .poll(async () => (await latestBuild('case-app'))?.status, { timeout: 60_000 })
      .toBe('failed');
    const failed = (await latestBuild('case-app'))!;
    expect(failed.diagnosis).toMatchObject({
      code: 'IMPORT_CASE_MISMATCH',
      file: 'build.mjs',
      line: IMPORT_LINE,
    });
    expect(failed.repairs).toMatchObject([
      { code: 'FIX_IMPORT_CASE', status: 'proposed', files: ['build.mjs'] },
    ]);

    // FixIt shows it: summary, file:line, suggestion, and the proposed repair with its diff.
    const fixit = page.getByRole('region', { name: 'FixIt Console' });
    const report = fixit.getByRole('region', { name: 'Diagnosis and repairs' });
    await report.waitFor({ timeout: 30_000 });
    const diagnosis = report.getByRole('group', { name: 'Diagnosis' });
    await diagnosis.getByText(failed.diagnosis!.summary, { exact: true }).waitFor();
    if (failed.diagnosis!.suggestion)
      await diagnosis.getByText(failed.diagnosis!.suggestion, { exact: true }).waitFor();
    const proposed = report.getByRole('region', { name: 'Proposed repairs' });
    const diff = proposed.getByRole('region', { name: 'Change of build.mjs' });
    await expect
      .poll(() => diff.locator('tr[data-kind="remove"]').first().textContent())
      .toContain("'./Lib.mjs'");
    expect(await diff.locator('tr[data-kind="add"]').first().textContent()).toContain("'./lib.mjs'");
    // The Build Failed state in the Live Development viewer says the same.
    const viewer = page.getByRole('region', { name: 'Live Development' });
    await viewer.getByRole('group', { name: 'Diagnosis' }).getByText(failed.diagnosis!.summary).waitFor();
    await report.scrollIntoViewIfNeeded();
    await screenshot(page, 'fixit-diagnosis');

    // build.mjs:2 opens the file in the editor with the cursor on that line.
    await diagnosis.getByRole('button', { name: new RegExp(`^build\\.mjs:${IMPORT_LINE}(:\\d+)?$`) }).click();
    const editor = page.locator('.monaco-editor .view-lines').first();
    await editor.waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => (await editor.textContent())?.replace(/\u00a0/g, ' '))
      .toContain("import { title } from './Lib.mjs';");
    await expect.poll(() => cursorLine(page), { timeout: 10_000 }).toBe(String(IMPORT_LINE));
    expect(await page.getByRole('tab', { name: /build\.mjs/ }).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'fixit-editor-at-line');

    // Apply fix: the daemon's message, and the next build goes green.
    const answer = page.waitForResponse((res) => res.url().endsWith(`/api/builds/${failed.id}/fix`));
    await proposed.getByRole('button', { name: 'Apply fix' }).click();
    const response = await answer;
    expect(response.status()).toBe(200);
    const result = (await response.json()) as FixResult;
    await page
      .getByRole('region', { name: 'Notifications (F8)' })
      .getByText(result.message)
      .first()
      .waitFor();
    await buildCompleteDialog(page).waitFor({ timeout: 60_000 });
    await expect
      .poll(async () => (await api<Build>(`/api/builds/${result.buildId}`)).status)
      .toBe('succeeded');
    await buildCompleteDialog(page).getByRole('button', { name: 'Not now' }).click();
    await buildCompleteDialog(page).waitFor({ state: 'hidden' });
    await viewer.getByText('Integration Available', { exact: true }).first().waitFor({ timeout: 30_000 });

    // The repaired file is what the editor shows now, and FixIt offers to undo the repair.
    await expect
      .poll(async () => (await editor.textContent())?.replace(/\u00a0/g, ' '), { timeout: 30_000 })
      .toContain("import { title } from './lib.mjs';");
    const applied = report.getByRole('region', { name: 'Applied repairs' });
    await applied.getByRole('button', { name: 'Undo' }).waitFor({ timeout: 30_000 });
    await report.scrollIntoViewIfNeeded();
    await screenshot(page, 'fixit-repaired');

    expect(errors).toEqual([]);
    await close();
  });
});
