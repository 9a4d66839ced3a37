/**
 * A tolerant scan of HTML for the URLs a browser loads as assets. Not a parser: it walks tags and
 * attributes the way browsers tokenize them (quoted, unquoted and bare attributes, comments, raw-text
 * elements such as <script> and <style> whose bodies are not markup), which is all UiBot needs and
 * never throws on broken markup. No DOM library: built outputs can be large and this runs per build.
 */

/** What one HTML document references. */
export interface HtmlRefs {
  /** The first `<base href>`, if any: relative references resolve against it. */
  base: string | null;
  /** Asset URLs in document order, as written (entities decoded), duplicates kept. */
  refs: string[];
}

/** `<link rel>` tokens whose `href` the browser fetches as part of the page. */
const LINK_RELS = new Set([
  'stylesheet',
  'icon',
  'apple-touch-icon',
  'apple-touch-icon-precomposed',
  'mask-icon',
  'modulepreload',
  'preload',
  'manifest',
]);

/** Per element, the attributes holding a single asset URL. */
const URL_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  script: ['src'],
  img: ['src'],
  source: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
};
/** Elements whose `srcset` lists candidate images. */
const SRCSET_ELEMENTS = new Set(['img', 'source']);

/** Elements whose content is text up to their end tag, never markup (a "<img" in a script is a string). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes']);

const TAG_NAME = /[A-Za-z][A-Za-z0-9:-]*/y;
const WHITESPACE = /[\t\n\f\r ]/;

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** Decodes the character references that occur in URLs; unknown ones stay as written. */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (match, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? match;
  });
}

/** The URLs of a `srcset` (each candidate is "url [descriptor]", separated by commas). */
export function parseSrcset(srcset: string): string[] {
  const urls: string[] = [];
  let i = 0;
  const n = srcset.length;
  while (i < n) {
    while (i < n && (WHITESPACE.test(srcset[i]!) || srcset[i] === ',')) i += 1;
    if (i >= n) break;
    const start = i;
    while (i < n && !WHITESPACE.test(srcset[i]!)) i += 1;
    // A URL ends at whitespace; commas glued to its end separate candidates (data: URLs keep theirs).
    let url = srcset.slice(start, i);
    const trailing = /,+$/.exec(url);
    if (trailing) url = url.slice(0, trailing.index);
    if (url) urls.push(url);
    if (trailing) continue;
    // Skip the descriptor ("2x", "480w") up to the next comma.
    while (i < n && srcset[i] !== ',') i += 1;
  }
  return urls;
}

function readAttributes(html: string, from: number): { attrs: Map<string, string>; end: number } {
  const attrs = new Map<string, string>();
  const n = html.length;
  let j = from;
  for (;;) {
    while (j < n && (WHITESPACE.test(html[j]!) || html[j] === '/')) j += 1;
    if (j >= n) return { attrs, end: n };
    if (html[j] === '>') return { attrs, end: j + 1 };
    const nameStart = j;
    // As in browsers, a leading "=" belongs to the name.
    j += 1;
    while (j < n && !WHITESPACE.test(html[j]!) && !'/>='.includes(html[j]!)) j += 1;
    const name = html.slice(nameStart, j).toLowerCase();
    while (j < n && WHITESPACE.test(html[j]!)) j += 1;
    let value = '';
    if (html[j] === '=') {
      j += 1;
      while (j < n && WHITESPACE.test(html[j]!)) j += 1;
      const quote = html[j];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, j + 1);
        const stop = close < 0 ? n : close;
        value = html.slice(j + 1, stop);
        j = stop + 1;
      } else {
        const start = j;
        while (j < n && !WHITESPACE.test(html[j]!) && html[j] !== '>') j += 1;
        value = html.slice(start, j);
      }
    }
    // The first occurrence of an attribute wins, as in browsers.
    if (!attrs.has(name)) attrs.set(name, decodeEntities(value));
  }
}

const rawTextEnd = new Map<string, RegExp>();
function skipRawText(html: string, tag: string, from: number): number {
  let pattern = rawTextEnd.get(tag);
  if (!pattern) {
    pattern = new RegExp(`</${tag}(?=[\\t\\n\\f\\r />])`, 'gi');
    rawTextEnd.set(tag, pattern);
  }
  pattern.lastIndex = from;
  const match = pattern.exec(html);
  return match ? match.index : html.length;
}

function collect(tag: string, attrs: Map<string, string>, refs: string[]): void {
  if (tag === 'link') {
    const href = attrs.get('href');
    const rels = (attrs.get('rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
    if (href !== undefined && rels.some((rel) => LINK_RELS.has(rel))) refs.push(href);
    return;
  }
  for (const name of URL_ATTRIBUTES[tag] ?? []) {
    const value = attrs.get(name);
    if (value !== undefined) refs.push(value);
  }
  if (SRCSET_ELEMENTS.has(tag)) {
    const srcset = attrs.get('srcset');
    if (srcset !== undefined) refs.push(...parseSrcset(srcset));
  }
}

/** Lists the asset URLs an HTML document makes the browser load. */
export function extractAssetRefs(html: string): HtmlRefs {
  const refs: string[] = [];
  let base: string | null = null;
  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    const next = html[lt + 1];
    if (next === '!' || next === '?' || next === '/') {
      // Doctype, processing instruction, end tag: nothing to collect.
      const end = html.indexOf('>', lt + 2);
      i = end < 0 ? n : end + 1;
      continue;
    }
    TAG_NAME.lastIndex = lt + 1;
    const name = TAG_NAME.exec(html);
    if (!name) {
      // A "<" in text ("a < b").
      i = lt + 1;
      continue;
    }
    const tag = name[0].toLowerCase();
    const { attrs, end } = readAttributes(html, lt + 1 + name[0].length);
    i = end;
    if (tag === 'base') {
      const href = attrs.get('href');
      if (base === null && href !== undefined) base = href;
    } else {
      collect(tag, attrs, refs);
    }
    if (RAW_TEXT.has(tag)) i = skipRawText(html, tag, i);
  }
  return { base, refs };
}
