// Dashboard benchmark: first-load JS (gzip, before Monaco loads) against the 300 KB budget, and the
// time until the dashboard is interactive in headless Chromium against a plain page from the same
// daemon (GET /api/health rendered as a document), median of 5 fresh browser contexts.
// Run: pnpm bench dashboard   (needs pnpm build and /usr/bin/chromium)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { launch } from '../e2e/support/browser.ts';
import { startDaemon } from '@forge/testing';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const BUDGET_KB = 300;
const RUNS = 5;
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

const daemon = await startDaemon();
const browser = await launch();
const tti: number[] = [];
const plain: number[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const t = performance.now();
    await page.goto(daemon.url);
    // Interactive: the socket says Connected and the upload control accepts a file.
    await page.getByText('Connected', { exact: true }).first().waitFor();
    await page.getByLabel('Project ZIP file').waitFor({ state: 'attached' });
    tti.push(performance.now() - t);
    const t2 = performance.now();
    await page.goto(`${daemon.url}/api/health`);
    plain.push(performance.now() - t2);
    await context.close();
  }
} finally {
  await browser.close();
  await daemon.stop();
}

console.log(`\nMedian of ${RUNS} fresh contexts, headless Chromium, 1440×900.\n`);
console.log('| measure | reference | Forge | ratio |');
console.log('|---|---|---|---|');
console.log(
  `| first-load JS, gzip (${firstLoad.length} files; Monaco ${monaco ? 'INCLUDED' : 'not included'}) | budget ${BUDGET_KB} KB | ${(gz / 1024).toFixed(1)} KB (${(raw / 1024).toFixed(0)} KB raw) | ${(gz / 1024 / BUDGET_KB).toFixed(2)} |`,
);
console.log(
  `| dashboard interactive (Connected, upload ready) | plain page ${median(plain).toFixed(0)} ms | ${median(tti).toFixed(0)} ms | ${(median(tti) / median(plain)).toFixed(1)} |`,
);
