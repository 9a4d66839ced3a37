import type { Store } from '../../store/store.ts';

/**
 * Text values in the daemon's `flags` table (migration 3; features/forge/flags.ts reads its booleans):
 * the brain's greeting and its code phrase's hash. Values are JSON like every flag; one that is not a
 * string reads as unset.
 */
export function createTextFlags(store: Store) {
  const select = store.db.prepare<[string], { value: string }>('SELECT value FROM flags WHERE key = ?');
  const upsert = store.db.prepare<[string, string, string]>(
    `INSERT INTO flags (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  return {
    get(key: string): string | null {
      const row = select.get(key);
      if (!row) return null;
      try {
        const value: unknown = JSON.parse(row.value);
        return typeof value === 'string' ? value : null;
      } catch {
        return null;
      }
    },
    set(key: string, value: string): void {
      upsert.run(key, JSON.stringify(value), new Date().toISOString());
    },
  };
}
