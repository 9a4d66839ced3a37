import path from 'node:path';
import Database from 'better-sqlite3';

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
  const db = new Database(path.join(home, LOCK_FILE), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
    // The first write takes the exclusive lock; locking_mode keeps it until the connection closes.
    db.transaction(() => {
      db.prepare('DELETE FROM holder').run();
      db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    }).exclusive();
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw err;
  }
  return { release: () => db.close() };
}
