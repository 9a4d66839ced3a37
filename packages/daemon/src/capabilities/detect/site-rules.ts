import type { SiteRule } from '@forge/shared';
import { parse as parseToml } from 'smol-toml';

/**
 * The redirect and rewrite rules of a static site, as Netlify's `_redirects` and vercel.json write
 * them, read into one form (SiteRule) the static preview applies (capabilities/preview/site-router.ts).
 * Only what stays on the site is kept: a redirect or rewrite to one of its paths, with ":name"
 * placeholders and a splat. A rule that needs a server or another host (a proxy to an http URL, a
 * function, a condition on country, language, role, cookie or header) is returned as ignored, with
 * why, for the plan and the preview's log to list.
 */

/** A rule not applied, and why (for a decision or a log line). */
export interface IgnoredRule {
  /** Where it was written: "public/_redirects:4", "vercel.json rewrites[2]". */
  source: string;
  /** The rule as written, shortened. */
  rule: string;
  why: string;
}

export interface ParsedRules {
  rules: SiteRule[];
  ignored: IgnoredRule[];
}

/** vercel.json's rules and its two switches. */
export interface ParsedVercel extends ParsedRules {
  cleanUrls: boolean;
  trailingSlash: boolean | null;
}

/** Statuses a rule may have: rewrites with a status (200, 404…) and redirects. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CONTENT_STATUSES = new Set([200, 404, 410, 451]);
/** Most rules read from one file: a site needs tens; thousands would only cost every request. */
export const MAX_SITE_RULES = 1_000;
const MAX_SHOWN = 120;

const shorten = (text: string): string => (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);
const isUrl = (text: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};
/** Whether a pattern in Forge's form (see SiteRule.from) can be matched: only a splat last. */
export function patternFault(from: string): string | null {
  if (!from.startsWith('/')) return 'its path does not start with "/"';
  const segments = from.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as string;
    const last = i === segments.length - 1;
    if (s === '*' || /^:\w+[*+]$/.test(s)) {
      if (!last) return 'a splat is allowed only at the end';
      continue;
    }
    if (/^:\w+$/.test(s)) continue;
    if (/[*:()?+]/.test(s)) return `"${s}" is a pattern Forge does not read (only ":name" and a final "*")`;
  }
  return null;
}

/**
 * Netlify's `_redirects`: one rule a line, `from [query=:p…] to [status][!] [conditions]`, "#"
 * comments. `source` names the file ("dist/_redirects") for each rule's line.
 */
export function parseRedirects(text: string, source: string): ParsedRules {
  const rules: SiteRule[] = [];
  const ignored: IgnoredRule[] = [];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = (lines[n] as string).replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    const where = `${source}:${n + 1}`;
    const ignore = (why: string): void => {
      ignored.push({ source: where, rule: shorten(line), why });
    };
    if (rules.length >= MAX_SITE_RULES) {
      ignore(`more than ${MAX_SITE_RULES} rules`);
      continue;
    }
    const tokens = line.split(/\s+/);
    const from = tokens.shift() as string;
    if (isUrl(from)) {
      ignore(`it matches requests to ${hostOf(from)}, another host`);
      continue;
    }
    const query: Record<string, string> = {};
    while (tokens.length > 0 && /^[^/][^=]*=/.test(tokens[0] as string) && !isUrl(tokens[0] as string)) {
      const [name, value = ''] = (tokens.shift() as string).split('=');
      query[name as string] = value;
    }
    const to = tokens.shift();
    if (to === undefined) {
      ignore('it names no target');
      continue;
    }
    let status = 301;
    let force = false;
    const statusToken = tokens[0];
    if (statusToken !== undefined && /^\d{3}!?$/.test(statusToken)) {
      tokens.shift();
      status = Number(statusToken.slice(0, 3));
      force = statusToken.endsWith('!');
    }
    const conditions = tokens.map((t) => t.split('=')[0]).filter(Boolean);
    if (conditions.length > 0) {
      ignore(`it depends on ${conditions.join(', ')}, which only Netlify's servers know`);
      continue;
    }
    const rule = siteRule({ from, to, status, force, query, except: [], source: where });
    if ('why' in rule) ignore(rule.why);
    else rules.push(rule);
  }
  return { rules, ignored };
}

