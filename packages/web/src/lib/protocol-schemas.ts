/**
 * Everything of @forge/shared the web uses that carries zod: the typed client (it validates every
 * answer against its route's schema), the socket's parser and the schemas a screen checks itself.
 * Imported only through lib/protocol.ts, so it is a chunk of its own that loads after the first
 * paint (docs/performance.md); nothing else in the web imports these values from the package root.
 */
export {
  createForgeClient,
  ErrorBody,
  ForgeHttpError,
  parseServerFrame,
  routes,
  UploadResult,
} from '@forge/shared';
