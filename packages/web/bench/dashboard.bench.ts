// Dashboard benchmark: first-load JS (gzip, before Monaco loads) against the 300 KB budget, and the
// time until the dashboard is interactive in headless Chromium against a plain page from the same
// daemon (GET /api/health rendered as a document), median of 5 fresh browser contexts.
// Run: pnpm bench dashboard   (needs pnpm build and /usr/bin/chromium; FORGE_BENCH_RUNS=n for more runs)
//
// Below the table, a breakdown of the same runs says where the time went: when the page, its
// first-load files, the socket and the first API answer arrived, when the load event fired and when
// the two things the interactive check waits for were first in the page (from the navigation's
// start, as the browser saw it), and how long the page's main thread was busy until the check
// passed. Playwright checks right after the load event, then 20, 50, 100, 100 ms and every 500 ms
// later, each check waiting for the page's main thread: the gap between "in the page" and
// "interactive" is that wait.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { CDPSession } from 'playwright-core';
import { launch } from '../e2e/support/browser.ts';
import { startDaemon } from '@forge/testing';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const BUDGET_KB = 300;
const RUNS = Number(process.env.FORGE_BENCH_RUNS) || 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// What index.html makes the browser fetch before any screen code runs: scripts and modulepreloads.
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const firstLoad = [
  ...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/?([^"]+\.js)"/g),
].map((m) => m[1]!);
let raw = 0;
let gz = 0;
for (const file of new Set(firstLoad)) {
  const data = fs.readFileSync(path.join(dist, file));
  raw += data.length;
  gz += zlib.gzipSync(data).length;
}
const monaco = firstLoad.some((f) => /monaco|editor\.api/i.test(f));

/** One run's milestones, in ms from the navigation's start as the page's own clock says. */
interface Breakdown {
  html: number;
  load: number;
  /** Connected and the upload control first both in the page (a MutationObserver's clock). */
  inPage: number;
  /** The last of index.html's scripts, modulepreloads and stylesheets has arrived. */
  firstLoad: number;
  /** Bytes those took on the wire (compressed when the daemon sent them compressed). */
  firstLoadWire: number;
  socketOpen: number;
  firstApi: number;
  /** Main-thread time spent in tasks / in script until interactive (CDP Performance metrics). */
  busy: number;
  script: number;
  layoutAndStyle: number;
}

/**
 * Runs in the page before its scripts: notes when an element reading exactly "Connected" and the
 * upload control are first both in the document (what the interactive check waits for). A string:
 * this file is compiled against Node's types, not the DOM's.
 */
const MARK_IN_PAGE = `
  const observer = new MutationObserver(() => {
    const connected = [...document.querySelectorAll('body *')].some(
      (e) => e.childElementCount === 0 && e.textContent === 'Connected',
    );
    if (connected && document.querySelector('[aria-label="Project ZIP file"]')) {
      window.__benchInPage = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
`;

/** Socket milestones from CDP's network events, on the same clock as the document's request. */
function watchSocket(cdp: CDPSession) {
  let documentAt: number | undefined;
  let openAt: number | undefined;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.type === 'Document' && documentAt === undefined) documentAt = e.timestamp;
  });
  cdp.on('Network.webSocketHandshakeResponseReceived', (e) => {
    openAt ??= e.timestamp;
  });
  return () => (documentAt !== undefined && openAt !== undefined ? (openAt - documentAt) * 1000 : NaN);
}

