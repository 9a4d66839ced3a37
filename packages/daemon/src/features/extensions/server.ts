import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../../http/security.ts';
import { daemonUrl, listenHost } from '../../lifecycle/urls.ts';
import { createStaticFiles, sendStatus } from '../../capabilities/preview/static-server.ts';

/**
 * One extension's files, served on their own loopback port: their own origin, as a preview is. The
 * daemon's API is another origin and sends no CORS headers, and its security policy refuses a
 * state-changing request whose Origin is not its own (403 ORIGIN_NOT_ALLOWED), so a page here can
 * neither read the daemon's answers nor change anything. The CSP below says the same to the browser
 * first: scripts, styles and connections only from the extension's own origin, no plugins, no forms
 * posting elsewhere. Which file a URL names, and what is refused (traversal, dot entries, links out
 * of the folder), is the previews' createStaticFiles.
 */
export const EXTENSION_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "media-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export interface ExtensionServer {
  /** Its origin, e.g. "http://127.0.0.1:41234" (no trailing slash). */
  origin: string;
  /** The folder it serves. */
  root: string;
  close(): Promise<void>;
}

const loopbackHostOnly = (hostHeader: string | undefined): boolean => {
  if (!hostHeader) return false;
  try {
    return isLoopbackHost(new URL(`http://${hostHeader}`).hostname);
  } catch {
    return false;
  }
};

/** Starts serving `root` (an installed version's folder) on a free loopback port. */
export async function startExtensionServer(root: string, host = '127.0.0.1'): Promise<ExtensionServer> {
  const files = createStaticFiles({
    root,
    setHeaders: (res, rel) => {
      res.setHeader('Cache-Control', /\.html?$/i.test(rel) ? 'no-cache' : 'public, max-age=60');
      res.setHeader('Content-Security-Policy', EXTENSION_CSP);
      res.setHeader('Referrer-Policy', 'no-referrer');
    },
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendStatus(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
      return;
    }
    // DNS rebinding: a page of another name resolving to 127.0.0.1 gets nothing.
    if (isLoopbackHost(host) && !loopbackHostOnly(req.headers.host)) {
      sendStatus(res, 403, 'Forbidden host');
      return;
    }
    const outcome = await files.serve(req, res);
    if (outcome.kind === 'sent') return;
    if (outcome.kind === 'refused')
      sendStatus(res, outcome.status, outcome.status === 400 ? 'Bad Request' : 'Not Found');
    else sendStatus(res, 404, 'Not Found');
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendStatus(res, 500, 'Internal Server Error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, listenHost(host), () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    origin: daemonUrl(host, port),
    root,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
