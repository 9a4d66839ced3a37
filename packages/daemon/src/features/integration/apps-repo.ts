import type { Store } from '../../store/store.ts';

/** One integrated app as stored (the `integrated_apps` table, migration 8). */
export interface IntegratedAppRecord {
  /** The project's name: also its route segment (/apps/<name>) and folder under FORGE_HOME/apps. */
  name: string;
  /** The build whose output was published; its snapshot is FORGE_HOME/apps/<name>/<buildId>. */
  buildId: string;
  /** Files in the snapshot. */
  files: number;
  /** The snapshot it replaced, kept on disk for a rollback. */
  previousBuildId: string | null;
  integratedAt: string;
}

interface Row {
  name: string;
  build_id: string;
  files: number;
  previous_build_id: string | null;
  integrated_at: string;
}

const toRecord = (row: Row): IntegratedAppRecord => ({
  name: row.name,
  buildId: row.build_id,
  files: row.files,
  previousBuildId: row.previous_build_id,
  integratedAt: row.integrated_at,
});

/** IntegrationBot's registry of published apps. */
export function createAppsRepo(store: Store) {
  const { db } = store;
  const all = db.prepare<[], Row>('SELECT * FROM integrated_apps ORDER BY name');
  const one = db.prepare<[string], Row>('SELECT * FROM integrated_apps WHERE name = ?');
  const upsert = db.prepare<[string, string, number, string | null, string]>(
    `INSERT INTO integrated_apps (name, build_id, files, previous_build_id, integrated_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(name) DO UPDATE SET build_id = excluded.build_id, files = excluded.files,
       previous_build_id = excluded.previous_build_id, integrated_at = excluded.integrated_at`,
  );

  return {
    list(): IntegratedAppRecord[] {
      return all.all().map(toRecord);
    },
    get(name: string): IntegratedAppRecord | null {
      const row = one.get(name);
      return row ? toRecord(row) : null;
    },
    save(app: IntegratedAppRecord): void {
      upsert.run(app.name, app.buildId, app.files, app.previousBuildId, app.integratedAt);
    },
  };
}

export type AppsRepo = ReturnType<typeof createAppsRepo>;