const daemon = await startDaemon();
const browser = await launch();
const tti: number[] = [];
const plain: number[] = [];
const breakdowns: Breakdown[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Performance.enable');
    const socketOpen = watchSocket(cdp);
    await page.addInitScript({ content: MARK_IN_PAGE });
    const t = performance.now();
    await page.goto(daemon.url);
    // Interactive: the socket says Connected and the upload control accepts a file.
    await page.getByText('Connected', { exact: true }).first().waitFor();
    await page.getByLabel('Project ZIP file').waitFor({ state: 'attached' });
    tti.push(performance.now() - t);
    const metrics = Object.fromEntries(
      (await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value * 1000]),
    );
    // No named function inside: tsx would wrap it in a helper the page does not have.
    const timing = await page.evaluate((files) => {
      // Typed loosely: this runs in the page, but is compiled against Node's types.
      const entries = performance.getEntriesByType as unknown as (type: string) => Array<{
        name: string;
        responseEnd: number;
        encodedBodySize: number;
      }>;
      const nav = entries.call(performance, 'navigation')[0]! as unknown as {
        responseEnd: number;
        loadEventStart: number;
      };
      const resources = entries.call(performance, 'resource').map((r) => ({
        path: new URL(r.name).pathname.replace(/^\//, ''),
        end: r.responseEnd,
        wire: r.encodedBodySize,
      }));
      const initial = resources.filter(
        (r) => files.includes(r.path) || /^assets\/index-.*\.css$/.test(r.path),
      );
      const api = resources.filter((r) => r.path.startsWith('api/'));
      return {
        html: nav.responseEnd,
        load: nav.loadEventStart,
        inPage: (globalThis as { __benchInPage?: number }).__benchInPage ?? NaN,
        firstLoad: Math.max(...initial.map((r) => r.end)),
        firstLoadWire: initial.filter((r) => r.path.endsWith('.js')).reduce((n, r) => n + r.wire, 0),
        firstApi: api.length ? Math.min(...api.map((r) => r.end)) : NaN,
      };
    }, firstLoad);
    breakdowns.push({
      ...timing,
      socketOpen: socketOpen(),
      busy: metrics.TaskDuration!,
      script: metrics.ScriptDuration!,
      layoutAndStyle: metrics.LayoutDuration! + metrics.RecalcStyleDuration!,
    });
    const t2 = performance.now();
    await page.goto(`${daemon.url}/api/health`);
    plain.push(performance.now() - t2);
    await context.close();
  }
} finally {
  await browser.close();
  await daemon.stop();
}

const ms = (key: keyof Breakdown) => `${median(breakdowns.map((b) => b[key])).toFixed(0)} ms`;

console.log(`\nMedian of ${RUNS} fresh contexts, headless Chromium, 1440×900.\n`);
console.log('| measure | reference | Forge | ratio |');
console.log('|---|---|---|---|');
console.log(
  `| first-load JS, gzip (${firstLoad.length} files; Monaco ${monaco ? 'INCLUDED' : 'not included'}) | budget ${BUDGET_KB} KB | ${(gz / 1024).toFixed(1)} KB (${(raw / 1024).toFixed(0)} KB raw) | ${(gz / 1024 / BUDGET_KB).toFixed(2)} |`,
);
console.log(
  `| dashboard interactive (Connected, upload ready) | plain page ${median(plain).toFixed(0)} ms | ${median(tti).toFixed(0)} ms | ${(median(tti) / median(plain)).toFixed(1)} |`,
);
console.log('\nWhere the time went (medians; milestones from the navigation start, in the page):\n');
console.log('| milestone | median |');
console.log('|---|---|');
console.log(`| page (index.html) answered | ${ms('html')} |`);
console.log(
  `| first-load scripts and styles arrived (${(median(breakdowns.map((b) => b.firstLoadWire)) / 1024).toFixed(0)} KB of JS on the wire) | ${ms('firstLoad')} |`,
);
console.log(`| socket open (handshake answered) | ${ms('socketOpen')} |`);
console.log(`| first /api answer | ${ms('firstApi')} |`);
console.log(`| load event | ${ms('load')} |`);
console.log(`| Connected and upload control in the page | ${ms('inPage')} |`);
console.log(`| main thread busy until interactive: all tasks | ${ms('busy')} |`);
console.log(`| … of which script | ${ms('script')} |`);
console.log(`| … of which style and layout | ${ms('layoutAndStyle')} |`);
