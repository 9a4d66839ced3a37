import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, openPage, screenshot } from './support/browser.ts';
import { startDaemon, type TestDaemon } from '@forge/testing';

let daemon: TestDaemon;
let browser: Browser;

const GREETING = 'Good morning brain';
const CODE = 'correct horse 1234';

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startDaemon(), launch()]);
  for (const [route, body] of [
    ['/api/brain/greeting', { greeting: GREETING }],
    ['/api/brain/code', { code: CODE }],
  ] as const) {
    const res = await fetch(`${daemon.url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  }
});
afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
});

describe('the brain chat in Chromium against a real daemon', () => {
  it('marks an answer the brain does not know, with what would let it answer', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto(daemon.url);
    const chat = page.getByRole('region', { name: 'Brain chat' });
    const box = chat.getByRole('textbox', { name: 'Message to the brain' });
    const say = async (text: string, answer: string | RegExp) => {
      await box.fill(text);
      await box.press('Enter');
      await chat.getByRole('listitem').filter({ hasText: answer }).last().waitFor();
    };
    await say(GREETING, 'Hello. Now send your code phrase.');
    await say(CODE, 'Authentication successful. Session established.');

    await say('what is the plan of project ghost-town?', 'I don\'t know a project named "ghost-town".');
    const mark = chat.getByRole('note', { name: /^I don't know: To answer, it needs / });
    await mark.waitFor();
    expect(await mark.getAttribute('data-honesty')).toBe('unknown');
    expect(await chat.getByRole('note').count()).toBe(1);
    await screenshot(page, 'brain-chat-unknown');

    await say('help', "I'm BrainBot.");
    // A known answer carries no mark: still the one.
    expect(await chat.getByRole('note').count()).toBe(1);
    expect(errors).toEqual([]);
    await close();
  });
});
