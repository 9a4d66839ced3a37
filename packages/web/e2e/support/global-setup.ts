import fs from 'node:fs';
import { CHROMIUM } from './browser.ts';
import path from 'node:path';
import { DAEMON_MAIN, REPO_ROOT } from '@forge/testing';

const WEB_DIST = path.join(REPO_ROOT, 'packages/web/dist/index.html');

/** Browser tests need Debian's Chromium and the built daemon + web app; say what to run if not. */
export default function setup(): void {
  const missing: string[] = [];
  if (!fs.existsSync(CHROMIUM)) missing.push(`${CHROMIUM} (apt-get install -y chromium)`);
  if (!fs.existsSync(DAEMON_MAIN)) missing.push(`${DAEMON_MAIN} (pnpm build)`);
  if (!fs.existsSync(WEB_DIST)) missing.push(`${WEB_DIST} (pnpm build)`);
  if (missing.length) throw new Error(`Browser tests cannot run; missing:\n  ${missing.join('\n  ')}`);
}
