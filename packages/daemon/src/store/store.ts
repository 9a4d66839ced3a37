import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, runMigrations, type Migration } from './migrations.ts';

/** File name of the SQLite store inside FORGE_HOME. */
export const STORE_FILE = 'forge.db';

/** The daemon's storage. Features own their SQL; the store owns the connection and the schema. */
export interface Store {
  readonly db: Database.Database;
  readonly file: string;
  readonly schemaVersion: number;
  /** Checkpoint the WAL into the main file and close. Idempotent. */
  close(): void;
}

export interface OpenStoreOptions {
  migrations?: readonly Migration[];
  /** How long a writer waits for a lock held by another connection. */
  busyTimeoutMs?: number;
}

export function openStore(file: string, options: OpenStoreOptions = {}): Store {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, { timeout: options.busyTimeoutMs ?? 5_000 });
  try {
    db.pragma('journal_mode = WAL');
    // FULL: a write is on disk before its request is answered, so a kill -9 keeps old or new, never half.
    db.pragma('synchronous = FULL');
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5_000}`);
    db.pragma('foreign_keys = ON');
    const schemaVersion = runMigrations(db, options.migrations ?? MIGRATIONS);
    let closed = false;
    return {
      db,
      file,
      schemaVersion,
      close() {
        if (closed) return;
        closed = true;
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      },
    };
  } catch (err) {
    db.close();
    throw err;
  }
}