/** Checks a rule read from either file; what it cannot keep it says why. */
function siteRule(rule: SiteRule): SiteRule | { why: string } {
  const { to, status } = rule;
  if (!REDIRECT_STATUSES.has(status) && !CONTENT_STATUSES.has(status)) {
    return { why: `status ${status} is not a redirect or a page status Forge serves` };
  }
  if (isUrl(to)) {
    return status === 200
      ? { why: `it proxies to ${hostOf(to)}: a server fetches it` }
      : { why: `it redirects to ${hostOf(to)}, another host` };
  }
  if (!to.startsWith('/') || to.startsWith('//') || to.includes('\\')) {
    return { why: `its target "${shorten(to)}" is not a path of the site` };
  }
  if (/^\/\.netlify\//.test(to)) return { why: 'it calls a Netlify function: a server runs it' };
  const fault = patternFault(rule.from);
  if (fault !== null) return { why: fault };
  return rule;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const asObject = (value: Json | undefined): { [key: string]: Json } | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;

/**
 * A vercel.json source in path-to-regexp syntax, in Forge's form: "/blog/:slug", "/:path*",
 * "/(.*)" (its group is "$1": ":1*"), "/:path((?!api/).*)" and "/((?!api|_next).*)" (a splat with
 * paths it must not start with). Anything else (other regular expressions, optional segments) is
 * null: the rule is ignored.
 */
export function vercelPattern(source: string): { from: string; except: string[] } | null {
  if (!source.startsWith('/')) return null;
  const segments = source === '/' ? [] : splitOutsideGroups(source.slice(1));
  if (segments === null) return null;
  const out: string[] = [];
  let except: string[] = [];
  let group = 0;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as string;
    const last = i === segments.length - 1;
    if (/^[\w.~-]+$/.test(s)) {
      out.push(s);
      continue;
    }
    if (/^:\w+$/.test(s)) {
      out.push(s);
      continue;
    }
    if (/^:\w+[*+]$/.test(s) && last) {
      out.push(s);
      continue;
    }
    // A group that takes the rest: "(.*)", ":name(.*)", "((?!a|b/).*)", ":name((?!a).*)".
    const splat = /^(:\w+)?\((?:\(\?!([\w.~/|-]+)\))?\.\*\)$/.exec(s);
    if (splat && last) {
      const name = splat[1] ?? `:${++group}`;
      out.push(`${name}*`);
      except = splat[2] === undefined ? [] : splat[2].split('|').map((p) => p.replace(/\.\*$/, ''));
      continue;
    }
    return null;
  }
  return { from: `/${out.join('/')}`, except };
}

/** Path segments, a "/" inside parentheses (a regular expression group) not splitting; null when unbalanced. */
function splitOutsideGroups(text: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return null;
    if (ch === '/' && depth === 0) {
      out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (depth !== 0) return null;
  out.push(current);
  return out;
}

/** A vercel.json destination in Forge's form: "$1" → ":1", ":path*" → ":path". */
const vercelTarget = (destination: string): string =>
  destination.replace(/\$(\d+)/g, ':$1').replace(/:(\w+)[*+?]/g, ':$1');

/** vercel.json: `cleanUrls`, `trailingSlash`, `redirects`, `rewrites`, and the legacy `routes` as far as cheap. */
export function parseVercelJson(text: string, source: string): ParsedVercel | { error: string } {
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch (error) {
    return { error: `${source} is not valid JSON (${(error as Error).message})` };
  }
  const config = asObject(json);
  if (config === null) return { error: `${source} is not a JSON object` };
  const rules: SiteRule[] = [];
  const ignored: IgnoredRule[] = [];

  const read = (field: 'redirects' | 'rewrites' | 'routes'): void => {
    const list = config[field];
    if (!Array.isArray(list)) return;
    list.forEach((item, i) => {
      const where = `${source} ${field}[${i}]`;
      const entry = asObject(item);
      const sourceText = entry?.[field === 'routes' ? 'src' : 'source'];
      const destination = entry?.[field === 'routes' ? 'dest' : 'destination'];
      const shown = shorten(`${String(sourceText)} → ${String(destination)}`);
      const ignore = (why: string): void => {
        ignored.push({ source: where, rule: shown, why });
      };
      if (entry === null || typeof sourceText !== 'string' || typeof destination !== 'string') {
        if (field === 'routes' && entry !== null && 'handle' in entry) return; // "handle": "filesystem"
        ignore('it has no source and destination');
        return;
      }
      if (rules.length >= MAX_SITE_RULES) return ignore(`more than ${MAX_SITE_RULES} rules`);
      if ('has' in entry || 'missing' in entry) {
        return ignore(
          'it depends on a header, cookie, host or query ("has"/"missing"), which only Vercel checks',
        );
      }
      const pattern =
        field === 'routes'
          ? // Legacy routes are regular expressions: only the catch-all is read.
            /^\/?\(?\.\*\)?$|^\/\(\.\+\)$/.test(sourceText)
            ? { from: '/:1*', except: [] }
            : null
          : vercelPattern(sourceText);
      if (pattern === null) return ignore(`"${shorten(sourceText)}" is a pattern Forge does not read`);
      let status: number;
      let force: boolean;
      if (field === 'redirects') {
        const code = entry.statusCode;
        status = typeof code === 'number' ? code : entry.permanent === false ? 307 : 308;
        // Vercel applies redirects before its file system.
        force = true;
      } else {
        const code = field === 'routes' ? entry.status : undefined;
        status = typeof code === 'number' ? code : 200;
        force = false;
      }
      const rule = siteRule({
        ...pattern,
        query: {},
        to: vercelTarget(destination),
        status,
        force,
        source: where,
      });
      if ('why' in rule) ignore(rule.why);
      else rules.push(rule);
    });
  };
  read('redirects');
  read('rewrites');
  read('routes');
  for (const field of ['headers', 'functions', 'crons', 'middleware'] as const) {
    if (config[field] !== undefined) {
      ignored.push({ source: `${source} ${field}`, rule: field, why: 'it needs Vercel itself' });
    }
  }
  return {
    rules,
    ignored,
    cleanUrls: config.cleanUrls === true,
    trailingSlash: typeof config.trailingSlash === 'boolean' ? config.trailingSlash : null,
  };
}

/** A rule that answers every path with the root page: the site says it is a single-page app. */
export function isSpaFallback(rule: SiteRule): boolean {
  const everything = rule.from === '/*' || /^\/:\w+\*$/.test(rule.from);
  return everything && rule.status === 200 && /^\/(index\.html)?$/.test(rule.to);
}

/**
 * netlify.toml's `[[redirects]]` tables (`from`, `to`, `status`, `force`, `query`; `conditions`,
 * `headers` and `signed` need Netlify's servers): Netlify applies them after `_redirects`.
 */
export function parseNetlifyToml(text: string, source: string): ParsedRules | { error: string } {
  let data: unknown;
  try {
    data = parseToml(text);
  } catch (err) {
    return { error: `it is not valid TOML (${(err as Error).message.split('\n')[0]})` };
  }
  const tables = asObject(data as Json)?.redirects;
  const rules: SiteRule[] = [];
  const ignored: IgnoredRule[] = [];
  if (!Array.isArray(tables)) return { rules, ignored };
  tables.forEach((entry, i) => {
    const where = `${source} redirects[${i}]`;
    const table = asObject(entry);
    const from = typeof table?.from === 'string' ? table.from.trim() : '';
    const to = typeof table?.to === 'string' ? table.to.trim() : '';
    const shown = shorten(`${from} ${to}`.trim());
    const ignore = (why: string): void => {
      ignored.push({ source: where, rule: shown, why });
    };
    if (!table || from === '' || to === '') return ignore('it has no "from" or no "to"');
    if (rules.length >= MAX_SITE_RULES) return ignore(`more than ${MAX_SITE_RULES} rules`);
    if (isUrl(from)) return ignore(`it matches requests to ${hostOf(from)}, another host`);
    const needs = ['conditions', 'headers', 'signed'].filter((key) => table[key] !== undefined);
    if (needs.length > 0)
      return ignore(`it depends on ${needs.join(', ')}, which only Netlify's servers know`);
    const query: Record<string, string> = {};
    for (const [name, value] of Object.entries(asObject(table.query) ?? {})) {
      if (typeof value === 'string') query[name] = value;
    }
    const status = typeof table.status === 'number' ? table.status : 301;
    const rule = siteRule({
      from,
      to,
      status,
      force: table.force === true,
      query,
      except: [],
      source: where,
    });
    if ('why' in rule) ignore(rule.why);
    else rules.push(rule);
  });
  return { rules, ignored };
}

/** A firebase.json glob ("/blog/**", "/docs/*", "/post/:id", "/files/:rest*") in Forge's form, or null. */
export function firebasePattern(glob: string): string | null {
  // Firebase reads "**" as "/**": a glob may leave out the leading slash.
  const source = glob.startsWith('/') ? glob : `/${glob}`;
  const segments = source === '/' ? [] : source.slice(1).split('/');
  const out: string[] = [];
  let wild = 0;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as string;
    const last = i === segments.length - 1;
    if (s === '**' && last) out.push('*');
    else if (s === '*') out.push(`:w${++wild}`);
    else if (/^:\w+\*$/.test(s) && last) out.push(s);
    else if (/^:\w+$/.test(s) || /^[\w.~-]+$/.test(s)) out.push(s);
    else return null;
  }
  return `/${out.join('/')}`;
}

/**
 * firebase.json's `hosting` (one site, or the site of an array that serves `publicDir`): its
 * `redirects` (applied before files, as Firebase does), `rewrites` to a path of the site (after
 * files), `cleanUrls` and `trailingSlash`. Rewrites to functions, Cloud Run or dynamic links need
 * Firebase itself and are listed as ignored, as are `regex` sources.
 */
export function parseFirebaseJson(
  text: string,
  source: string,
  publicDir: string | null,
): ParsedVercel | { error: string } {
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch (error) {
    return { error: `${source} is not valid JSON (${(error as Error).message})` };
  }
  const hosting = asObject(json)?.hosting;
  const sites = (Array.isArray(hosting) ? hosting : [hosting]).map(asObject).filter((s) => s !== null);
  const clean = (dir: Json | undefined): string | null =>
    typeof dir === 'string' ? dir.replace(/^\.?\/+/, '').replace(/\/+$/, '') : null;
  const site = sites.find((s) => publicDir !== null && clean(s.public) === publicDir) ?? sites[0];
  const rules: SiteRule[] = [];
  const ignored: IgnoredRule[] = [];
  if (!site) return { rules, ignored, cleanUrls: false, trailingSlash: null };
  const read = (field: 'redirects' | 'rewrites'): void => {
    const list = site[field];
    if (!Array.isArray(list)) return;
    list.forEach((item, i) => {
      const where = `${source} hosting.${field}[${i}]`;
      const entry = asObject(item);
      const glob = entry?.source;
      const destination = entry?.destination;
      const shown = shorten(`${String(glob ?? entry?.regex)} → ${String(destination ?? 'a service')}`);
      const ignore = (why: string): void => {
        ignored.push({ source: where, rule: shown, why });
      };
      if (entry === null) return ignore('it is not an object');
      if (rules.length >= MAX_SITE_RULES) return ignore(`more than ${MAX_SITE_RULES} rules`);
      if (typeof destination !== 'string') {
        return ignore('it calls a function, Cloud Run or dynamic links: Firebase runs it');
      }
      if (typeof glob !== 'string') return ignore('a "regex" source is a pattern Forge does not read');
      const from = firebasePattern(glob);
      if (from === null) return ignore(`"${shorten(glob)}" is a pattern Forge does not read`);
      const status = field === 'redirects' ? (typeof entry.type === 'number' ? entry.type : 301) : 200;
      const rule = siteRule({
        from,
        except: [],
        query: {},
        to: destination.replace(/:(\w+)\*/g, ':$1'),
        status,
        force: field === 'redirects',
        source: where,
      });
      if ('why' in rule) ignore(rule.why);
      else rules.push(rule);
    });
  };
  read('redirects');
  read('rewrites');
  if (site.headers !== undefined) {
    ignored.push({ source: `${source} hosting.headers`, rule: 'headers', why: 'it needs Firebase itself' });
  }
  return {
    rules,
    ignored,
    cleanUrls: site.cleanUrls === true,
    trailingSlash: typeof site.trailingSlash === 'boolean' ? site.trailingSlash : null,
  };
}
