/**
 * The output a build really wrote. A plan names the folder a framework writes by default or by its
 * config; some builds write elsewhere (a folder computed in a config, a deploy config's folder, a
 * nested script's `--outDir`). After a successful build Forge checks the planned folder and, when it
 * holds no site, looks for the index.html files this build wrote — written after the build started
 * (their change time), inside the app's folder, never in node_modules or .git — and takes the
 * top-most one: a site's root, not one of its pages. It never offers a folder the build did not write.
 */
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isInsideReal } from '../../fs/contain.ts';
import { walk } from '../../fs/walk.ts';

export const INDEX_HTML = 'index.html';

/**
 * Folders frameworks write their site to (relative to the app's folder), most usual first: when the
 * build wrote several sites, one of these is taken before any other.
 */
export const FRAMEWORK_OUTPUTS: readonly string[] = [
  'dist',
  'build',
  'out',
  'public',
  '_site',
  'www',
  'storybook-static',
  'doc_build',
  'web-build',
  '_book',
  '.vitepress/dist',
  'docs/.vitepress/dist',
  '.vuepress/dist',
  'docs/.vuepress/dist',
  '.output/public',
  'build/client',
  'dist/client',
];

/** A walk of the app's folder stops after this many entries: a build's output is near its top. */
const MAX_WALK_ENTRIES = 100_000;
/** Files changed this long before the build's start still count: the kernel stamps file times from a coarse clock (a tick, 1–10 ms). */
export const CLOCK_SLACK_MS = 10;

const skipped = (rel: string): boolean => {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  return name === 'node_modules' || name === '.git';
};

/** When the file was last written or moved (its change time, which no copy or `touch -d` can set back). */
function changedAt(abs: string): number | null {
  const info = lstatSync(abs, { throwIfNoEntry: false });
  return info?.isFile() ? Math.max(info.ctimeMs, info.mtimeMs) : null;
}

/** Whether `abs` is a folder with at least one entry. */
export function hasEntries(abs: string): boolean {
  try {
    return readdirSync(abs).length > 0;
  } catch {
    return false;
  }
}

/** A folder (project-relative) holding an index.html the build wrote, with when it was written. */
export interface WrittenSite {
  dir: string;
  writtenAt: number;
}

/**
 * The top-most folders under the app's folder with an index.html written at or after `since`
 * (project-relative, newest first). The app's folder itself is never one: it holds the sources.
 */
export async function writtenSites(
  projectDir: string,
  appDir: string,
  since: number,
): Promise<WrittenSite[]> {
  const appAbs = path.join(projectDir, appDir);
  const found: WrittenSite[] = [];
  const walker = walk(appAbs, { exclude: (rel) => skipped(rel), maxEntries: MAX_WALK_ENTRIES });
  for await (const entry of walker) {
    if (entry.kind !== 'file' || entry.name !== INDEX_HTML) continue;
    const at = changedAt(entry.abs);
    if (at === null || at < since - CLOCK_SLACK_MS) continue;
    const folder = path.posix.dirname(entry.rel);
    if (folder === '.') continue;
    found.push({ dir: path.posix.join(appDir, folder), writtenAt: at });
  }
  const dirs = new Set(found.map((f) => f.dir));
  const ancestorWritten = (dir: string): boolean => {
    for (let up = path.posix.dirname(dir); up !== '.' && up !== appDir; up = path.posix.dirname(up)) {
      if (dirs.has(up)) return true;
    }
    return false;
  };
  return found
    .filter((f) => !ancestorWritten(f.dir) && isInsideReal(projectDir, path.join(projectDir, f.dir)))
    .sort((a, b) => b.writtenAt - a.writtenAt);
}

/**
 * Inside the planned folder a site's root sits at most this deep (`dist/<env>`, Angular's
 * `dist/<project>/browser`); deeper index.html files are pages of a site (`public/2024/05/post/`).
 */
export const MAX_SITE_DEPTH_IN_PLANNED = 2;

/** Folders of reports tools write as HTML (coverage, test results). */
const REPORTS = new Set([
  'coverage',
  'lcov-report',
  'playwright-report',
  'test-results',
  'reports',
  '.nyc_output',
]);

/** Whether a folder is a test or coverage report's, never a site. */
export const isReportDir = (dir: string): boolean => dir.split('/').some((part) => REPORTS.has(part));

/** The site to serve among those written: a preferred folder (in `preferred`'s order), else the newest. */
export function chooseSite(
  sites: readonly WrittenSite[],
  preferred: readonly { dir: string; why: string }[],
): { dir: string; why: string } | null {
  for (const p of preferred) {
    if (sites.some((s) => s.dir === p.dir)) return p;
  }
  // Test and coverage reports are HTML a build may write too; they are never the site.
  const newest = sites.find((s) => !s.dir.split('/').some((part) => REPORTS.has(part)));
  return newest
    ? { dir: newest.dir, why: 'the newest index.html the build wrote at the top of its folder' }
    : null;
}

/** HTML files in a folder (relative to it), in name order, at most `limit`. */
export async function htmlFilesIn(abs: string, limit = 10): Promise<{ files: string[]; more: boolean }> {
  const files: string[] = [];
  let more = false;
  for await (const entry of walk(abs, { exclude: (rel) => skipped(rel), maxEntries: MAX_WALK_ENTRIES })) {
    if (entry.kind !== 'file' || !/\.html?$/i.test(entry.name)) continue;
    if (files.length >= limit) {
      more = true;
      break;
    }
    files.push(entry.rel);
  }
  return { files, more };
}

/** Of `dirs` (project-relative folders), those holding a file written at or after `since`. */
export async function foldersWrittenSince(
  projectDir: string,
  dirs: readonly string[],
  since: number,
): Promise<string[]> {
  const out: string[] = [];
  for (const dir of dirs) {
    const abs = path.join(projectDir, dir);
    if (!isInsideReal(projectDir, abs)) continue;
    for await (const entry of walk(abs, { exclude: (rel) => skipped(rel), maxEntries: 10_000 })) {
      if (entry.kind !== 'file') continue;
      const at = changedAt(entry.abs);
      if (at !== null && at >= since - CLOCK_SLACK_MS) {
        out.push(dir);
        break;
      }
    }
  }
  return out;
}

/** Whether the index.html at the root of `abs` was written at or after `since`. */
export function indexWrittenSince(abs: string, since: number): boolean {
  const at = changedAt(path.join(abs, INDEX_HTML));
  return at !== null && at >= since - CLOCK_SLACK_MS;
}

/** Whether `abs` has an index.html at its root. */
export const hasIndexHtml = (abs: string): boolean => changedAt(path.join(abs, INDEX_HTML)) !== null;
