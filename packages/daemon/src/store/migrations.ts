import type { Database } from 'better-sqlite3';

/** One schema step. Versions are permanent: never edit a shipped migration, add a new one. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}

/** The ordered schema history. Later issues append their tables here. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'settings',
    up(db) {
      // value holds JSON so every setting type fits one column.
      db.exec(`
        CREATE TABLE settings (
          key TEXT PRIMARY KEY NOT NULL,
          value TEXT NOT NULL,
          updated_at TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
];

/** Apply every migration newer than the database, each in its own transaction. Returns the new version. */
export function runMigrations(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]!.version <= migrations[i - 1]!.version) {
      throw new Error(`Migrations must be in increasing version order (at ${migrations[i]!.name}).`);
    }
  }
  db.exec(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY NOT NULL,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    );
  `);
  const currentVersion = (): number =>
    (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;

  const latestKnown = migrations.at(-1)?.version ?? 0;
  if (currentVersion() > latestKnown) {
    throw new Error(
      `The database schema (version ${currentVersion()}) is newer than this Forge (version ${latestKnown}). Update Forge.`,
    );
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of migrations) {
    // Re-read inside an IMMEDIATE transaction so two processes never apply the same step twice.
    const apply = db.transaction(() => {
      if (currentVersion() >= migration.version) return;
      migration.up(db);
      record.run(migration.version, migration.name, new Date().toISOString());
    });
    apply.immediate();
  }
  return currentVersion();
}
