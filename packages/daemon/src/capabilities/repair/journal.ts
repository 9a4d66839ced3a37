import { Repair } from '@forge/shared';
import type { Store } from '../../store/store.ts';

interface RepairRow {
  id: string;
  seq: number;
  project_name: string;
  build_id: string | null;
  code: string;
  summary: string;
  files: string;
  diff: string;
  status: string;
  at: string;
  backup_dir: string | null;
}

/** A journal entry: the repair, its project, and where the files it changed were saved. */
export interface JournalEntry {
  repair: Repair;
  projectName: string;
  backupDir: string | null;
}

const toEntry = (row: RepairRow): JournalEntry => ({
  projectName: row.project_name,
  backupDir: row.backup_dir,
  repair: Repair.parse({
    id: row.id,
    code: row.code,
    summary: row.summary,
    files: JSON.parse(row.files) as string[],
    status: row.status,
    diff: row.diff,
    at: row.at,
    buildId: row.build_id,
  }),
});

/**
 * The repair journal (migration 6): every repair RepairBot proposed or made, per project, with the
 * folder holding the files as they were before it. Ids are short and readable (`r_12`), for
 * `forge fix --undo r_12`.
 */
export function createRepairJournal(store: Store) {
  const db = store.db;
  const stmt = {
    nextSeq: db.prepare<[], { s: number | null }>('SELECT MAX(seq) AS s FROM repairs'),
    insert: db.prepare(
      `INSERT INTO repairs (id, seq, project_name, build_id, code, summary, files, diff, status, at, backup_dir)
       VALUES (@id, @seq, @project_name, @build_id, @code, @summary, @files, @diff, @status, @at, @backup_dir)`,
    ),
    update: db.prepare(
      `UPDATE repairs SET status = @status, summary = @summary, files = @files, diff = @diff, at = @at,
         build_id = @build_id, backup_dir = @backup_dir WHERE id = @id`,
    ),
    get: db.prepare<[string], RepairRow>('SELECT * FROM repairs WHERE id = ?'),
    list: db.prepare<[string, number], RepairRow>(
      'SELECT * FROM repairs WHERE project_name = ? ORDER BY seq DESC LIMIT ?',
    ),
    applied: db.prepare<[string], RepairRow>(
      "SELECT * FROM repairs WHERE project_name = ? AND status = 'applied' ORDER BY seq DESC",
    ),
  };
  const row = (e: JournalEntry, seq: number): RepairRow => ({
    id: e.repair.id,
    seq,
    project_name: e.projectName,
    build_id: e.repair.buildId,
    code: e.repair.code,
    summary: e.repair.summary,
    files: JSON.stringify(e.repair.files),
    diff: e.repair.diff,
    status: e.repair.status,
    at: e.repair.at,
    backup_dir: e.backupDir,
  });
  const insert = db.transaction((e: Omit<JournalEntry, 'repair'> & { repair: Omit<Repair, 'id'> }) => {
    const seq = (stmt.nextSeq.get()?.s ?? 0) + 1;
    const entry: JournalEntry = { ...e, repair: { ...e.repair, id: `r_${seq}` } };
    stmt.insert.run(row(entry, seq));
    return entry;
  });

  return {
    /** Add a repair; it gets its id here. */
    add(entry: Omit<JournalEntry, 'repair'> & { repair: Omit<Repair, 'id'> }): JournalEntry {
      return insert(entry);
    },
    /** Change a repair's status (and what it did, once applied). */
    update(
      id: string,
      patch: Partial<Omit<Repair, 'id' | 'code'>> & { backupDir?: string | null },
    ): JournalEntry {
      const current = stmt.get.get(id);
      if (!current) throw new Error(`No repair ${id}`);
      const entry = toEntry(current);
      const { backupDir, ...repair } = patch;
      const next: JournalEntry = {
        ...entry,
        repair: { ...entry.repair, ...repair },
        backupDir: backupDir === undefined ? entry.backupDir : backupDir,
      };
      stmt.update.run(row(next, current.seq));
      return next;
    },
    get(id: string): JournalEntry | null {
      const r = stmt.get.get(id);
      return r ? toEntry(r) : null;
    },
    /** A project's repairs, newest first. */
    list(projectName: string, limit = 200): Repair[] {
      return stmt.list.all(projectName, limit).map((r) => toEntry(r).repair);
    },
    /** Applied (not undone) repairs of a project, newest first. */
    applied(projectName: string): JournalEntry[] {
      return stmt.applied.all(projectName).map(toEntry);
    },
  };
}

export type RepairJournal = ReturnType<typeof createRepairJournal>;
