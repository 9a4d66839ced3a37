import type { MemoryCell } from '@forge/shared';
import type { Store } from '../../store/store.ts';

/**
 * MemoryBot's cells (the `memory_cells` table, migration 6): what the user asked the brain to
 * remember, as key, value and the time it was last set (ms). Keys keep the case they were written in;
 * the brain finds them without regard to case (`find`).
 */
export function createMemoryRepo(store: Store) {
  const { db } = store;
  const listAll = db.prepare<[], MemoryCell>('SELECT key, value, ts FROM memory_cells ORDER BY ts DESC, key');
  const byKey = db.prepare<[string], MemoryCell>('SELECT key, value, ts FROM memory_cells WHERE key = ?');
  const byKeyNoCase = db.prepare<[string], MemoryCell>(
    'SELECT key, value, ts FROM memory_cells WHERE key = ? COLLATE NOCASE ORDER BY ts DESC LIMIT 1',
  );
  const upsert = db.prepare<[string, string, number]>(
    `INSERT INTO memory_cells (key, value, ts) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, ts = excluded.ts`,
  );
  const remove = db.prepare<[string]>('DELETE FROM memory_cells WHERE key = ?');
  const countAll = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM memory_cells');

  return {
    /** Every cell, the most recently set first. */
    list(): MemoryCell[] {
      return listAll.all();
    },
    get(key: string): MemoryCell | null {
      return byKey.get(key) ?? null;
    },
    /** The cell whose key matches without regard to case (the newest, if several differ only by case). */
    find(key: string): MemoryCell | null {
      return byKeyNoCase.get(key) ?? null;
    },
    set(key: string, value: string, ts: number): MemoryCell {
      upsert.run(key, value, ts);
      return { key, value, ts };
    },
    /** Whether there was such a cell. */
    delete(key: string): boolean {
      return remove.run(key).changes > 0;
    },
    count(): number {
      return countAll.get()?.n ?? 0;
    },
  };
}

export type MemoryRepo = ReturnType<typeof createMemoryRepo>;
