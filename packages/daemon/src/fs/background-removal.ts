import { rm } from 'node:fs/promises';

/** Where a background removal logs what it could not remove (a pino logger fits). */
export interface RemovalLogger {
  warn(details: object, message: string): void;
}

const pendingRemovals = new Set<Promise<void>>();

/** Deletes a folder without anyone waiting for it; a failure is logged, never thrown. */
export function removeInBackground(dir: string, logger?: RemovalLogger): void {
  const removal: Promise<void> = rm(dir, { recursive: true, force: true, maxRetries: 3 })
    .catch((error: unknown) => {
      logger?.warn(
        { err: error, dir },
        'Could not remove a replaced project copy; it will be swept at next start',
      );
    })
    .finally(() => pendingRemovals.delete(removal));
  pendingRemovals.add(removal);
}

/** Resolves once every background removal started so far has finished (graceful shutdown, tests). */
export async function settleBackgroundRemovals(): Promise<void> {
  while (pendingRemovals.size > 0) await Promise.all([...pendingRemovals]);
}
