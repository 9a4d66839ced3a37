import path from 'node:path';
import { tryFileLock } from '../fs/file-lock.ts';

export const LOCK_FILE = 'daemon.lock';

export interface InstanceLock {
  release(): void;
}

/**
 * One daemon per FORGE_HOME. An exclusive SQLite lock is an OS file lock: it is held for the life
 * of the process and released by the kernel even after kill -9, so a stale lock cannot exist and two
 * daemons started at the same instant cannot both win. Returns null when another process holds it.
 */
export function acquireInstanceLock(home: string): InstanceLock | null {
  const db = tryFileLock(path.join(home, LOCK_FILE));
  return db ? { release: () => db.close() } : null;
}
