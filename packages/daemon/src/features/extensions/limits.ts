/**
 * ExtensionBot's fixed numbers and the routes no extension may take. An extension is small static
 * files (a page, a script, a style), so its limits are far below a project's.
 */

/** The manifest at the root of every extension ZIP (docs/extensions.md). */
export const MANIFEST_FILE = 'forge-extension.json';

/** Largest extension ZIP accepted (10 MB, docs/extensions.md). */
export const MAX_EXTENSION_ZIP_BYTES = 10 * 1024 * 1024;
export const MAX_EXTENSION_ZIP_LABEL = '10MB';

/** What one extension may expand to: the ZIP's own defences (traversal, links, bombs) still apply. */
export const EXTENSION_EXTRACT_LIMITS = { maxEntries: 2_000, maxTotalBytes: 50 * 1024 * 1024 } as const;

/** A manifest larger than this is not a manifest. */
export const MAX_MANIFEST_BYTES = 64 * 1024;

/** Versions kept on disk per extension: the current one and the one before (for a rollback). */
export const KEPT_VERSIONS = 2;

/**
 * First path segments the workspace (docs/product.md#routes-and-navigation, the current navigation and the
 * older one) and the daemon itself answer: an extension's route may not start with any of them. "/" is never
 * a valid route.
 */
export const RESERVED_ROUTE_SEGMENTS: ReadonlySet<string> = new Set([
  'dashboard',
  'file-explorer',
  'settings',
  'console',
  'bot-factory',
  'automation',
  'code-generator',
  'description-pad',
  'login',
  'university',
  'code-editor',
  'xword-docs',
  'xcode-workspace',
  'wireframe-designer',
  'veritasx-ai',
  // The daemon's own paths: the API, the socket, the web app's files.
  'api',
  'ws',
  'assets',
  // Integrated apps are shown at /apps/<name> (IntegrationBot).
  'apps',
]);
