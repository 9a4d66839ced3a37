import type { Store } from '../../store/store.ts';

/**
 * Daemon switches that are not user settings (the `flags` table, migration 3). Values are JSON; a
 * value this version cannot read falls back to the default instead of breaking the daemon.
 */
export function createFlags(store: Store) {
  const select = store.db.prepare<[string], { value: string }>('SELECT value FROM flags WHERE key = ?');
  const upsert = store.db.prepare<[string, string, string]>(
    `INSERT INTO flags (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  return {
    boolean(key: string, fallback: boolean): boolean {
      const row = select.get(key);
      if (!row) return fallback;
      try {
        const value: unknown = JSON.parse(row.value);
        return typeof value === 'boolean' ? value : fallback;
      } catch {
        return fallback;
      }
    },
    set(key: string, value: boolean): void {
      upsert.run(key, JSON.stringify(value), new Date().toISOString());
    },
  };
}

export type Flags = ReturnType<typeof createFlags>;
