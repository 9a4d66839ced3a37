import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** How often a waiter for a lock held by another process tries again. */
const RETRY_MS = 200;

/** Holders and waiters of this process, per lock file: they queue here instead of polling. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` while holding the lock `file`, shared by every process on the machine that uses the same
 * file. The lock is SQLite's exclusive lock, an OS file lock: the kernel releases it when its holder
 * ends, kill -9 included, so no stale lock outlives a crash and the holder never has to prove it is
 * alive. (A lock a tool keeps by touching a file — Yarn 1's `--mutex file:` — breaks when the
 * holder's event loop is held up past its threshold on a busy machine, and the holder then crashes
 * with ECOMPROMISED in the middle of its install.)
 *
 * Waiters in this process queue behind each other; a lock held by another process is tried again
 * every RETRY_MS (a busy timeout would block this process's event loop). `onWait` is called once when
 * the lock is not free at first; `signal` gives up the wait (the promise rejects with its reason).
 */
export async function withFileLock<T>(
  file: string,
  fn: () => Promise<T>,
  options: { signal?: AbortSignal; onWait?: () => void } = {},
): Promise<T> {
  const key = path.resolve(file);
  const before = queues.get(key);
  const mine = (async () => {
    if (before) {
      options.onWait?.();
      await before.catch(() => undefined);
    }
    const db = await acquire(key, before ? undefined : options.onWait, options.signal);
    try {
      return await fn();
    } finally {
      db.close();
    }
  })();
  const settled = mine.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return mine;
}

async function acquire(
  file: string,
  onWait: (() => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<Database.Database> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let waited = false; ; waited = true) {
    signal?.throwIfAborted();
    const db = tryFileLock(file);
    if (db) return db;
    if (!waited) onWait?.();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(done, RETRY_MS);
      function done() {
        signal?.removeEventListener('abort', abort);
        resolve();
      }
      function abort() {
        clearTimeout(timer);
        reject(signal!.reason);
      }
      signal?.addEventListener('abort', abort, { once: true });
    });
  }
}

/**
 * Takes the lock `file` if it is free: the connection holding it (closing it releases the lock), or
 * null when another connection holds it.
 */
export function tryFileLock(file: string): Database.Database | null {
  const db = new Database(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
    // The first write takes the exclusive lock; locking_mode keeps it until the connection closes.
    db.transaction(() => {
      db.prepare('DELETE FROM holder').run();
      db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
    }).exclusive();
    return db;
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw err;
  }
}
