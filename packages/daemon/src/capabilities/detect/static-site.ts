import path from 'node:path';
import type { ProjectKind, StaticSite } from '@forge/shared';
import type { DecisionLog } from './decisions.ts';
import { PACKAGE_JSON, type PackageInfo } from './package-json.ts';
import type { ProjectFiles } from './project-files.ts';
import {
  isSpaFallback,
  parseFirebaseJson,
  parseNetlifyToml,
  parseRedirects,
  parseVercelJson,
  type IgnoredRule,
} from './site-rules.ts';

/**
 * How the static preview answers a path that names no file (docs/pipeline.md, "Preview"): a
 * single-page app answers its index.html (its router draws the page); a multi-page site answers
 * its own 404.html with status 404. Decided last in the plan, from the framework and the project:
 *
 * - the site says so itself: a `_redirects` line `/* /index.html 200`, or a vercel.json rewrite of
 *   every path to /index.html → single-page app, whatever the framework;
 * - a single-page bundler (vite, cra, vue-cli, angular, parcel, webpack, a custom build, or a
 *   server-capable framework built with ssr: false: react-router-spa, remix-spa, nuxt-spa, analog-spa) → a
 *   single-page app, unless the project shows several html entry pages (Vite's
 *   build.rollupOptions.input, several html-webpack-plugin pages, Vue CLI's `pages`, Parcel given
 *   several .html files, or several .html pages beside index.html) → multi-page;
 * - a plain static site → multi-page when it has several .html pages, else a single page;
 * - every other framework (static-site generators, Next export, Astro, SvelteKit static…) writes a
 *   page per route → multi-page.
 *
 * vercel.json's rules (and cleanUrls, trailingSlash) go into the plan; `_redirects` is read by the
 * preview from the folder it serves (builds copy it there from public/ or static/), so here it is
 * only evidence, and what of it cannot be applied is listed.
 */

/** Frameworks whose build is one page and a script that routes. */
export const SINGLE_PAGE_BUNDLERS: ReadonlySet<string> = new Set([
  'vite',
  'cra',
  'vue-cli',
  'angular',
  'parcel',
  'webpack',
  'custom',
  // Server-capable frameworks built as single-page apps (ssr: false): one page that routes.
  'react-router-spa',
  'remix-spa',
  'nuxt-spa',
  'analog-spa',
]);

/** Pages a site serves for errors or as a fallback: not pages of its own. */
const ERROR_PAGES = /^(404|200|50\d|error)\.html?$/i;
const VERCEL_JSON = 'vercel.json';
const NETLIFY_TOML = 'netlify.toml';
const FIREBASE_JSON = 'firebase.json';
const REDIRECTS = '_redirects';
/** Where builds take `_redirects` from (copied into the output as is), after the served folder itself. */
const REDIRECTS_SOURCES = ['public', 'static', 'src', '.'];

interface PlanSoFar {
  kind: ProjectKind;
  framework: string;
  /** Project-relative. */
  outputDir: string | null;
  appDir: string;
}

const join = (...parts: string[]): string => path.posix.join(...parts);

/** The .html pages of a folder, error pages aside. */
async function htmlPages(files: ProjectFiles, dir: string): Promise<string[]> {
  const names = await files.listFiles(dir);
  return names.filter((name) => /\.html?$/i.test(name) && !ERROR_PAGES.test(name));
}

/** A page other than index.html, to name as the evidence of several. */
const otherPage = (pages: readonly string[]): string =>
  pages.find((p) => p !== 'index.html') ?? (pages[0] as string);

/** The first config file of the app's folder whose name matches. */
async function configFile(files: ProjectFiles, appDir: string, pattern: RegExp): Promise<string | null> {
  const name = (await files.listFiles(appDir)).find((n) => pattern.test(n));
  return name === undefined ? null : join(appDir, name);
}

