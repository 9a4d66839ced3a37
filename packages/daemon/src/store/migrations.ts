import type { Database } from 'better-sqlite3';
import {
  ERROR_CODES,
  FINAL_STAGE,
  isBuildState,
  isFinished,
  type BuildStatus,
  type Stage,
} from '@forge/shared';

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
  {
    version: 2,
    name: 'projects, builds and build logs',
    up(db) {
      // A build row exists from the first byte of its upload; `record` holds the JSON parts of the
      // shared Build schema (blueprint, stages, steps, reports) that are read and written whole.
      // `pids` lists the process groups a build has running, so a restarted daemon can kill them.
      db.exec(`
        CREATE TABLE projects (
          name TEXT PRIMARY KEY NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          output_hash TEXT,
          output_build_id TEXT,
          preview_pid INTEGER
        ) STRICT;
        CREATE TABLE builds (
          id TEXT PRIMARY KEY NOT NULL,
          seq INTEGER NOT NULL UNIQUE,
          project_name TEXT NOT NULL,
          status TEXT NOT NULL,
          stage TEXT NOT NULL,
          created_at TEXT NOT NULL,
          ended_at TEXT,
          duration_ms INTEGER,
          cache_hit INTEGER NOT NULL DEFAULT 0,
          no_cache INTEGER NOT NULL DEFAULT 0,
          source_hash TEXT,
          record TEXT NOT NULL,
          log_count INTEGER NOT NULL DEFAULT 0,
          log_truncated INTEGER NOT NULL DEFAULT 0,
          pids TEXT NOT NULL DEFAULT '[]'
        ) STRICT;
        CREATE INDEX builds_by_project ON builds (project_name, seq DESC);
        CREATE INDEX builds_active ON builds (status) WHERE status IN ('queued', 'running');
        CREATE TABLE build_logs (
          build_id TEXT NOT NULL REFERENCES builds (id) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          ts TEXT NOT NULL,
          level TEXT NOT NULL,
          bot_name TEXT NOT NULL,
          message TEXT NOT NULL,
          PRIMARY KEY (build_id, seq)
        ) STRICT, WITHOUT ROWID;
      `);
    },
  },
  {
    version: 3,
    name: 'flags',
    up(db) {
      // Daemon switches that are not user settings (the auto-forge toggle); value holds JSON.
      db.exec(`
        CREATE TABLE flags (
          key TEXT PRIMARY KEY NOT NULL,
          value TEXT NOT NULL,
          updated_at TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 4,
    name: 'builds agree with the build machine',
    up(db) {
      // Records written before the build state machine: a cancelled build left at "build-start", an
      // error code outside the catalogue (INTERRUPTED), a build killed between two writes (running at
      // a final stage). Each finished build is moved to its status's final stage (with that stage
      // recorded), codes are renamed, and an unfinished build in a state that cannot exist is
      // marked interrupted, which is what recovery would have made of it.
      const known = new Set<string>(ERROR_CODES);
      const renamed: Record<string, string> = { INTERRUPTED: 'BUILD_INTERRUPTED' };
      const rows = db
        .prepare('SELECT id, status, stage, created_at, ended_at, record FROM builds')
        .all() as Array<{
        id: string;
        status: BuildStatus;
        stage: Stage;
        created_at: string;
        ended_at: string | null;
        record: string;
      }>;
      const update = db.prepare(
        'UPDATE builds SET status = ?, stage = ?, ended_at = ?, record = ? WHERE id = ?',
      );
      for (const row of rows) {
        const record = JSON.parse(row.record) as {
          stages?: Array<{ stage: Stage; at: string }>;
          error?: { code: string; message: string } | null;
        };
        let { status, stage } = row;
        let endedAt = row.ended_at;
        let changed = false;
        if (!isBuildState({ status, stage })) {
          if (!isFinished(status)) {
            status = 'interrupted';
            record.error ??= {
              code: 'BUILD_INTERRUPTED',
              message: 'The Forge daemon stopped while this build was running.',
            };
          }
          stage = FINAL_STAGE[status as keyof typeof FINAL_STAGE];
          endedAt ??= record.stages?.at(-1)?.at ?? row.created_at;
          record.stages = [...(record.stages ?? []), { stage, at: endedAt }];
          changed = true;
        }
        if (record.error && !known.has(record.error.code)) {
          record.error = { ...record.error, code: renamed[record.error.code] ?? 'INTERNAL' };
          changed = true;
        }
        if (changed) update.run(status, stage, endedAt, JSON.stringify(record), row.id);
      }
    },
  },
  {
    version: 5,
    name: 'the app of a repository of several that a project builds',
    up(db) {
      // NULL: BlueprintBot picks (apps/* first, a web app over a library…); else the folder chosen
      // with `forge upload --app`, a build's `app`, or the web's project settings.
      db.exec('ALTER TABLE projects ADD COLUMN app TEXT');
    },
  },
  {
    version: 6,
    name: 'assistants: memory cells and the repair journal',
    up(db) {
      // MemoryBot's cells (docs/product.md#entities: key, value, ts in ms). The repair journal: every repair
      // RepairBot proposed or made, with the folder under FORGE_HOME/repairs holding the files as they were
      // before it, so `forge fix --undo` can put them back. files is a JSON array of project paths.
      db.exec(`
        CREATE TABLE memory_cells (
          key TEXT PRIMARY KEY NOT NULL,
          value TEXT NOT NULL,
          ts INTEGER NOT NULL
        ) STRICT;
        CREATE TABLE repairs (
          id TEXT PRIMARY KEY NOT NULL,
          seq INTEGER NOT NULL UNIQUE,
          project_name TEXT NOT NULL,
          build_id TEXT,
          code TEXT NOT NULL,
          summary TEXT NOT NULL,
          files TEXT NOT NULL DEFAULT '[]',
          diff TEXT NOT NULL DEFAULT '',
          status TEXT NOT NULL,
          at TEXT NOT NULL,
          backup_dir TEXT
        ) STRICT;
        CREATE INDEX repairs_by_project ON repairs (project_name, seq DESC);
      `);
    },
  },
  {
    version: 7,
    name: 'installed extensions',
    up(db) {
      // ExtensionBot's registry: one row per installed extension. Its files live under
      // FORGE_HOME/extensions/<name>/<version>/; previous_version is the one kept for a rollback.
      db.exec(`
        CREATE TABLE extensions (
          name TEXT PRIMARY KEY NOT NULL,
          display_name TEXT NOT NULL,
          route TEXT NOT NULL UNIQUE,
          description TEXT NOT NULL DEFAULT '',
          version TEXT NOT NULL,
          entry TEXT NOT NULL,
          previous_version TEXT,
          installed_at TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 8,
    name: 'integrated apps',
    up(db) {
      // IntegrationBot's published apps: one row per project integrated into the platform, shown at
      // /apps/<name>. Its files are a snapshot under FORGE_HOME/apps/<name>/<build_id>/ (later builds
      // never change it); previous_build_id is the snapshot kept for a rollback.
      db.exec(`
        CREATE TABLE integrated_apps (
          name TEXT PRIMARY KEY NOT NULL,
          build_id TEXT NOT NULL,
          files INTEGER NOT NULL,
          previous_build_id TEXT,
          integrated_at TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 9,
    name: 'family accounts',
    up(db) {
      // The university (AuthBot): accounts with scrypt hashes (never the password), login tokens
      // stored only as their SHA-256 (times in ms since the epoch), the family chat, and the audit
      // log of family actions.
      db.exec(`
        CREATE TABLE family_accounts (
          name TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
          password_hash TEXT NOT NULL,
          created_at TEXT NOT NULL,
          last_login_at TEXT
        ) STRICT;
        CREATE TABLE family_tokens (
          token_hash TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL COLLATE NOCASE,
          created_at INTEGER NOT NULL,
          last_used_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX family_tokens_by_name ON family_tokens (name);
        CREATE TABLE family_chat (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          "from" TEXT NOT NULL,
          text TEXT NOT NULL,
          at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE audit_log (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          at TEXT NOT NULL,
          action TEXT NOT NULL,
          actor TEXT,
          detail TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 10,
    name: 'verification rebuilds',
    up(db) {
      // `forge verify --rebuild` (features/artifacts/rebuild.ts): each rebuild's answer as JSON (the
      // shared Rebuild schema, with its log's tail), so GET /api/rebuilds/:id answers after a restart.
      // A row whose finished_at is NULL when the daemon starts was running when it stopped.
      db.exec(`
        CREATE TABLE verification_rebuilds (
          id TEXT PRIMARY KEY NOT NULL,
          started_at TEXT NOT NULL,
          finished_at TEXT,
          state TEXT NOT NULL
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
