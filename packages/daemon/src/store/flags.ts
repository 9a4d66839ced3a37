import type { Store } from './store.ts';

/**
 * The daemon's own switches and single values that are not user settings (the `flags` table,
 * migration 3): Auto-Forge's on/off, the brain's greeting and code-phrase hash, the project the user
 * chose. Values are JSON; one this version cannot read (or of another type) reads as unset, so an
 * odd row never breaks the daemon.
 */
export function createFlags(store: Pick<Store, 'db'>) {
  const select = store.db.prepare<[string], { value: string }>('SELECT value FROM flags WHERE key = ?');
  const upsert = store.db.prepare<[string, string, string]>(
    `INSERT INTO flags (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const read = (key: string): unknown => {
    const row = select.get(key);
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as unknown;
    } catch {
      return undefined;
    }
  };
  return {
    boolean(key: string, fallback: boolean): boolean {
      const value = read(key);
      return typeof value === 'boolean' ? value : fallback;
    },
    /** A text value, or null when unset or not a string. */
    text(key: string): string | null {
      const value = read(key);
      return typeof value === 'string' ? value : null;
    },
    set(key: string, value: boolean | string): void {
      upsert.run(key, JSON.stringify(value), new Date().toISOString());
    },
  };
}

export type Flags = ReturnType<typeof createFlags>;
