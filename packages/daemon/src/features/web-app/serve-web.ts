import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import express, { type RequestHandler, type Response, type Router } from 'express';
import { WS_PATH } from '@forge/shared';
import { createStaticFiles, type StaticFiles } from '../../capabilities/preview/static-server.ts';

/** How the browser workspace is served: built files, or Vite in middleware mode (`run --dev`). */
export type WebMode =
  { mode: 'static'; root: string | null } | { mode: 'dev'; root: string; configFile?: string | false };

export const WEB_NOT_BUILT_TEXT = 'The web workspace is not built yet. Run: pnpm build';

/** The @forge/web package directory (a workspace devDependency), or null when it is not installed. */
export function resolveWebPackageDir(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('@forge/web/package.json'));
  } catch {
    return null;
  }
}

/** Built web root: the configured one, else @forge/web's dist. */
export function resolveWebRoot(configured: string | null): string | null {
  if (configured) return configured;
  const dir = resolveWebPackageDir();
  return dir ? path.join(dir, 'dist') : null;
}

/**
 * CSP for the workspace page. Previews run on their own loopback origins, hence frame-src;
 * the dev page needs Vite's inline preamble, so dev only restricts framing.
 */
export function contentSecurityPolicy(
  dev: boolean,
  host?: string,
  scriptHashes: readonly string[] = [],
): string {
  if (dev) return "frame-ancestors 'self'";
  // 'self' covers ws: in CSP3 browsers; the explicit ws:// origin covers the rest. Host was allow-listed.
  const socket = host ? ` ws://${host}` : '';
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${socket}`,
    "worker-src 'self' blob:",
    "frame-src 'self' http://localhost:* http://127.0.0.1:*",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

export const setHtmlHeaders = (res: ServerResponse, dev = false, scriptHashes?: readonly string[]): void => {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(dev, res.req.headers.host, scriptHashes));
  res.setHeader('Cache-Control', 'no-cache');
};

/** A classic or module <script> with a body and no src: what the build inlines (the boot script). */
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;

/**
 * The CSP sources that allow exactly the inline scripts of one of the build's pages ('sha256-…' of
 * each script's text): the web build inlines its boot script (packages/web vite.config.ts,
 * bootScript) so that it runs without a request. Read once per version of the file.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)]
    .filter((m) => m[1]!.length > 0)
    .map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
}

/** inlineScriptHashes of a page file, kept while its size and mtime stay the same. */
function pageScriptHashes(): (file: string) => string[] {
  const seen = new Map<string, { version: string; hashes: string[] }>();
  return (file) => {
    try {
      const info = fs.statSync(file);
      const version = `${info.size}:${info.mtimeMs}`;
      const known = seen.get(file);
      if (known?.version === version) return known.hashes;
      const hashes = inlineScriptHashes(fs.readFileSync(file, 'utf8'));
      seen.set(file, { version, hashes });
      return hashes;
    } catch {
      return []; // gone or unreadable: send's own error answers it, with no script allowed
    }
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function notBuiltPage(res: Response): void {
  setHtmlHeaders(res);
  res
    .status(503)
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Forge</title></head>` +
        `<body style="font-family:system-ui,sans-serif;margin:3rem"><h1>Forge</h1><p>${escapeHtml(WEB_NOT_BUILT_TEXT)}</p></body></html>`,
    );
}

/** Paths the web app never owns. */
export const isReservedPath = (p: string): boolean =>
  p === '/api' || p.startsWith('/api/') || p === WS_PATH || p.startsWith(`${WS_PATH}/`);

/** Looks like a file request (last segment has an extension) rather than a client-side route. */
const looksLikeFile = (p: string): boolean => /\.[A-Za-z0-9]+$/.test(p.slice(p.lastIndexOf('/') + 1));

/**
 * Precompressed copies the web build writes beside its scripts and stylesheets (packages/web
 * vite.config.ts, precompress), best first. Their Content-Type is the original's: what `send` gives
 * a .js or .css file (mime-types, as for every static answer).
 */
const ENCODINGS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;
const COMPRESSED_TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/** The type of a file the build precompresses (by its path's extension), else undefined. */
const compressedType = (pathname: string): string | undefined =>
  COMPRESSED_TYPES[pathname.slice(pathname.lastIndexOf('.') + 1)];

/** Codings the request accepts (Accept-Encoding, without those it refuses with q=0). */
export function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  return accepted;
}