/** Distinct `.html` file names written as strings in a config's text. */
const htmlLiterals = (text: string): Set<string> =>
  new Set([...text.matchAll(/["'`]([^"'`\s]+\.html)["'`]/g)].map((m) => m[1] as string));

interface Evidence {
  file: string | null;
  rule: string;
}

/** Why a single-page bundler's project is several pages, or null. */
async function severalEntryPages(
  files: ProjectFiles,
  plan: PlanSoFar,
  pkg: PackageInfo | null,
): Promise<Evidence | null> {
  const { framework, appDir } = plan;
  const configText = async (pattern: RegExp): Promise<{ file: string; text: string } | null> => {
    const file = await configFile(files, appDir, pattern);
    const read = file === null ? null : await files.read(file);
    return file === null || read === null ? null : { file, text: read.text };
  };
  // Vite builds index.html alone unless build.rollupOptions.input names the pages.
  let pagesBeside = framework === 'custom' || framework === 'parcel';
  if (framework === 'vite') {
    const config = await configText(/^vite\.config\.[cm]?[jt]s$/);
    const named = config ? htmlLiterals(config.text) : new Set<string>();
    if (config && named.size >= 2) {
      return {
        file: config.file,
        rule: `it names ${named.size} html entry pages (${[...named].join(', ')})`,
      };
    }
    // Pages computed (a glob of the .html files) show only as pages beside index.html.
    pagesBeside = config !== null && /\binput\s*:/.test(config.text);
  }
  if (framework === 'webpack') {
    const config = await configText(/^webpack\..*\.?[cm]?[jt]s$/);
    const plugins = config ? (config.text.match(/new\s+HtmlWebpackPlugin\s*\(/g) ?? []).length : 0;
    if (config && plugins >= 2)
      return { file: config.file, rule: `it makes ${plugins} pages with HtmlWebpackPlugin` };
  }
  if (framework === 'vue-cli') {
    const config = await configText(/^vue\.config\.[cm]?[jt]s$/);
    if (config && /\bpages\s*:/.test(config.text))
      return { file: config.file, rule: 'it sets `pages` (a multi-page app)' };
  }
  if (framework === 'parcel' && pkg) {
    const script = pkg.scripts.build ?? '';
    const pages = script.match(/\S+\.html\b/g) ?? [];
    if (pages.length >= 2 || /\*\.html\b/.test(script)) {
      return { file: join(appDir, PACKAGE_JSON), rule: `its build gives Parcel several pages (${script})` };
    }
  }
  if (!pagesBeside) return null;
  // Pages beside index.html, in the app's folder or src/ (and public/ for a build of its own).
  for (const dir of framework === 'custom' ? ['.', 'src', 'public'] : ['.', 'src']) {
    const pages = await htmlPages(files, join(appDir, dir));
    if (pages.length >= 2) {
      return {
        file: join(appDir, dir, otherPage(pages)),
        rule: `${pages.length} .html pages in ${join(appDir, dir)}/`,
      };
    }
  }
  return null;
}

/** Records the rules that cannot be applied, one decision each (the plan says what it leaves out). */
function noteIgnored(log: DecisionLog, ignored: readonly IgnoredRule[]): void {
  for (const rule of ignored) {
    const file = rule.source.replace(/(:\d+| \S+)$/, '');
    log.add('siteRule', 'ignored', file, `${rule.source}: ${rule.rule}: ${rule.why}`);
  }
}

/**
 * The static preview's answers for this plan (null for server and unknown plans), each decision with
 * its evidence. `files` is the whole project; paths in `plan` are project-relative.
 */
export async function detectStaticSite(
  files: ProjectFiles,
  plan: PlanSoFar,
  pkg: PackageInfo | null,
  log: DecisionLog,
): Promise<StaticSite | null> {
  if (plan.kind !== 'static' && plan.kind !== 'static-build') return null;
  const site: StaticSite = { spa: false, cleanUrls: false, trailingSlash: null, rules: [] };
  let spaEvidence: Evidence | null = null;

  const vercelFile = await files.firstFile([...new Set([join(plan.appDir, VERCEL_JSON), VERCEL_JSON])]);
  const vercelText = vercelFile === null ? null : await files.read(vercelFile);
  if (vercelFile !== null && vercelText !== null) {
    const parsed = parseVercelJson(vercelText.text, vercelFile);
    if ('error' in parsed) {
      log.add('siteRules', 'none', vercelFile, `not read: ${parsed.error}`);
    } else {
      site.rules = parsed.rules;
      site.cleanUrls = parsed.cleanUrls;
      site.trailingSlash = parsed.trailingSlash;
      if (parsed.rules.length > 0) {
        log.add(
          'siteRules',
          String(parsed.rules.length),
          vercelFile,
          'redirects and rewrites that stay on the site: the preview applies them as Vercel does',
        );
      }
      if (parsed.cleanUrls)
        log.add('cleanUrls', 'true', vercelFile, 'cleanUrls: "/about.html" redirects to "/about"');
      if (parsed.trailingSlash !== null) {
        log.add(
          'trailingSlash',
          String(parsed.trailingSlash),
          vercelFile,
          `trailingSlash: ${parsed.trailingSlash}`,
        );
      }
      noteIgnored(log, parsed.ignored);
      const fallback = parsed.rules.find(isSpaFallback);
      if (fallback)
        spaEvidence = { file: vercelFile, rule: `${fallback.source} rewrites every path to ${fallback.to}` };
    }
  }

  // firebase.json's hosting: the site of it that serves this plan's output.
  const firebaseFile = await files.firstFile([...new Set([join(plan.appDir, FIREBASE_JSON), FIREBASE_JSON])]);
  const firebaseText = firebaseFile === null ? null : await files.read(firebaseFile);
  if (firebaseFile !== null && firebaseText !== null) {
    const base = path.posix.dirname(firebaseFile);
    const served =
      plan.outputDir === null
        ? null
        : base === '.'
          ? plan.outputDir
          : path.posix.relative(base, plan.outputDir);
    const parsed = parseFirebaseJson(firebaseText.text, firebaseFile, served);
    if ('error' in parsed) {
      log.add('siteRules', 'none', firebaseFile, `not read: ${parsed.error}`);
    } else {
      site.rules = [...site.rules, ...parsed.rules];
      if (parsed.rules.length > 0) {
        log.add(
          'siteRules',
          String(parsed.rules.length),
          firebaseFile,
          'hosting redirects and rewrites that stay on the site: the preview applies them as Firebase does',
        );
      }
      if (parsed.cleanUrls && !site.cleanUrls) {
        site.cleanUrls = true;
        log.add('cleanUrls', 'true', firebaseFile, 'hosting.cleanUrls: "/about.html" redirects to "/about"');
      }
      if (parsed.trailingSlash !== null && site.trailingSlash === null) {
        site.trailingSlash = parsed.trailingSlash;
        log.add(
          'trailingSlash',
          String(parsed.trailingSlash),
          firebaseFile,
          `hosting.trailingSlash: ${parsed.trailingSlash}`,
        );
      }
      noteIgnored(log, parsed.ignored);
      const fallback = parsed.rules.find(isSpaFallback);
      if (fallback && spaEvidence === null) {
        spaEvidence = {
          file: firebaseFile,
          rule: `${fallback.source} rewrites every path to ${fallback.to}`,
        };
      }
    }
  }

  // The served folder first (a plain site, or a committed output), then where builds copy it from.
  const served = plan.outputDir === null ? [] : [plan.outputDir];
  const candidates = [...served, ...REDIRECTS_SOURCES.map((dir) => join(plan.appDir, dir))];
  const redirectsFile = await files.firstFile([...new Set(candidates.map((dir) => join(dir, REDIRECTS)))]);
  const redirectsText = redirectsFile === null ? null : await files.read(redirectsFile);
  if (redirectsFile !== null && redirectsText !== null) {
    const parsed = parseRedirects(redirectsText.text, redirectsFile);
    const inServed = served.some((dir) => redirectsFile === join(dir, REDIRECTS));
    log.add(
      'siteRules',
      String(parsed.rules.length),
      redirectsFile,
      inServed
        ? 'Netlify rules in the served folder: the preview applies them'
        : 'Netlify rules: the preview applies the copy the build writes into the output folder',
    );
    noteIgnored(log, parsed.ignored);
    const fallback = parsed.rules.find(isSpaFallback);
    if (fallback && spaEvidence === null) {
      spaEvidence = {
        file: redirectsFile,
        rule: `${fallback.source}: "${fallback.from} ${fallback.to} 200" answers every path with the app's page`,
      };
    }
  }

  // netlify.toml's [[redirects]] come after _redirects, as Netlify applies them.
  const netlifyFile = await files.firstFile([...new Set([join(plan.appDir, NETLIFY_TOML), NETLIFY_TOML])]);
  const netlifyText = netlifyFile === null ? null : await files.read(netlifyFile);
  if (netlifyFile !== null && netlifyText !== null) {
    const parsed = parseNetlifyToml(netlifyText.text, netlifyFile);
    if ('error' in parsed) {
      log.add('siteRules', 'none', netlifyFile, `not read: ${parsed.error}`);
    } else {
      if (parsed.rules.length > 0) {
        site.rules = [...site.rules, ...parsed.rules];
        log.add(
          'siteRules',
          String(parsed.rules.length),
          netlifyFile,
          '[[redirects]] that stay on the site: the preview applies them after _redirects, as Netlify does',
        );
      }
      noteIgnored(log, parsed.ignored);
      const fallback = parsed.rules.find(isSpaFallback);
      if (fallback && spaEvidence === null) {
        spaEvidence = {
          file: netlifyFile,
          rule: `${fallback.source} rewrites every path to ${fallback.to} with 200`,
        };
      }
    }
  }

  if (spaEvidence !== null) {
    site.spa = true;
    log.add('spa', 'true', spaEvidence.file, `a single-page app: ${spaEvidence.rule}`);
    return site;
  }
  const fw = plan.framework;
  if (SINGLE_PAGE_BUNDLERS.has(fw)) {
    const pages = await severalEntryPages(files, plan, pkg);
    site.spa = pages === null;
    if (pages)
      log.add(
        'spa',
        'false',
        pages.file,
        `a multi-page ${fw} app: ${pages.rule}; a path that names no file answers 404`,
      );
    else {
      log.add(
        'spa',
        'true',
        plan.appDir === '.' ? PACKAGE_JSON : join(plan.appDir, PACKAGE_JSON),
        `a single-page ${fw} app (one html entry page): a path that names no file answers index.html`,
      );
    }
    return site;
  }
  if (fw === 'static' && plan.outputDir !== null) {
    const pages = await htmlPages(files, plan.outputDir);
    site.spa = pages.length < 2;
    log.add(
      'spa',
      String(site.spa),
      join(plan.outputDir, site.spa ? 'index.html' : otherPage(pages)),
      site.spa
        ? 'a static site of one page: a path that names no file answers index.html'
        : `a static site of ${pages.length} pages: a path that names no file answers its 404.html (or Not Found) with 404`,
    );
    return site;
  }
  log.add(
    'spa',
    'false',
    null,
    `${fw} writes a page per route: a path that names no file answers the site's 404.html (or Not Found) with 404`,
  );
  return site;
}
