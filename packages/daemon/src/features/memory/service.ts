import type { MemoryCell } from '@forge/shared';
import type { Fleet } from '../../engine/fleet/fleet.ts';
import type { Store } from '../../store/store.ts';
import { createMemoryRepo } from './repo.ts';

export interface MemoryServiceDeps {
  store: Store;
  fleet: Fleet;
  now: () => number;
}

/**
 * MemoryBot: every change of a memory cell is one of its jobs (its card says what it last did);
 * reads go straight to the store. A job's label and summary are public (every client sees the
 * fleet's cards): they never name a cell, whose key is as private as its value.
 */
export function createMemoryService({ store, fleet, now }: MemoryServiceDeps) {
  const repo = createMemoryRepo(store);
  const job = <T>(label: string, fn: () => T, summary: (result: T) => string) =>
    fleet.run('MemoryBot', { label }, () => Promise.resolve().then(fn), { slot: false, summary });

  return {
    list: (): MemoryCell[] => repo.list(),
    get: (key: string): MemoryCell | null => repo.get(key),
    /** The cell named `key` without regard to case. */
    find: (key: string): MemoryCell | null => repo.find(key),
    count: (): number => repo.count(),
    set(key: string, value: string): Promise<MemoryCell> {
      return job(
        'remember a cell',
        () => repo.set(key, value, now()),
        () => `Remembered a cell (${repo.count()} in memory)`,
      );
    },
    /** Whether there was such a cell. */
    delete(key: string): Promise<boolean> {
      return job(
        'forget a cell',
        () => repo.delete(key),
        (gone) => (gone ? `Forgot a cell (${repo.count()} in memory)` : 'Had no such cell to forget'),
      );
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;
