import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * The machine's Chromium for browser tests (Debian's; never a downloaded browser). FORGE_CHROMIUM
 * overrides the path. Its own entry (@forge/testing/chromium), so tests without a browser never load
 * playwright-core.
 */
export const CHROMIUM = process.env.FORGE_CHROMIUM ?? '/usr/bin/chromium';

export const hasChromium = (): boolean => fs.existsSync(CHROMIUM);

/** Headless, no sandbox (containers), no background traffic: the flags every browser test uses. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
