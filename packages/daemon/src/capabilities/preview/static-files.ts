import type { IncomingMessage, ServerResponse } from 'node:http';

// The file server's contract (static-server.ts), apart so the site's answers can take it without a cycle.

/** What `serve` did: sent an answer (a file, a redirect, a 304/412/416), or left it to the caller. */
export type StaticOutcome =
  | { kind: 'sent' }
  /** Nothing servable there (missing, a link out of the root, a folder with `folders: 'none'`). */
  | { kind: 'missing' }
  /** Refused before looking: 400 for a malformed or traversing path, 404 for a dot entry. */
  | { kind: 'refused'; status: 400 | 404 };

export interface StaticFiles {
  /** Serves the file `req.url` names, if any (see the module comment). Never throws for bad input. */
  serve(req: IncomingMessage, res: ServerResponse): Promise<StaticOutcome>;
  /** Serves the root index.html (the SPA fallback); false when there is none. */
  serveIndex(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
}

/** The file server with what a site's own answers need (site-answers.ts). */
export interface PreviewFiles extends StaticFiles {
  /**
   * What the decoded path `segments` name inside the root (links followed, never out of the root nor
   * onto a dot entry): a file or a folder with its root-relative path, or null.
   */
  lookup(segments: readonly string[]): { kind: 'file' | 'dir'; rel: string } | null;
  /**
   * Sends the file `rel` (from `lookup`). With status 200 through `send` (ranges, conditional GET);
   * with another status (a site's 404 page) without ranges or validators, so it never becomes a 304.
   */
  sendFile(req: IncomingMessage, res: ServerResponse, rel: string, status?: number): Promise<boolean>;
}