/** The web app's files, and the page for a page path. */
export interface WebFiles extends StaticFiles {
  /**
   * Sends the page for the page path `pathname`: index.html at "/" (it holds the dashboard's first
   * frame, packages/web src/shell.html), app.html anywhere else (the same page with an empty #root,
   * so no other screen shows the dashboard's frame first); index.html when the build has no
   * app.html (an older build). False when there is no page.
   */
  servePage(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
}

/** The page without the dashboard's first frame (packages/web vite.config.ts, appShell). */
const APP_PAGE = 'app.html';

/**
 * The built web app, through the same static file server as the previews (capabilities/preview/
 * static-server.ts: Range, conditional GET, no dotfiles, no folder listings, nothing outside the
 * root). Vite's hashed /assets are cached for a year; any other GET for a page path answers
 * index.html (no-cache), the SPA history fallback, so client routes survive a reload.
 *
 * A script or stylesheet under /assets goes out precompressed when the browser accepts brotli or
 * gzip and the build wrote that copy: the same checked path with ".br" or ".gz" added, sent by the
 * same file server (so Range, ETag and 304 apply to the copy as to any file), with
 * Content-Encoding, the original's Content-Type, and Vary: Accept-Encoding on either answer.
 * No copy (an older build, a small file): the file itself, as before.
 */
export function webFiles(root: string): WebFiles {
  /** Answers being sent from a precompressed copy, and with which coding. */
  const encodedAnswers = new WeakMap<ServerResponse, string>();
  const scriptHashes = pageScriptHashes();
  const files = createStaticFiles({
    root,
    // A folder is a page path here: the history fallback answers it.
    folders: 'none',
    setHeaders(res, rel) {
      if (rel.startsWith('assets/')) {
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        const encoding = encodedAnswers.get(res);
        if (encoding) {
          res.setHeader('Content-Encoding', encoding);
          res.setHeader('Content-Type', compressedType(rel.slice(0, rel.lastIndexOf('.')))!);
        }
        if (encoding || compressedType(rel)) res.setHeader('Vary', 'Accept-Encoding');
      } else if (rel.endsWith('.html')) setHtmlHeaders(res, false, scriptHashes(path.join(root, rel)));
      else res.setHeader('Cache-Control', 'no-cache');
    },
  });

  /** Tries the best precompressed copy the request accepts; false when none was sent. */
  const serveEncoded = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const target = req.url ?? '/';
    const cut = target.search(/[?#]/);
    const pathname = cut < 0 ? target : target.slice(0, cut);
    if (!pathname.startsWith('/assets/') || !compressedType(pathname)) return false;
    const accepted = acceptedEncodings(req.headers['accept-encoding']);
    for (const { encoding, suffix } of ENCODINGS) {
      if (!accepted.has(encoding)) continue;
      encodedAnswers.set(res, encoding);
      // The copy's URL goes through every check the file's own would (static-server.ts).
      req.url = `${pathname}${suffix}${cut < 0 ? '' : target.slice(cut)}`;
      try {
        if ((await files.serve(req, res)).kind === 'sent') return true;
      } finally {
        req.url = target;
      }
      encodedAnswers.delete(res);
    }
    return false;
  };

  return {
    async serve(req, res) {
      if (await serveEncoded(req, res)) return { kind: 'sent' };
      return files.serve(req, res);
    },
    serveIndex: (req, res) => files.serveIndex(req, res),
    async servePage(req, res, pathname) {
      if (pathname !== '/' && files.lookup([APP_PAGE])?.kind === 'file') {
        if (await files.sendFile(req, res, APP_PAGE)) return true;
      }
      return files.serveIndex(req, res);
    },
  };
}

/**
 * The built web app's files, for the daemon's request handler to answer before Express: the page's
 * assets are most of its requests. Only a GET or HEAD of an existing file that passed the same
 * checks as every request (`admit`) is answered here; the rest (page paths, refusals, errors)
 * goes to `next`, the Express app, which says why.
 */
export function webFastPath(
  files: StaticFiles,
  admit: (req: IncomingMessage, res: ServerResponse) => boolean,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const pathname = (req.url ?? '/').split('?', 1)[0]!;
    if (isReservedPath(pathname) || !looksLikeFile(pathname) || !admit(req, res)) return next();
    files.serve(req, res).then(
      (outcome) => {
        if (outcome.kind !== 'sent') next();
      },
      () => next(),
    );
  };
}

export function staticWeb(root: string | null, shared?: WebFiles): Router {
  const router = express.Router();
  const files = root === null ? null : (shared ?? webFiles(root));
  router.use(async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isReservedPath(req.path)) return next();
    // A refused path (a dotfile, a malformed escape) gets what a missing one gets: no hint either way.
    if (files && (await files.serve(req, res)).kind === 'sent') return;
    const index = root ? path.join(root, 'index.html') : null;
    if (!index || !fs.existsSync(index)) return notBuiltPage(res);
    // A missing script or image is a 404, not the HTML page (which would fail confusingly).
    if (looksLikeFile(req.path) && !req.headers.accept?.includes('text/html')) return next();
    if (!(await files!.servePage(req, res, req.path))) next();
  });
  return router;
}

/** Page responses from Vite get the dev CSP; /api and /ws never reach Vite. */
export const devHtmlHeaders: RequestHandler = (req, res, next) => {
  if (isReservedPath(req.path)) return next('router');
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(true));
  next();
};
