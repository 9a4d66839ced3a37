import type { Store } from '../../store/store.ts';

/** One installed extension as the store keeps it (table `extensions`, migration 7). */
export interface ExtensionRecord {
  name: string;
  displayName: string;
  route: string;
  description: string;
  version: string;
  /** The HTML page opened at its route, relative to its folder. */
  entry: string;
  /** The version kept beside it for a rollback, if any. */
  previousVersion: string | null;
  installedAt: string;
}

interface Row {
  name: string;
  display_name: string;
  route: string;
  description: string;
  version: string;
  entry: string;
  previous_version: string | null;
  installed_at: string;
}

const fromRow = (row: Row): ExtensionRecord => ({
  name: row.name,
  displayName: row.display_name,
  route: row.route,
  description: row.description,
  version: row.version,
  entry: row.entry,
  previousVersion: row.previous_version,
  installedAt: row.installed_at,
});

/** ExtensionBot's SQL: the registry of installed extensions. */
export function createExtensionRegistry(store: Store) {
  const all = store.db.prepare<[], Row>('SELECT * FROM extensions ORDER BY name');
  const one = store.db.prepare<[string], Row>('SELECT * FROM extensions WHERE name = ?');
  const upsert = store.db.prepare(`
    INSERT INTO extensions (name, display_name, route, description, version, entry, previous_version, installed_at)
    VALUES (@name, @displayName, @route, @description, @version, @entry, @previousVersion, @installedAt)
    ON CONFLICT (name) DO UPDATE SET
      display_name = excluded.display_name, route = excluded.route, description = excluded.description,
      version = excluded.version, entry = excluded.entry, previous_version = excluded.previous_version,
      installed_at = excluded.installed_at
  `);
  const remove = store.db.prepare<[string]>('DELETE FROM extensions WHERE name = ?');
  return {
    list: (): ExtensionRecord[] => all.all().map(fromRow),
    get: (name: string): ExtensionRecord | null => {
      const row = one.get(name);
      return row ? fromRow(row) : null;
    },
    save: (record: ExtensionRecord): void => void upsert.run(record),
    remove: (name: string): boolean => remove.run(name).changes > 0,
  };
}

export type ExtensionRegistry = ReturnType<typeof createExtensionRegistry>;
