import { afterFirstPaint } from './first-paint.ts';
import type * as ProtocolModule from './protocol-schemas.ts';

/**
 * The protocol's schemas (zod and every payload's shape, ~40 KB gzip) are not part of the first
 * paint: the shell renders, connects and takes input from @forge/shared/schema-free alone, and
 * everything that enters from the daemon waits here for the schemas before anyone reads it
 * (lib/api.ts for answers, lib/early-socket.ts for socket messages). So data is still validated
 * where it enters, only a moment after the shell is on screen (docs/performance.md).
 */
export type Protocol = typeof ProtocolModule;

let loading: Promise<Protocol> | undefined;

/**
 * The schemas, loaded once after the first paint (lib/first-paint.ts), so they never compete with
 * the shell's own scripts; a failed download (Forge rebuilt under the tab) is tried again on the
 * next use.
 */
export function protocol(): Promise<Protocol> {
  loading ??= afterFirstPaint()
    .then(() => import('./protocol-schemas.ts'))
    .catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
  return loading;
}
