import { realpathSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import send from 'send';
import { realWithinSync, relativeWithin } from '../../fs/contain.ts';
import { isLoopbackHost } from '../../http/security.ts';
import { daemonUrl, listenHost } from '../../lifecycle/urls.ts';
import { contentTypeOverride } from './content-types.ts';
import { requestPath, sendStatus, STATUS_TEXT, urlPathOf } from './request-path.ts';
import { createSiteAnswers, type SiteReport } from './site-answers.ts';
import type { PreviewFiles } from './static-files.ts';

export type { PreviewFiles, StaticFiles, StaticOutcome } from './static-files.ts';
import type { StaticSite } from '@forge/shared';

export { sendStatus } from './request-path.ts';

/**
 * Static files, served one way for the previews and for the web app: this module decides which file
 * a URL names (and refuses what it must), `send` (the Express team's static file sender, the core of
 * express.static) sends it: Range and 206/416, conditional GET (ETag, If-None-Match,
 * If-Modified-Since, If-Range) and 304/412, HEAD, Content-Type from the mime database, streaming with
 * backpressure and clean-up on a client abort.
 *
 * What this module decides, before any byte is read:
 * - the path is percent-decoded exactly once; malformed escapes, NUL, backslashes and `..` segments
 *   (however encoded: `%2e%2e`, `..%2f`) are a 400;
 * - any segment starting with "." is a 404: dotfiles and dot folders are never served;
 * - the file's real path (links followed) must stay inside the real root (src/fs/contain.ts) and
 *   must not be a dot entry either, else it is missing;
 * - a folder is never listed: it serves its index.html (redirecting `/dir` to `/dir/` first), or
 *   counts as missing.
 *
 * Why `send` rather than sirv: sirv maps the URL to a file itself (decodeURI, lexically, following
 * links), so it cannot be told which checked file to send, and its Range handling sends the wrong
 * bytes for suffix ranges (`bytes=-500`) and throws after writing the head for a reversed one
 * (`bytes=5-2`), which would take a plain node:http server down. Measured in the same bench, each in
 * its own process, the two cost the same per request (docs/performance.md).
 */

export interface StaticFilesOptions {
  /** The folder served as `/`. Its real path is taken on first use (it may not exist yet). */
  root: string;
  /**
   * What a folder's URL does: `index` serves its index.html (`/dir` is redirected to `/dir/` first);
   * `none` treats it as missing (the caller's fallback answers).
   */
  folders?: 'index' | 'none';
  /**
   * Headers for a file about to be sent, e.g. Cache-Control or a CSP; `rel` is its path inside the
   * root (forward slashes, links resolved). Runs after Content-Type and X-Content-Type-Options are set.
   */
  setHeaders?: (res: ServerResponse, rel: string) => void;
}

/** `send`'s errors carry the status to answer and, for a 416, a Content-Range header. */
interface SendError extends Error {
  status?: number;
  headers?: Record<string, string>;
}

/** The URL path `send` decodes back to exactly `rel` (each name percent-encoded whole). */
const toUrlPath = (rel: string): string => `/${rel.split('/').map(encodeURIComponent).join('/')}`;

const isDotPath = (rel: string): boolean => rel !== '' && rel.split('/').some((name) => name.startsWith('.'));

/**
 * Read size of the file streams `send` opens. `send` hands its options on to fs.createReadStream (that
 * is how its `start` and `end` arrive there), so this reaches it too: 256 KiB reads instead of the
 * default 64 KiB take a typical asset in one or two reads, which is worth ~25 % of throughput on a
 * 200 KiB file (docs/performance.md). Should `send` stop passing it on, reads are 64 KiB again.
 */
const READ_CHUNK_BYTES = 256 * 1024;

export function createStaticFiles(options: StaticFilesOptions): PreviewFiles {
  const folders = options.folders ?? 'index';
  const sendOptions: send.SendOptions & { highWaterMark: number } = {
    index: false,
    // A second line only: dot paths never get as far as `send`.
    dotfiles: 'deny',
    highWaterMark: READ_CHUNK_BYTES,
  };
  let knownRoot: string | null = null;
  /** The root's real path, taken once it exists (the web app's may be built after the daemon starts). */
  const realRoot = (): string | null => {
    if (knownRoot === null) {
      try {
        knownRoot = realpathSync.native(options.root);
      } catch {
        return null;
      }
    }
    return knownRoot;
  };

  /**
   * The path inside the root that `segments` lead to, links followed; null when missing or refused.
   * Synchronous: one realpath(3) of a local path costs microseconds, less than a thread-pool trip.
   */
  const locate = (root: string, segments: readonly string[]): string | null => {
    let real: string | null;
    try {
      real = realWithinSync(root, path.join(root, ...segments));
    } catch {
      real = null; // unreadable (EACCES): nothing to serve
    }
    if (real === null) return null;
    const rel = relativeWithin(root, real)!;
    // A link may lead onto a dot entry inside the root: that is never served either.
    return isDotPath(rel) ? null : rel;
  };

  /** Hands one checked file to `send`; resolves once it is known whether it was a file. */
  const sendFile = (
    req: IncomingMessage,
    res: ServerResponse,
    root: string,
    rel: string,
    extra: send.SendOptions = {},
  ): Promise<'sent' | 'directory' | 'missing'> =>
    new Promise((resolve) => {
      let settled = false;
      const settle = (how: 'sent' | 'directory' | 'missing') => {
        settled = true;
        resolve(how);
      };
      send(req, toUrlPath(rel), { ...sendOptions, ...extra, root })
        .on('headers', (out: ServerResponse, abs: string) => {
          const type = contentTypeOverride(abs);
          if (type) out.setHeader('Content-Type', type);
          out.setHeader('X-Content-Type-Options', 'nosniff');
          options.setHeaders?.(out, rel);
        })
        .on('file', () => settle('sent'))
        .on('directory', () => settle('directory'))
        .on('error', (error: SendError) => {
          const status = error.status ?? 500;
          // Gone since it was located: the caller's fallback decides, as for any missing file.
          if (!settled && status === 404) return settle('missing');
          if (!settled) settle('sent');
          if (res.headersSent) {
            res.destroy();
            return;
          }
          // A 412 or 416 follows headers set for the file: its type and validators do not apply.
          for (const name of res.getHeaderNames()) if (name.startsWith('content-')) res.removeHeader(name);
          sendStatus(res, status, STATUS_TEXT[status] ?? 'Internal Server Error', error.headers ?? {});
        })
        .pipe(res);
    });

  return {
    async serve(req, res) {
      const parsed = requestPath(req.url ?? '/');
      if (parsed.kind === 'refused') return parsed;
      const { segments, slash, search } = parsed;
      const root = realRoot();
      if (root === null) return { kind: 'missing' };
      const rel = locate(root, segments);
      if (rel === null) return { kind: 'missing' };
      const first = await sendFile(req, res, root, rel);
      if (first !== 'directory') return { kind: first };
      if (folders === 'none') return { kind: 'missing' };
      if (!slash && segments.length > 0) {
        // Relative URLs in the folder's index.html resolve against "/dir/", not "/". Built from the
        // decoded segments: "//evil.example" cannot become a redirect to another host.
        const location = `${urlPathOf(segments, true)}${search}`;
        sendStatus(res, 301, 'Moved Permanently', { Location: location });
        return { kind: 'sent' };
      }
      const index = locate(root, [rel, 'index.html']);
      if (index === null) return { kind: 'missing' };
      const second = await sendFile(req, res, root, index);
      return { kind: second === 'sent' ? 'sent' : 'missing' };
    },

    async serveIndex(req, res) {
      const root = realRoot();
      const index = root === null ? null : locate(root, ['index.html']);
      return index !== null && (await sendFile(req, res, root!, index)) === 'sent';
    },

    lookup(segments) {
      const root = realRoot();
      const rel = root === null ? null : locate(root, segments);
      if (root === null || rel === null) return null;
      const info = statSync(path.join(root, rel), { throwIfNoEntry: false });
      if (info?.isFile()) return { kind: 'file', rel };
      return info?.isDirectory() ? { kind: 'dir', rel } : null;
    },

    async sendFile(req, res, rel, status = 200) {
      const root = realRoot();
      if (root === null) return false;
      if (status === 200) return (await sendFile(req, res, root, rel)) === 'sent';
      // A page answered with another status (a site's 404.html) has no ranges and no validators:
      // it must never become a 206 or a 304.
      res.statusCode = status;
      const sent = await sendFile(req, res, root, rel, {
        acceptRanges: false,
        etag: false,
        lastModified: false,
      });
      return sent === 'sent';
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The static preview

/**
 * The static preview: a build output served on its own port, i.e. its own origin. That is what makes
 * root-absolute asset paths (`/assets/x.js`) work, and what keeps previewed code away from the daemon:
 * its API is another origin, and the daemon sends no CORS headers, so a page here can neither read
 * the daemon's answers nor pass its Origin check.
 */

export interface StaticPreviewOptions {
  /** The folder served as `/`. Must exist. */
  root: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /**
   * How the site answers paths that name no file, and its own rules (the plan's decision); with none
   * (a plan made before Forge decided it), `spaFallback` says.
   */
  site?: StaticSite | null;
  /** Without `site`: serve the root index.html for extension-less paths that name nothing (default true). */
  spaFallback?: boolean;
  /**
   * DNS-rebinding guard on the Host header. Default: when bound to loopback, only loopback names
   * (localhost, 127.x, [::1]) are answered; otherwise every Host is.
   */
  isHostAllowed?: (hostHeader: string | undefined) => boolean;
}

export interface StaticPreview {
  /** Origin of the preview, e.g. "http://127.0.0.1:41234" (no trailing slash). */
  url: string;
  port: number;
  /** What it applies (single-page fallback, rules), for the log. */
  site: SiteReport;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** HTML is revalidated on every load (a rebuild shows at once); other files may be reused briefly. */
const HTML_CACHE_CONTROL = 'no-cache';
const ASSET_CACHE_CONTROL = 'public, max-age=60';

const loopbackHostOnly = (hostHeader: string | undefined): boolean => {
  if (!hostHeader) return false;
  try {
    return isLoopbackHost(new URL(`http://${hostHeader}`).hostname);
  } catch {
    return false;
  }
};

const isHtml = (file: string): boolean => /\.html?$/i.test(file);

/**
 * Starts the static preview of `root`. In order: GET/HEAD only (405); the Host check (403); then the
 * site's answer (site-answers.ts): its rules, the file the path names (see `createStaticFiles`: 400
 * for a malformed or traversing path, 404 for dot entries and links out of the root, a folder's
 * index.html, "/edit" for edit.html), a single-page app's index.html for a path without an extension,
 * else the site's 404.html with status 404.
 */
export async function startStaticPreview(options: StaticPreviewOptions): Promise<StaticPreview> {
  const { host = '127.0.0.1', port = 0 } = options;
  const root = path.resolve(options.root);
  const rootInfo = await stat(root).catch(() => null);
  if (!rootInfo?.isDirectory()) throw new Error(`Cannot preview ${root}: it is not a folder.`);
  const isHostAllowed = options.isHostAllowed ?? (isLoopbackHost(host) ? loopbackHostOnly : () => true);
  const files = createStaticFiles({
    root,
    setHeaders: (res, rel) =>
      res.setHeader('Cache-Control', isHtml(rel) ? HTML_CACHE_CONTROL : ASSET_CACHE_CONTROL),
  });
  const site = createSiteAnswers(files, realpathSync.native(root), {
    site: options.site ?? null,
    ...(options.spaFallback !== undefined ? { spaFallback: options.spaFallback } : {}),
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendStatus(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
      return;
    }
    if (!isHostAllowed(req.headers.host)) {
      sendStatus(res, 403, 'Forbidden host');
      return;
    }
    await site.answer(req, res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendStatus(res, 500, 'Internal Server Error');
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, listenHost(host), () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    url: daemonUrl(host, actualPort),
    port: actualPort,
    site: site.report,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets (a browser tab) would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
