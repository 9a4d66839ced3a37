import crypto from 'node:crypto';
import { Build, ERROR_CODES, newBuild, type ErrorCode, ProjectKind, Project } from '@forge/shared';
import { createFlags, type Flags } from '../store/flags.ts';
import type { Store } from '../store/store.ts';
import { mergeBySeq, type LogArchive, type LogRow } from './log-archive.ts';

/** The JSON part of a build row: the fields of Build the pipeline reads and writes whole. */
type BuildRecordJson = Pick<
  Build,
  | 'blueprint'
  | 'extraction'
  | 'stages'
  | 'steps'
  | 'test'
  | 'uiCheck'
  | 'bundle'
  | 'previewUrl'
  | 'cancelReason'
  | 'error'
  | 'diagnosis'
  | 'repairs'
  | 'lint'
  | 'worker'
  | 'testsOption'
  | 'verdict'
>;

interface BuildRow {
  id: string;
  seq: number;
  project_name: string;
  status: string;
  stage: string;
  created_at: string;
  ended_at: string | null;
  duration_ms: number | null;
  cache_hit: number;
  no_cache: number;
  source_hash: string | null;
  record: string;
  log_count: number;
  log_truncated: number;
  pids: string;
}

interface ProjectRow {
  name: string;
  created_at: string;
  updated_at: string;
  output_hash: string | null;
  output_build_id: string | null;
  preview_pid: number | null;
  app: string | null;
}

/** A project as the daemon keeps it. */
export interface ProjectRecord {
  name: string;
  createdAt: string;
  updatedAt: string;
  /** The stored output of its last successful build: the source hash it was built from, and the build. */
  output: { hash: string; buildId: string } | null;
  /** Process group of its running server-app preview, if any (killed after a crash). */
  previewPid: number | null;
  /** The app folder chosen for a repository of several apps; null lets BlueprintBot pick. */
  app: string | null;
}

/** A project with its newest build (GET /api/projects), read in one query. */
export type ProjectSummary = ProjectRecord & {
  lastBuild: Project['lastBuild'];
  /** What kind of project its stored output was built from (static, static-build, server), if any. */
  outputKind: ProjectKind | null;
};

/** A build the store says is still queued or running, with the process groups it has. */
export interface ActiveBuild {
  build: Build;
  pids: number[];
}

const toProject = (row: ProjectRow): ProjectRecord => ({
  name: row.name,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  output:
    row.output_hash !== null && row.output_build_id !== null
      ? { hash: row.output_hash, buildId: row.output_build_id }
      : null,
  previewPid: row.preview_pid,
  app: row.app ?? null,
});

interface LastBuildColumns {
  last_id: string | null;
  last_status: string | null;
  last_stage: string | null;
  last_created_at: string | null;
  last_cache_hit: number | null;
  output_kind: string | null;
}

export type { LogRow } from './log-archive.ts';

/** The part of a build stored as JSON. */
const recordOf = (b: Build): BuildRecordJson => ({
  blueprint: b.blueprint,
  extraction: b.extraction,
  stages: b.stages,
  steps: b.steps,
  test: b.test,
  uiCheck: b.uiCheck,
  bundle: b.bundle,
  previewUrl: b.previewUrl,
  cancelReason: b.cancelReason,
  error: b.error,
  diagnosis: b.diagnosis,
  repairs: b.repairs,
  lint: b.lint,
  worker: b.worker,
  testsOption: b.testsOption,
  verdict: b.verdict,
});

/** What a stored record lacks (a record of an older Forge) reads as a new build's value. */
const EMPTY_RECORD: BuildRecordJson = { ...recordOf(newBuild('', '', '')), stages: [] };

const KNOWN_CODES = new Set<string>(ERROR_CODES);

function toBuild(row: BuildRow): Build {
  const record = { ...EMPTY_RECORD, ...(JSON.parse(row.record) as Partial<BuildRecordJson>) };
  // A record written by a newer Forge (or a hand-edited store) must not make every list unreadable.
  if (record.error && !KNOWN_CODES.has(record.error.code)) {
    record.error = { code: 'INTERNAL' satisfies ErrorCode, message: record.error.message };
  }
  return Build.parse({
    id: row.id,
    projectName: row.project_name,
    status: row.status,
    stage: row.stage,
    createdAt: row.created_at,
    endedAt: row.ended_at,
    durationMs: row.duration_ms,
    cacheHit: row.cache_hit === 1,
    noCache: row.no_cache === 1,
    sourceHash: row.source_hash,
    logCount: row.log_count,
    logTruncated: row.log_truncated === 1,
    ...record,
  });
}

