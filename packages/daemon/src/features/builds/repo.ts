import crypto from 'node:crypto';
import { Build, type BuildStatus, type LogLevel, type Project, type Stage } from '@forge/shared';
import type { Store } from '../../store/store.ts';

/** The JSON part of a build row: the fields of Build the pipeline reads and writes whole. */
type BuildRecordJson = Pick<
  Build,
  'blueprint' | 'stages' | 'steps' | 'test' | 'uiCheck' | 'bundle' | 'previewUrl' | 'cancelReason' | 'error'
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
}

export interface LogRow {
  seq: number;
  ts: string;
  level: LogLevel;
  botName: string;
  message: string;
}

const EMPTY_RECORD: BuildRecordJson = {
  blueprint: null,
  stages: [],
  steps: [],
  test: null,
  uiCheck: null,
  bundle: null,
  previewUrl: null,
  cancelReason: null,
  error: null,
};

function toBuild(row: BuildRow): Build {
  const record = { ...EMPTY_RECORD, ...(JSON.parse(row.record) as Partial<BuildRecordJson>) };
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

/** Builds, their logs and projects in SQLite. Every write is its own transaction (synchronous=FULL). */
export function createBuildRepo(store: Store) {
  const db = store.db;
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
    active: db.prepare<[], BuildRow>("SELECT * FROM builds WHERE status IN ('queued', 'running')"),
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
    upsertProject: db.prepare<[string, string, string]>(
      `INSERT INTO projects (name, created_at, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET updated_at = excluded.updated_at`,
    ),
    getProject: db.prepare<[string], ProjectRow>('SELECT * FROM projects WHERE name = ?'),
    listProjects: db.prepare<[], ProjectRow>('SELECT * FROM projects ORDER BY updated_at DESC, name'),
    setOutput: db.prepare<[string | null, string | null, string]>(
      'UPDATE projects SET output_hash = ?, output_build_id = ? WHERE name = ?',
    ),
    setPreviewPid: db.prepare<[number | null, string]>('UPDATE projects SET preview_pid = ? WHERE name = ?'),
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
      stmt.insert.run({
        id,
        seq,
        project_name: projectName,
        status: 'running' satisfies BuildStatus,
        stage: 'starting' satisfies Stage,
        created_at: opts.now.toISOString(),
        no_cache: opts.noCache ? 1 : 0,
        record: JSON.stringify({
          ...EMPTY_RECORD,
          stages: [{ stage: 'starting', at: opts.now.toISOString() }],
        }),
      });
      return toBuild(stmt.get.get(id)!);
    },
    get(id: string): Build | null {
      const row = stmt.get.get(id);
      return row ? toBuild(row) : null;
    },
    save(build: Build): void {
      const { blueprint, stages, steps, test, uiCheck, bundle, previewUrl, cancelReason, error } = build;
      stmt.update.run({
        id: build.id,
        status: build.status,
        stage: build.stage,
        ended_at: build.endedAt,
        duration_ms: build.durationMs === null ? null : Math.round(build.durationMs),
        cache_hit: build.cacheHit ? 1 : 0,
        source_hash: build.sourceHash,
        record: JSON.stringify({
          blueprint,
          stages,
          steps,
          test,
          uiCheck,
          bundle,
          previewUrl,
          cancelReason,
          error,
        }),
        log_count: build.logCount,
        log_truncated: build.logTruncated ? 1 : 0,
      });
    },
    list(opts: { project?: string; limit?: number } = {}): Build[] {
      const limit = opts.limit ?? 100;
      const rows = opts.project ? stmt.listByProject.all(opts.project, limit) : stmt.list.all(limit);
      return rows.map(toBuild);
    },
    active(): Array<Build & { pids: number[] }> {
      return stmt.active.all().map((row) => ({ ...toBuild(row), pids: JSON.parse(row.pids) as number[] }));
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
      return stmt.lastLogSeq.get(buildId)?.s ?? 0;
    },
    logs(buildId: string, after: number, limit: number): LogRow[] {
      return stmt.logs.all(buildId, after, limit);
    },
    touchProject(name: string, now: Date): void {
      stmt.upsertProject.run(name, now.toISOString(), now.toISOString());
    },
    project(name: string): ProjectRow | null {
      return stmt.getProject.get(name) ?? null;
    },
    setProjectOutput(name: string, hash: string | null, buildId: string | null): void {
      stmt.setOutput.run(hash, buildId, name);
    },
    setPreviewPid(name: string, pid: number | null): void {
      stmt.setPreviewPid.run(pid, name);
    },
    previewPids(): Array<{ name: string; pid: number }> {
      return stmt.previewPids.all().map((r) => ({ name: r.name, pid: r.preview_pid }));
    },
    projects(): Array<Omit<Project, 'hasArtifact'> & { outputBuildId: string | null }> {
      return stmt.listProjects.all().map((row) => {
        const last = stmt.listByProject.get(row.name, 1);
        const b = last ? toBuild(last) : null;
        return {
          name: row.name,
          createdAt: row.created_at,
          updatedAt: row.updated_at,
          outputBuildId: row.output_build_id,
          lastBuild: b
            ? { id: b.id, status: b.status, stage: b.stage, createdAt: b.createdAt, cacheHit: b.cacheHit }
            : null,
        };
      });
    },
  };
}

export type BuildRepo = ReturnType<typeof createBuildRepo>;
