import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Build } from '@forge/shared';
import { startDaemon, writeZip, type TestDaemon } from '@forge/testing';
import { buildCompleteDialog, connectedIndicator, launch, openPage, screenshot } from './support/browser.ts';

let daemon: TestDaemon;
let browser: Browser;
let scratch: string;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-why-red-'));
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** A project that builds with no registry: build.mjs writes dist/index.html with lib.mjs's title. */
const app = (importPath: string) => ({
  'package.json': JSON.stringify(
    { name: 'red-app', private: true, type: 'module', scripts: { build: 'node build.mjs' } },
    null,
    2,
  ),
  'build.mjs': [
    '// Writes dist/index.html with the title lib.mjs exports.',
    `import { title } from '${importPath}';`,
    "import fs from 'node:fs';",
    '',
    "fs.mkdirSync('dist', { recursive: true });",
    "fs.writeFileSync('dist/index.html', `<!doctype html><h1>${title}</h1>`);",
    '',
  ].join('\n'),
  'lib.mjs': "export const title = 'Green';\n",
});

async function api<T>(pathname: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${daemon.url}${pathname}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init?.headers },
  });
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const builds = (project: string) => api<Build[]>(`/api/builds?project=${project}&limit=5`);

describe('FixIt "Why is it red now?" in Chromium against a real daemon', () => {
  it('compares the failed build with the last green one and points at the changed file', async () => {
    // RepairBot only proposes, so the broken upload stays red.
    await api('/api/settings', { method: 'POST', body: JSON.stringify({ autoRepair: false }) });
    const { page, errors, close } = await openPage(browser);
    await page.goto(daemon.url);
    await connectedIndicator(page).waitFor();
    const input = page.getByLabel('Project ZIP file');

    await input.setInputFiles(
      writeZip(fs.mkdtempSync(path.join(scratch, 'g-')), 'red-app.zip', app('./lib.mjs')),
    );
    await expect
      .poll(async () => (await builds('red-app'))[0]?.status, { timeout: 60_000 })
      .toBe('succeeded');
    const green = (await builds('red-app'))[0]!;
    await buildCompleteDialog(page).getByRole('button', { name: 'Not now' }).click({ timeout: 30_000 });

    // The same project again, its import now in the wrong letter case: the build fails.
    await input.setInputFiles(
      writeZip(fs.mkdtempSync(path.join(scratch, 'r-')), 'red-app.zip', app('./Lib.mjs')),
    );
    await expect
      .poll(
        async () => {
          const [last] = await builds('red-app');
          return last && last.id !== green.id ? last.status : null;
        },
        { timeout: 60_000 },
      )
      .toBe('failed');
    const red = (await builds('red-app'))[0]!;
    expect(red.diagnosis).toMatchObject({ file: 'build.mjs', line: 2 });

    const fixit = page.getByRole('region', { name: 'FixIt Console' });
    const panel = fixit.getByRole('region', { name: 'Why is it red now?' });
    await panel.waitFor({ timeout: 30_000 });
    await panel
      .getByText(`Points at: build.mjs — changed since ${green.id}, the last green build.`, { exact: true })
      .waitFor();
    await panel.getByText(`Compared with ${green.id}, the last green build.`).waitFor();
    const reasons = panel.getByRole('list', { name: 'What the error points at' });
    expect(await reasons.textContent()).toContain('The error is in build.mjs:2');

    // The changed file's unified diff opens under its name; lib.mjs did not change and is not listed.
    const files = panel.getByRole('list', { name: 'Changed files' });
    expect(await files.locator(':scope > li').count()).toBe(1);
    await files.getByText('modified build.mjs').click();
    const view = panel.getByRole('region', { name: 'Changes to build.mjs' });
    expect(await view.locator('tr[data-kind="remove"]').first().textContent()).toContain("'./lib.mjs'");
    expect(await view.locator('tr[data-kind="add"]').first().textContent()).toContain("'./Lib.mjs'");
    await panel.getByText('Dependencies: no lockfile on either side.').waitFor();
    await panel.getByText('Plan: unchanged.').waitFor();
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'fixit-why-red');

    expect(errors).toEqual([]);
    await close();
  });
});
