import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

/** The built web app (pnpm build). */
export const WEB_DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The first-load JS budget, gzip: what a browser must fetch and run before the dashboard's first paint. */
export const FIRST_LOAD_BUDGET_KB = 200;

/**
 * The scripts index.html makes the browser fetch before any screen code runs: its module scripts and
 * modulepreloads (Vite lists every static import of the entry there). Paths relative to dist/.
 */
export function firstLoadScripts(dist = WEB_DIST): string[] {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/?([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  return [...new Set(files)];
}

/**
 * The scripts index.html carries inline (the boot script, vite.config.ts): first-load JS too, run
 * before anything is fetched, so they count against the budget with the files.
 */
export function inlineScripts(dist = WEB_DIST): string[] {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1]!)
    .filter((code) => code.length > 0);
}

/** Raw and gzip (level 9, as the page is sent) bytes of index.html's inline scripts. */
export function inlineBytes(dist = WEB_DIST): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const code of inlineScripts(dist)) {
    raw += Buffer.byteLength(code);
    gzip += zlib.gzipSync(code, { level: 9 }).length;
  }
  return { raw, gzip };
}

/**
 * gzip size of a built file at level 9 (what the build writes beside it as .gz, and what the daemon
 * sends a browser that accepts gzip): deterministic, so a test may hold it to a budget.
 */
export function gzipBytes(file: string, dist = WEB_DIST): number {
  return zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
}

/** Sum of raw and gzip bytes of built files. */
export function jsBytes(files: readonly string[], dist = WEB_DIST): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    raw += fs.statSync(path.join(dist, file)).size;
    gzip += gzipBytes(file, dist);
  }
  return { raw, gzip };
}
