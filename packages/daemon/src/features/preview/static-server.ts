import { open, realpath, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isLoopbackHost } from '../../http/security.ts';
import { daemonUrl, listenHost } from '../../process/urls.ts';
import { contentTypeFor } from './content-types.ts';

/**
 * The static preview: a build output served on its own port, i.e. its own origin. That is what makes
 * root-absolute asset paths (`/assets/x.js`) work, and what keeps previewed code away from the daemon:
 * its API is another origin, and the daemon sends no CORS headers, so a page here can neither read
 * the daemon's answers nor pass its Origin check. node:http and a read stream, no framework: twice
 * express.static's throughput (docs: PERFORMANCE.md).
 */

export interface StaticPreviewOptions {
  /** The folder served as `/`. Must exist. */
  root: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Serve the root index.html for extension-less paths that do not exist (client-side routes). */
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

function sendStatus(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  const body = `${message}\n`;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/** True when the request's validators match the file (If-None-Match wins over If-Modified-Since). */
function isNotModified(req: IncomingMessage, etag: string, mtimeMs: number): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    // Weak comparison, as RFC 9110 asks for If-None-Match.
    const bare = etag.replace(/^W\//, '');
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim())
      .some((tag) => tag === '*' || tag.replace(/^W\//, '') === bare);
  }
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

/** Where a request path leads: a file to serve, a folder to redirect into, or nothing servable. */
type Located = { kind: 'file'; real: string } | { kind: 'dir'; real: string } | { kind: 'none' };

/**
 * Starts the static preview of `root`. Request handling, in order: GET/HEAD only (405); the path is
 * percent-decoded, and refused with 400 when it is malformed, holds NUL or a backslash, or has a `..`
 * segment; any segment starting with "." is 404 (dotfiles and dot folders are never served); the
 * file's real path (links followed) must stay inside the real root and must not be a dot entry,
 * else 404; a folder serves its index.html (redirecting `/dir` to `/dir/` first); an extension-less
 * path that does not exist gets the root index.html when `spaFallback` is on (`/missing.js` stays 404).
 */
export async function startStaticPreview(options: StaticPreviewOptions): Promise<StaticPreview> {
  const { host = '127.0.0.1', port = 0, spaFallback = true } = options;
  const root = path.resolve(options.root);
  const rootInfo = await stat(root).catch(() => null);
  if (!rootInfo?.isDirectory()) throw new Error(`Cannot preview ${root}: it is not a folder.`);
  const realRoot = await realpath(root);
  const isHostAllowed = options.isHostAllowed ?? (isLoopbackHost(host) ? loopbackHostOnly : () => true);

  const locate = async (segments: readonly string[]): Promise<Located> => {
    let real: string;
    try {
      real = await realpath(path.join(realRoot, ...segments));
    } catch {
      return { kind: 'none' };
    }
    const rel = path.relative(realRoot, real);
    // A link may lead out of the root, or onto a dot entry inside it: neither is served.
    if (rel.startsWith('..') || path.isAbsolute(rel)) return { kind: 'none' };
    if (rel !== '' && rel.split(path.sep).some((segment) => segment.startsWith('.'))) return { kind: 'none' };
    const info = await stat(real).catch(() => null);
    if (info?.isFile()) return { kind: 'file', real };
    if (info?.isDirectory()) return { kind: 'dir', real };
    return { kind: 'none' };
  };

  const serveFile = async (req: IncomingMessage, res: ServerResponse, real: string): Promise<boolean> => {
    let handle: FileHandle;
    try {
      handle = await open(real, 'r');
    } catch {
      return false;
    }
    let streaming = false;
    try {
      // Validators come from the open file, so they describe exactly the bytes sent.
      const info = await handle.stat();
      if (!info.isFile()) return false;
      const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      const headers = {
        ETag: etag,
        'Last-Modified': info.mtime.toUTCString(),
        'Cache-Control': isHtml(real) ? HTML_CACHE_CONTROL : ASSET_CACHE_CONTROL,
        'X-Content-Type-Options': 'nosniff',
      };
      if (isNotModified(req, etag, info.mtimeMs)) {
        res.writeHead(304, headers);
        res.end();
        return true;
      }
      res.writeHead(200, {
        ...headers,
        'Content-Type': contentTypeFor(real),
        'Content-Length': info.size,
      });
      if (req.method === 'HEAD') {
        res.end();
        return true;
      }
      streaming = true;
      // The stream owns the handle from here (autoClose). pipeline destroys both sides on a client
      // abort or a read error, so neither leaks nor throws; a half-sent response is simply cut.
      await pipeline(handle.createReadStream(), res).catch(() => undefined);
      return true;
    } finally {
      if (!streaming) await handle.close().catch(() => undefined);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendStatus(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
      return;
    }
    if (!isHostAllowed(req.headers.host)) {
      sendStatus(res, 403, 'Forbidden host');
      return;
    }
    const target = req.url ?? '/';
    const cut = target.search(/[?#]/);
    const rawPath = cut < 0 ? target : target.slice(0, cut);
    const query = cut < 0 || target[cut] !== '?' ? '' : target.slice(cut);
    if (!rawPath.startsWith('/')) {
      sendStatus(res, 400, 'Bad Request');
      return;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      sendStatus(res, 400, 'Bad Request');
      return;
    }
    if (decoded.includes('\0') || decoded.includes('\\')) {
      sendStatus(res, 400, 'Bad Request');
      return;
    }
    const segments = decoded.split('/').filter((segment) => segment !== '' && segment !== '.');
    if (segments.includes('..')) {
      sendStatus(res, 400, 'Bad Request');
      return;
    }
    if (segments.some((segment) => segment.startsWith('.'))) {
      sendStatus(res, 404, 'Not Found');
      return;
    }

    let found = await locate(segments);
    if (found.kind === 'dir') {
      if (!decoded.endsWith('/')) {
        // Relative URLs in the folder's index.html resolve against "/dir/", not "/".
        const location = `/${segments.map(encodeURIComponent).join('/')}/${query}`;
        sendStatus(res, 301, 'Moved Permanently', { Location: location });
        return;
      }
      found = await locate([...segments, 'index.html']);
    }
    if (found.kind === 'file' && (await serveFile(req, res, found.real))) return;

    const last = segments[segments.length - 1] ?? '';
    if (spaFallback && !last.includes('.')) {
      const index = await locate(['index.html']);
      if (index.kind === 'file' && (await serveFile(req, res, index.real))) return;
    }
    sendStatus(res, 404, 'Not Found');
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
