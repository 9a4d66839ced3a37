import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { StaticSite } from '@forge/shared';
import { parseRedirects, type IgnoredRule } from '../detect/site-rules.ts';
import { requestPath, sendStatus, STATUS_TEXT, urlPathOf } from './request-path.ts';
import { compileRule, fillTarget, isRedirectStatus, matchRule, type CompiledRule } from './site-router.ts';
import type { PreviewFiles } from './static-files.ts';

/**
 * How a static preview answers a request the way Netlify and Vercel serve a site (docs/pipeline.md,
 * "Preview"), in this order:
 *
 * 1. forced rules (`_redirects` "!", vercel.json redirects), in the order written;
 * 2. vercel.json `cleanUrls` ("/about.html" → 308 "/about") and `trailingSlash` (308 adding or
 *    removing the slash of a path without an extension);
 * 3. the file the path names; a folder's index.html ("/docs" → 301 "/docs/" first, unless
 *    trailingSlash is false); "/edit" → edit.html, as both hosts do ("/edit/" → 301 "/edit");
 * 4. the other rules, in order: a redirect answers its status and Location, a rewrite the target's
 *    content with its status (200, or 404 for a custom not-found page);
 * 5. a single-page app's index.html for a path without an extension;
 * 6. the site's own 404.html with status 404, else a plain "Not Found".
 *
 * A rule never leads to another host (site-rules.ts ignores those), and a rewrite is not matched
 * again against the rules.
 */

export interface SiteOptions {
  /** The plan's decision; null for a plan made before Forge decided it (then `spaFallback`). */
  site?: StaticSite | null;
  /** Used when `site` is null: the fallback of previews planned before (default true). */
  spaFallback?: boolean;
}

/** What the preview applies, for the preview step's log. */
export interface SiteReport {
  spa: boolean;
  /** `_redirects` of the served folder, when it has one. */
  redirectsFile: string | null;
  /** Rules applied: the plan's (vercel.json) and the served folder's `_redirects`. */
  rules: number;
  /** Rules of the served folder's `_redirects` that are not applied, with why. */
  ignored: IgnoredRule[];
}

const REDIRECTS = '_redirects';
/** The most of a `_redirects` file read; past it the rest is not applied (and the log says so). */
const MAX_REDIRECTS_BYTES = 1024 * 1024;
const NOT_FOUND_PAGE = ['404.html'];

/** The served folder's `_redirects`, read once when the preview starts. */
function readRedirects(root: string): { rules: CompiledRule[]; ignored: IgnoredRule[]; file: string | null } {
  const file = path.join(root, REDIRECTS);
  const info = statSync(file, { throwIfNoEntry: false });
  if (!info?.isFile()) return { rules: [], ignored: [], file: null };
  if (info.size > MAX_REDIRECTS_BYTES) {
    return {
      rules: [],
      ignored: [
        { source: REDIRECTS, rule: REDIRECTS, why: `it is larger than ${MAX_REDIRECTS_BYTES} bytes` },
      ],
      file: REDIRECTS,
    };
  }
  const parsed = parseRedirects(readFileSync(file, 'utf8'), REDIRECTS);
  return { rules: parsed.rules.map(compileRule), ignored: parsed.ignored, file: REDIRECTS };
}

const hasExtension = (segments: readonly string[]): boolean => (segments.at(-1) ?? '').includes('.');

type Page = { file: string } | { redirect: string } | null;

