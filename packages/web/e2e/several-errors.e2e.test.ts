import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { otherErrors, type Build } from '@forge/shared';
import { SEVERAL_ERRORS_MAIN, severalErrors, startDaemon, writeZip, type TestDaemon } from '@forge/testing';
import { connectedIndicator, launch, openPage, screenshot } from './support/browser.ts';

// A real project with several errors (three slips a repair fixes in one pass, and an import of a
// missing file no repair may touch), built by a real daemon with autoRepair off: FixIt lists the
// diagnosis' other errors as the CLI does — the counts, each with its file:line, repairable or
// remaining.

let daemon: TestDaemon;
let browser: Browser;
let scratch: string;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-several-'));
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

async function api<T>(pathname: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${daemon.url}${pathname}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init?.headers },
  });
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${pathname}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const latestBuild = async (project: string): Promise<Build | undefined> =>
  (await api<Build[]>(`/api/builds?project=${project}&limit=1`))[0];

describe('a failure with several errors in FixIt', () => {
  it('lists the other errors under the diagnosis, which are repaired in the same pass and which remain', async () => {
    await api('/api/settings', { method: 'POST', body: JSON.stringify({ autoRepair: false }) });
    const base = severalErrors('several-slips');
    const files = {
      ...base.files, // An import of a file that is not there: no repair may invent it.
      'src/main.ts': `${SEVERAL_ERRORS_MAIN}import { tax } from './tax'\napp.dataset.tax = String(tax)\n`,
    };
    const { page, errors, close } = await openPage(browser);
    await page.goto(daemon.url);
    await connectedIndicator(page).waitFor();
    await page.getByLabel('Project ZIP file').setInputFiles(writeZip(scratch, `${base.name}.zip`, files));
    await expect
      .poll(async () => (await latestBuild(base.name))?.status, { timeout: 240_000, interval: 500 })
      .toBe('failed');
    const failed = (await latestBuild(base.name))!;
    expect(failed.diagnosis).toMatchObject({ code: 'MISSING_PACKAGE', subjects: ['clsx'] });
    const others = failed.diagnosis!.others ?? [];
    expect(others).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'IMPORT_CASE_MISMATCH', file: 'src/main.ts', line: 1 }),
        expect.objectContaining({ code: 'IMPORT_CASE_MISMATCH', file: 'src/main.ts', line: 2 }),
        expect.objectContaining({ code: 'MISSING_FILE', file: 'src/main.ts', line: 8 }),
      ]),
    );

    const report = page
      .getByRole('region', { name: 'FixIt Console' })
      .getByRole('region', { name: 'Diagnosis and repairs' });
    await report.waitFor({ timeout: 30_000 });
    const section = report.getByRole('region', { name: 'Other errors' });
    await section.waitFor();
    const repairable = others.filter((o) => o.repair).length;
    expect(repairable).toBe(2);
    const heading = `${others.length} more errors: 2 repairable in the same pass, ${others.length - 2} remain${others.length - 2 === 1 ? 's' : ''}`;
    expect(otherErrors(failed.diagnosis!)?.heading).toBe(heading);
    await section.getByText(heading, { exact: true }).waitFor();

    const items = section.getByRole('listitem');
    expect(await items.count()).toBe(Math.min(others.length, 5));
    const caseItem = section.getByRole('listitem', { name: /^Repairable: src\/main\.ts:2:\d+ / });
    expect(await caseItem.getAttribute('data-state')).toBe('repairable');
    const missingItem = section.getByRole('listitem', { name: /^Remains: src\/main\.ts:8(:\d+)? / });
    expect(await missingItem.getAttribute('data-state')).toBe('remains');
    expect(await missingItem.getByRole('button', { name: /^src\/main\.ts:8/ }).count()).toBe(1);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'fixit-other-errors');
    expect(errors).toEqual([]);
    await close();
  });
});
