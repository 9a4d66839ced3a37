import { lstat, open, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { UiCheck } from '@forge/shared';
import { relativeWithin } from '../../fs/contain.ts';
import { walkFiles } from '../../fs/walk.ts';
import { extractAssetRefs } from './html-refs.ts';

/** HTML documents scanned per output; a site with more is checked on its first ones (name order). */
export const UI_CHECK_MAX_HTML_FILES = 500;
/** Bytes read per HTML document; references past this point are not checked. */
export const UI_CHECK_MAX_HTML_BYTES = 2 * 1024 * 1024;
/** Entries walked to learn which files exist; past this, lookups fall back to lstat. */
export const UI_CHECK_MAX_ENTRIES = 200_000;

/** Appended to a reference that resolves outside the output folder (never looked up). */
export const OUTSIDE_OUTPUT_NOTE = ' (outside the output folder)';

/** Symlink hops followed (inside the output only) before a chain counts as broken. */
const MAX_LINK_HOPS = 8;

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
/** URL dot segments, including their percent-encoded spellings (the URL standard treats them alike). */
const SINGLE_DOT = /^(?:\.|%2e)$/i;
const DOUBLE_DOT = /^(?:\.|%2e){2}$/i;

/** Dot entries are never served by the preview, so they do not count as present either. */
const isDotPath = (rel: string): boolean => rel.split('/').some((segment) => segment.startsWith('.'));

/** Resolves URL path segments the way a browser does: `..` above the root stays at the root. */
function normalizeUrlPath(urlPath: string): string[] {
  const out: string[] = [];
  const segments = urlPath.split('/');
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (DOUBLE_DOT.test(segment)) {
      out.pop();
      if (last) out.push('');
    } else if (SINGLE_DOT.test(segment)) {
      if (last) out.push('');
    } else if (segment !== '' || last) {
      out.push(segment);
    }
  });
  return out;
}

type Resolved = { kind: 'local'; rel: string } | { kind: 'outside' } | { kind: 'skip' };

/**
 * Where a reference points inside the output. `docDir` is the URL directory of the document
 * ("/" or "/docs/"); `baseHref` its `<base href>`. External, data:, blob:, mailto:, protocol-relative
 * and fragment-only references (and any reference under an external base) are skipped.
 */
