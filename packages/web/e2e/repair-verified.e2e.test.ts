import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Build } from '@forge/shared';
import { commonJsInEsm, startDaemon, writeZip, type TestDaemon } from '@forge/testing';
import { connectedIndicator, launch, openPage, screenshot } from './support/browser.ts';

// FixIt's "Verified" honesty mark in Chromium against a real daemon: a proposal (autoRepair off) is
// tried on a copy of the project before it is shown, and FixIt says what that trial showed.

let daemon: TestDaemon;
let browser: Browser;
let scratch: string;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-e2e-verified-'));
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

describe('a proposed repair in FixIt carries what its trial on a copy showed', () => {
  it('marks the rename to .cjs "Verified" with "the build passes"', async () => {
    await api('/api/settings', { method: 'POST', body: JSON.stringify({ autoRepair: false }) });
    const project = commonJsInEsm('verified-cjs');
    const { page, errors, close } = await openPage(browser);
    await page.goto(daemon.url);
    await connectedIndicator(page).waitFor();
    await page
      .getByLabel('Project ZIP file')
      .setInputFiles(writeZip(scratch, `${project.name}.zip`, project.files));
    await expect
      .poll(async () => (await latestBuild(project.name))?.status, { timeout: 60_000 })
      .toBe('failed');
    const failed = (await latestBuild(project.name))!;
    expect(failed.repairs).toMatchObject([
      {
        code: 'USE_COMMONJS_EXTENSION',
        status: 'proposed',
        verification: { status: 'passes', detail: 'verified: the build passes' },
      },
    ]);

    const report = page
      .getByRole('region', { name: 'FixIt Console' })
      .getByRole('region', { name: 'Diagnosis and repairs' });
    await report.waitFor({ timeout: 30_000 });
    const proposed = report.getByRole('region', { name: 'Proposed repairs' });
    const item = proposed.getByRole('listitem', { name: failed.repairs[0]!.summary });
    await item.getByRole('note', { name: 'Verified: the build passes', exact: true }).waitFor();
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, 'fixit-repair-verified');
    expect(errors).toEqual([]);
    await close();
  });
});