export interface SiteAnswers {
  report: SiteReport;
  /** Answers a GET or HEAD whose method and Host were checked. */
  answer(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** The answers of the site served by `files` from `root` (its real folder, for `_redirects`). */
export function createSiteAnswers(files: PreviewFiles, root: string, options: SiteOptions): SiteAnswers {
  const site = options.site ?? null;
  const spa = site ? site.spa : (options.spaFallback ?? true);
  const cleanUrls = site?.cleanUrls ?? false;
  const trailingSlash = site?.trailingSlash ?? null;
  const fromFolder = readRedirects(root);
  const rules = [...fromFolder.rules, ...(site?.rules ?? []).map(compileRule)];
  const forced = rules.filter((r) => r.rule.force);
  const shadowed = rules.filter((r) => !r.rule.force);

  const redirect = (res: ServerResponse, status: number, location: string): void =>
    sendStatus(res, status, status === 301 || status === 308 ? 'Moved Permanently' : 'Found', {
      Location: location,
    });

  /** The page a path names in the site's files (step 3), or a redirect to its canonical form. */
  const pageOf = (segments: readonly string[], slash: boolean, search: string, follow: boolean): Page => {
    const found = files.lookup(segments);
    if (found?.kind === 'file') return { file: found.rel };
    if (found?.kind === 'dir') {
      const index = files.lookup([...segments, 'index.html']);
      if (index?.kind === 'file') {
        // Relative URLs in the folder's index.html resolve against "/dir/", not "/".
        if (!follow && !slash && segments.length > 0 && trailingSlash !== false) {
          return { redirect: `${urlPathOf(segments, true)}${search}` };
        }
        return { file: index.rel };
      }
    }
    const last = segments.at(-1);
    if (last !== undefined && !/\.html?$/i.test(last)) {
      const html = files.lookup([...segments.slice(0, -1), `${last}.html`]);
      if (html?.kind === 'file') {
        if (!follow && slash && trailingSlash !== true)
          return { redirect: `${urlPathOf(segments)}${search}` };
        return { file: html.rel };
      }
    }
    return null;
  };

  /** Step 6: the site's 404.html with 404, else a plain one. */
  const notFound = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const page = files.lookup(NOT_FOUND_PAGE);
    if (page?.kind === 'file' && (await files.sendFile(req, res, page.rel, 404))) return;
    sendStatus(res, 404, 'Not Found');
  };

  /** Applies a matched rule: a redirect, or the target's content with the rule's status. */
  const apply = async (
    req: IncomingMessage,
    res: ServerResponse,
    compiled: CompiledRule,
    params: ReadonlyMap<string, string>,
    search: string,
  ): Promise<void> => {
    const { rule } = compiled;
    const target = fillTarget(rule, params, search);
    if (isRedirectStatus(rule.status)) {
      redirect(res, rule.status, target);
      return;
    }
    const parsed = requestPath(target);
    const page = parsed.kind === 'path' ? pageOf(parsed.segments, parsed.slash, '', true) : null;
    if (page !== null && 'file' in page && (await files.sendFile(req, res, page.file, rule.status))) return;
    await notFound(req, res);
  };

  return {
    report: {
      spa,
      redirectsFile: fromFolder.file,
      rules: rules.length,
      ignored: fromFolder.ignored,
    },

    async answer(req, res) {
      const parsed = requestPath(req.url ?? '/');
      if (parsed.kind === 'refused') {
        sendStatus(res, parsed.status, STATUS_TEXT[parsed.status] as string);
        return;
      }
      const { segments, slash, search } = parsed;
      const query = new URLSearchParams(search);
      for (const compiled of forced) {
        const params = matchRule(compiled, segments, query);
        if (params) return apply(req, res, compiled, params, search);
      }
      const last = segments.at(-1);
      if (
        cleanUrls &&
        last !== undefined &&
        /\.html$/i.test(last) &&
        files.lookup(segments)?.kind === 'file'
      ) {
        const clean = last.replace(/\.html$/i, '');
        const to = clean === 'index' ? segments.slice(0, -1) : [...segments.slice(0, -1), clean];
        redirect(res, 308, `${urlPathOf(to, trailingSlash === true)}${search}`);
        return;
      }
      if (segments.length > 0 && !hasExtension(segments)) {
        if (trailingSlash === true && !slash)
          return redirect(res, 308, `${urlPathOf(segments, true)}${search}`);
        if (trailingSlash === false && slash) return redirect(res, 308, `${urlPathOf(segments)}${search}`);
      }
      const page = pageOf(segments, slash, search, false);
      if (page !== null && 'redirect' in page) return redirect(res, 301, page.redirect);
      if (page !== null && (await files.sendFile(req, res, page.file))) return;
      for (const compiled of shadowed) {
        const params = matchRule(compiled, segments, query);
        if (params) return apply(req, res, compiled, params, search);
      }
      if (spa && !hasExtension(segments) && (await files.serveIndex(req, res))) return;
      await notFound(req, res);
    },
  };
}
