import type { SiteRule } from '@forge/shared';

/**
 * Matching a static site's rules (SiteRule, read by capabilities/detect/site-rules.ts) against a request
 * path, segment by segment: no regular expression is built from a project's text, and a match costs
 * one pass over the path.
 */

type Token = { lit: string } | { param: string } | { splat: string; min: 0 | 1 };

/** A rule ready to match. */
export interface CompiledRule {
  rule: SiteRule;
  tokens: Token[];
}

export function compileRule(rule: SiteRule): CompiledRule {
  const tokens: Token[] = (rule.from === '/' ? [] : rule.from.split('/').slice(1))
    .filter((s) => s !== '')
    .map((s): Token => {
      if (s === '*') return { splat: 'splat', min: 0 };
      const splat = /^:(\w+)([*+])$/.exec(s);
      if (splat) return { splat: splat[1] as string, min: splat[2] === '+' ? 1 : 0 };
      if (/^:\w+$/.test(s)) return { param: s.slice(1) };
      return { lit: s };
    });
  return { rule, tokens };
}

/**
 * The placeholders a rule takes from a request (its path as decoded segments, and its query), or
 * null when it does not match. A trailing slash does not matter ("/about" matches "/about/").
 */
export function matchRule(
  compiled: CompiledRule,
  segments: readonly string[],
  query: URLSearchParams,
): Map<string, string> | null {
  const params = new Map<string, string>();
  const { tokens, rule } = compiled;
  let i = 0;
  for (const token of tokens) {
    if ('splat' in token) {
      const rest = segments.slice(i);
      if (rest.length < token.min) return null;
      const joined = rest.join('/');
      if (rule.except.some((prefix) => joined.startsWith(prefix))) return null;
      params.set(token.splat, joined);
      i = segments.length;
      break;
    }
    const segment = segments[i];
    if (segment === undefined) return null;
    if ('lit' in token) {
      if (segment !== token.lit) return null;
    } else {
      params.set(token.param, segment);
    }
    i++;
  }
  if (i !== segments.length) return null;
  for (const [name, wanted] of Object.entries(rule.query)) {
    const value = query.get(name);
    if (value === null) return null;
    if (wanted.startsWith(':')) params.set(wanted.slice(1), value);
    else if (value !== wanted) return null;
  }
  return params;
}

/**
 * The rule's target with its placeholders filled in, percent-encoded (a splat keeps its slashes),
 * plus the request's own query when the target has none (as Netlify passes it on). Always a path of
 * the site: it starts with exactly one "/".
 */
export function fillTarget(rule: SiteRule, params: ReadonlyMap<string, string>, search: string): string {
  const filled = rule.to.replace(/:(\w+)/g, (whole, name: string) => {
    const value = params.get(name);
    if (value === undefined) return whole;
    return value.split('/').map(encodeURIComponent).join('/');
  });
  // "/:splat" with an empty splat, or a target written "//x": never a protocol-relative URL.
  const path = `/${filled.replace(/^[/\\]+/, '')}`;
  return path.includes('?') || search === '' ? path : `${path}${search}`;
}

/** Statuses that make a rule a redirect; any other answers the target's content with that status. */
export const isRedirectStatus = (status: number): boolean => status >= 300 && status < 400;