export function resolveRef(ref: string, docDir: string, baseHref: string | null = null): Resolved {
  // Browsers strip surrounding whitespace and drop tabs/newlines inside URLs; "\" is "/" for http(s).
  const url = ref
    .trim()
    .replace(/[\t\n\r]/g, '')
    .replace(/\\/g, '/');
  if (url === '' || url.startsWith('#') || url.startsWith('?')) return { kind: 'skip' };
  if (url.startsWith('//') || SCHEME.test(url)) return { kind: 'skip' };

  let dir = docDir;
  if (baseHref !== null) {
    const base = resolveRef(baseHref, docDir);
    if (base.kind !== 'local') {
      // An external base makes every relative and root-absolute URL external too.
      if (baseHref.trim() !== '') return { kind: 'skip' };
    } else {
      const baseUrl = `/${base.rel}`;
      dir = baseUrl.slice(0, baseUrl.lastIndexOf('/') + 1);
    }
  }

  const cut = url.search(/[?#]/);
  const urlPath = cut < 0 ? url : url.slice(0, cut);
  const absolute = urlPath.startsWith('/') ? urlPath : dir + urlPath;
  let segments = normalizeUrlPath(absolute.slice(1));
  // A reference to a folder loads its index.html.
  if (segments.length === 0 || segments[segments.length - 1] === '') {
    segments = [...segments.filter((s) => s !== ''), 'index.html'];
  }

  // Servers (ours included) decode %XX before touching the disk; "%2F" and "%2e%2e" become real
  // separators and dot segments there, so the decoded path is checked again without clamping.
  const decoded = segments
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
  if (decoded.includes('\0')) return { kind: 'outside' };
  const parts = decoded.split('/');
  // Only an encoded separator ("..%2F") can leave a ".." here; the preview refuses it like a traversal.
  if (parts.includes('..')) return { kind: 'outside' };
  const rel = parts.filter((part) => part !== '' && part !== '.').join('/');
  return { kind: 'local', rel: rel === '' ? 'index.html' : rel };
}

/** URL directory of a document at `rel` ("index.html" → "/", "docs/a.html" → "/docs/"). */
const docDirOf = (rel: string): string => `/${rel.slice(0, rel.lastIndexOf('/') + 1)}`;

async function readHead(file: string, maxBytes: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Adds to `present` the links that lead (inside the output, through at most `MAX_LINK_HOPS` links) to a
 * regular file. Targets are computed from readlink alone, so nothing outside the output is touched.
 */
async function resolveLinks(
  root: string,
  links: ReadonlyArray<{ rel: string; abs: string }>,
  present: Set<string>,
): Promise<void> {
  const targets = new Map<string, string | null>();
  await Promise.all(
    links.map(async (link) => {
      try {
        const target = path.resolve(path.dirname(link.abs), await readlink(link.abs));
        // The output folder itself is no file; "" is as unusable a target as one outside.
        targets.set(link.rel, relativeWithin(root, target) || null);
      } catch {
        targets.set(link.rel, null);
      }
    }),
  );
  for (const link of links) {
    let current: string | null | undefined = link.rel;
    for (let hop = 0; hop < MAX_LINK_HOPS && current; hop += 1) {
      current = targets.get(current);
      if (current && present.has(current)) {
        present.add(link.rel);
        break;
      }
    }
  }
}

/**
 * UiBot's check of a build output: `index.html` at its root, and every local asset that the output's
 * HTML documents reference (scripts, stylesheets, icons, preloads, manifest, images, media) present.
 * References are resolved as the browser would from the preview's origin (root-absolute against the
 * output root, relative against the document or its `<base>`), then decoded as the server would.
 * Missing paths are reported relative to the output; one that resolves outside it is reported as
 * missing with `OUTSIDE_OUTPUT_NOTE` and never looked up. Never throws for a missing or odd output.
 */
export async function checkOutput(outputDir: string): Promise<UiCheck> {
  const root = path.resolve(outputDir);
  const walk = await walkFiles(root, {
    maxEntries: UI_CHECK_MAX_ENTRIES,
    exclude: (rel) => path.posix.basename(rel).startsWith('.'),
  });
  const present = new Set(walk.files.map((file) => file.rel));
  await resolveLinks(root, walk.links, present);

  const exists = async (rel: string): Promise<boolean> => {
    if (present.has(rel)) return true;
    if (!walk.truncated || isDotPath(rel)) return false;
    // The walk stopped early: ask the disk, without following a link that could point anywhere.
    const info = await lstat(path.join(root, rel)).catch(() => null);
    return info?.isFile() ?? false;
  };

  const hasIndexHtml = await exists('index.html');
  const documents = walk.files
    .filter((file) => /\.html?$/i.test(file.rel) && !file.rel.split('/').includes('node_modules'))
    .slice(0, UI_CHECK_MAX_HTML_FILES);

  const missing = new Set<string>();
  const checked = new Map<string, boolean>();
  for (const document of documents) {
    let html: string;
    try {
      html = await readHead(document.abs, UI_CHECK_MAX_HTML_BYTES);
    } catch {
      continue;
    }
    const { base, refs } = extractAssetRefs(html);
    for (const ref of refs) {
      const resolved = resolveRef(ref, docDirOf(document.rel), base);
      if (resolved.kind === 'skip') continue;
      if (resolved.kind === 'outside') {
        missing.add(`${ref.trim()}${OUTSIDE_OUTPUT_NOTE}`);
        continue;
      }
      let found = checked.get(resolved.rel);
      if (found === undefined) {
        found = await exists(resolved.rel);
        checked.set(resolved.rel, found);
      }
      if (!found) missing.add(resolved.rel);
    }
  }

  const missingAssets = [...missing].sort();
  return { ok: hasIndexHtml && missingAssets.length === 0, hasIndexHtml, missingAssets };
}
