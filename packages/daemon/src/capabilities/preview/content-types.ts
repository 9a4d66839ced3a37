import path from 'node:path';

/**
 * Content types come from the mime database `send` uses (mime-types: text types with
 * `charset=utf-8`, `application/octet-stream` when unknown, always with `nosniff`). These are the
 * few extensions where a browser needs another answer than the database's.
 */
const OVERRIDES: Readonly<Record<string, string>> = {
  // CommonJS modules bundled for the browser: the database says application/node, which a
  // <script> refuses to run under nosniff.
  cjs: 'text/javascript; charset=utf-8',
};

/** The Content-Type to send instead of the database's for `fileName`, if any (by extension, any case). */
export function contentTypeOverride(fileName: string): string | undefined {
  return OVERRIDES[path.extname(fileName).slice(1).toLowerCase()];
}