const CURRENT_PROJECT_FLAG = 'current-project';

/**
 * Builds, their logs and projects in SQLite. Every write is its own transaction (synchronous=FULL).
 * A finished build's log lines may have been moved to `logArchive` (LogBot): `logs` and `lastLogSeq`
 * read both, so every reader gets the same lines wherever they are.
 */
export function createBuildRepo(store: Store, opts: { logArchive?: LogArchive; flags?: Flags } = {}) {
  const archive = opts.logArchive;
  const db = store.db;
  // The user's chosen project lives in the daemon's flags: no table of its own for one value.
  const flags = opts.flags ?? createFlags(store);
  const stmt = {
    nextSeq: db.prepare<[], { s: number | null }>('SELECT MAX(seq) AS s FROM builds'),
    insert: db.prepare(
      `INSERT INTO builds (id, seq, project_name, status, stage, created_at, no_cache, record)
       VALUES (@id, @seq, @project_name, @status, @stage, @created_at, @no_cache, @record)`,
    ),
    get: db.prepare<[string], BuildRow>('SELECT * FROM builds WHERE id = ?'),
    update: db.prepare(
      `UPDATE builds SET status = @status, stage = @stage, ended_at = @ended_at, duration_ms = @duration_ms,
         cache_hit = @cache_hit, source_hash = @source_hash, record = @record,
         log_count = @log_count, log_truncated = @log_truncated WHERE id = @id`,
    ),
    list: db.prepare<[number], BuildRow>('SELECT * FROM builds ORDER BY seq DESC LIMIT ?'),
    listByProject: db.prepare<[string, number], BuildRow>(
      'SELECT * FROM builds WHERE project_name = ? ORDER BY seq DESC LIMIT ?',
    ),
    active: db.prepare<[], BuildRow>(
      "SELECT * FROM builds WHERE status IN ('queued', 'running') ORDER BY seq",
    ),
    setPids: db.prepare<[string, string]>('UPDATE builds SET pids = ? WHERE id = ?'),
    getPids: db.prepare<[string], { pids: string }>('SELECT pids FROM builds WHERE id = ?'),
    insertLog: db.prepare(
      'INSERT INTO build_logs (build_id, seq, ts, level, bot_name, message) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    lastLogSeq: db.prepare<[string], { s: number | null }>(
      'SELECT MAX(seq) AS s FROM build_logs WHERE build_id = ?',
    ),
    logs: db.prepare<[string, number, number], LogRow>(
      `SELECT seq, ts, level, bot_name AS botName, message FROM build_logs
       WHERE build_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    allLogs: db.prepare<[string], LogRow>(
      'SELECT seq, ts, level, bot_name AS botName, message FROM build_logs WHERE build_id = ? ORDER BY seq',
    ),
    dropLogs: db.prepare<[string, number]>('DELETE FROM build_logs WHERE build_id = ? AND seq <= ?'),
    // Finished builds only, ranked among their project's finished builds, newest first.
    oldStoredLogs: db.prepare<[number], { id: string }>(
      `SELECT id FROM (
         SELECT id, seq, ROW_NUMBER() OVER (PARTITION BY project_name ORDER BY seq DESC) AS n FROM builds
          WHERE status NOT IN ('queued', 'running')
       ) WHERE n > ? AND EXISTS (SELECT 1 FROM build_logs WHERE build_id = id) ORDER BY seq`,
    ),
    upsertProject: db.prepare<[string, string, string]>(
      `INSERT INTO projects (name, created_at, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET updated_at = excluded.updated_at`,
    ),
    getProject: db.prepare<[string], ProjectRow>('SELECT * FROM projects WHERE name = ?'),
    listProjects: db.prepare<[], ProjectRow & LastBuildColumns>(
      `SELECT p.*, b.id AS last_id, b.status AS last_status, b.stage AS last_stage,
              b.created_at AS last_created_at, b.cache_hit AS last_cache_hit,
              json_extract(o.record, '$.blueprint.kind') AS output_kind
         FROM projects p
         LEFT JOIN builds b ON b.seq = (SELECT MAX(seq) FROM builds WHERE project_name = p.name)
         LEFT JOIN builds o ON o.id = p.output_build_id
        ORDER BY p.updated_at DESC, p.name`,
    ),
    newestProject: db.prepare<[], { name: string }>(
      'SELECT name FROM projects ORDER BY updated_at DESC, name LIMIT 1',
    ),
    deleteProject: db.prepare<[string]>('DELETE FROM projects WHERE name = ?'),
    setOutput: db.prepare<[string | null, string | null, string]>(
      'UPDATE projects SET output_hash = ?, output_build_id = ? WHERE name = ?',
    ),
    setPreviewPid: db.prepare<[number | null, string]>('UPDATE projects SET preview_pid = ? WHERE name = ?'),
    setApp: db.prepare<[string | null, string]>('UPDATE projects SET app = ? WHERE name = ?'),
    previewPids: db.prepare<[], { name: string; preview_pid: number }>(
      'SELECT name, preview_pid FROM projects WHERE preview_pid IS NOT NULL',
    ),
  };

  const appendLogs = db.transaction((buildId: string, rows: LogRow[]) => {
    for (const r of rows) stmt.insertLog.run(buildId, r.seq, r.ts, r.level, r.botName, r.message);
  });

  return {
    createBuild(projectName: string, opts: { noCache: boolean; now: Date }): Build {
      const seq = (stmt.nextSeq.get()?.s ?? 0) + 1;
      // Readable, sortable and unique: b<seq>-<random>.
      const id = `b${seq}-${crypto.randomBytes(3).toString('hex')}`;
      const build = newBuild(id, projectName, opts.now.toISOString(), opts.noCache);
      stmt.insert.run({
        id,
        seq,
        project_name: projectName,
        status: build.status,
        stage: build.stage,
        created_at: build.createdAt,
        no_cache: build.noCache ? 1 : 0,
        record: JSON.stringify(recordOf(build)),
      });
      return build;
    },
    /**
     * Scale-out: store a build record made elsewhere (a worker keeps its own copy of the coordinator's
     * build it runs), replacing an older copy of it.
     */
    adopt(build: Build): void {
      if (stmt.get.get(build.id)) return this.save(build);
      const seq = (stmt.nextSeq.get()?.s ?? 0) + 1;
      stmt.insert.run({
        id: build.id,
        seq,
        project_name: build.projectName,
        status: build.status,
        stage: build.stage,
        created_at: build.createdAt,
        no_cache: build.noCache ? 1 : 0,
        record: JSON.stringify(recordOf(build)),
      });
    },
    get(id: string): Build | null {
      const row = stmt.get.get(id);
      return row ? toBuild(row) : null;
    },
    save(build: Build): void {
      stmt.update.run({
        id: build.id,
        status: build.status,
        stage: build.stage,
        ended_at: build.endedAt,
        duration_ms: build.durationMs === null ? null : Math.round(build.durationMs),
        cache_hit: build.cacheHit ? 1 : 0,
        source_hash: build.sourceHash,
        record: JSON.stringify(recordOf(build)),
        log_count: build.logCount,
        log_truncated: build.logTruncated ? 1 : 0,
      });
    },
    list(opts: { project?: string; limit?: number } = {}): Build[] {
      const limit = opts.limit ?? 100;
      const rows = opts.project ? stmt.listByProject.all(opts.project, limit) : stmt.list.all(limit);
      return rows.map(toBuild);
    },
    active(): ActiveBuild[] {
      return stmt.active
        .all()
        .map((row) => ({ build: toBuild(row), pids: JSON.parse(row.pids) as number[] }));
    },
    addPid(buildId: string, pid: number): void {
      const pids = new Set(JSON.parse(stmt.getPids.get(buildId)?.pids ?? '[]') as number[]);
      pids.add(pid);
      stmt.setPids.run(JSON.stringify([...pids]), buildId);
    },
    removePid(buildId: string, pid: number): void {
      const pids = (JSON.parse(stmt.getPids.get(buildId)?.pids ?? '[]') as number[]).filter((p) => p !== pid);
      stmt.setPids.run(JSON.stringify(pids), buildId);
    },
    appendLogs(buildId: string, rows: LogRow[]): void {
      if (rows.length) appendLogs(buildId, rows);
    },
    lastLogSeq(buildId: string): number {
      const stored = stmt.lastLogSeq.get(buildId)?.s ?? 0;
      return Math.max(stored, archive?.read(buildId).at(-1)?.seq ?? 0);
    },
    /** A build's log lines after `after` (seq), at most `limit`: the one reader of a build's log. */
    logs(buildId: string, after: number, limit: number): LogRow[] {
      const archived = archive?.read(buildId) ?? [];
      if (archived.length === 0) return stmt.logs.all(buildId, after, limit);
      const stored = stmt.logs.all(buildId, after, limit);
      return mergeBySeq(
        archived.filter((r) => r.seq > after),
        stored,
      ).slice(0, limit);
    },
    /**
     * Moves a finished build's log lines from the store to its archive file: written (and flushed)
     * first, then only the lines written are deleted, so a crash in between leaves both copies
     * (readers merge them) and a line stored meanwhile stays. Returns how many lines moved.
     */
    /**
     * Finished builds whose lines are still in the store, past the newest `keep` finished builds of
     * their project (keep is at least 1: a project's last build always keeps its lines here).
     */
    buildsToArchive(keep: number): string[] {
      return stmt.oldStoredLogs.all(Math.max(1, keep)).map((r) => r.id);
    },
    async archiveLogs(buildId: string): Promise<number> {
      if (!archive) throw new Error('This build repository has no log archive.');
      const rows = stmt.allLogs.all(buildId);
      const last = rows.at(-1);
      if (!last) return 0;
      await archive.write(buildId, rows);
      stmt.dropLogs.run(buildId, last.seq);
      return rows.length;
    },
    touchProject(name: string, now: Date): void {
      stmt.upsertProject.run(name, now.toISOString(), now.toISOString());
    },
    project(name: string): ProjectRecord | null {
      const row = stmt.getProject.get(name);
      return row ? toProject(row) : null;
    },
    /** The most recently uploaded or built project's name. */
    newestProject(): string | null {
      return stmt.newestProject.get()?.name ?? null;
    },
    /** The project the user last chose (upload, selector, `forge use`), or null before any choice. */
    chosenProject(): string | null {
      return flags.text(CURRENT_PROJECT_FLAG);
    },
    chooseProject(name: string): void {
      flags.set(CURRENT_PROJECT_FLAG, name);
    },
    /** Forget a project that never got files (an upload refused before its first extraction). */
    deleteProject(name: string): void {
      stmt.deleteProject.run(name);
    },
    setProjectOutput(name: string, hash: string | null, buildId: string | null): void {
      stmt.setOutput.run(hash, buildId, name);
    },
    /** Choose the app a repository of several builds (null: BlueprintBot picks). */
    setProjectApp(name: string, app: string | null): void {
      stmt.setApp.run(app, name);
    },
    setPreviewPid(name: string, pid: number | null): void {
      stmt.setPreviewPid.run(pid, name);
    },
    previewPids(): Array<{ name: string; pid: number }> {
      return stmt.previewPids.all().map((r) => ({ name: r.name, pid: r.preview_pid }));
    },
    /** Every project with its newest build, most recently updated first: one query. */
    projects(): ProjectSummary[] {
      return stmt.listProjects.all().map((row) => ({
        ...toProject(row),
        outputKind:
          row.output_build_id === null ? null : (ProjectKind.safeParse(row.output_kind).data ?? null),
        lastBuild:
          row.last_id === null
            ? null
            : Project.shape.lastBuild.unwrap().parse({
                id: row.last_id,
                status: row.last_status,
                stage: row.last_stage,
                createdAt: row.last_created_at,
                cacheHit: row.last_cache_hit === 1,
              }),
      }));
    },
  };
}

export type BuildRepo = ReturnType<typeof createBuildRepo>;
