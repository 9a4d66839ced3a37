import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Build, BuildStatus } from '@forge/shared';
import { openStore, STORE_FILE, type Store } from '../store/store.ts';
import { createLogArchive } from './log-archive.ts';
import { createBuildRepo, type BuildRepo, type LogRow } from './build-repo.ts';

let store: Store | null = null;
let home = '';
afterEach(() => {
  store?.close();
  store = null;
  fs.rmSync(home, { recursive: true, force: true });
});

function setup(): { repo: BuildRepo; dir: string } {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-log-archive-'));
  store = openStore(path.join(home, STORE_FILE));
  const dir = path.join(home, 'logs', 'builds');
  return { repo: createBuildRepo(store, { logArchive: createLogArchive(dir, path.join(home, 'tmp')) }), dir };
}

/** Messages a printed line format would not give back: newlines, brackets, a level word, JSON. */
const rowsOf = (from: number, to: number): LogRow[] =>
  Array.from({ length: to - from + 1 }, (_, i) => {
    const seq = from + i;
    return {
      seq,
      ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      level: (['info', 'warn', 'error', 'success'] as const)[seq % 4]!,
      botName: seq % 2 ? 'BuildBot' : 'TestBot',
      message: `line ${seq}: ERROR [x] {"a":1}\n  at "src/a.ts:${seq}:2"\ttab`,
    };
  });

function buildWith(repo: BuildRepo, project: string, status: BuildStatus, lines: number): Build {
  const build = repo.createBuild(project, { noCache: false, now: new Date() });
  repo.save({ ...build, status });
  repo.appendLogs(build.id, rowsOf(1, lines));
  return build;
}

describe("a build's log lines moved out of the store", () => {
  it('read the same through logs() and lastLogSeq(), every page, every field', async () => {
    const { repo, dir } = setup();
    const old = buildWith(repo, 'site', 'failed', 25);
    buildWith(repo, 'site', 'succeeded', 3);
    const before = repo.logs(old.id, 0, 1_000);
    const pagesBefore = [repo.logs(old.id, 0, 10), repo.logs(old.id, 10, 10), repo.logs(old.id, 20, 10)];

    expect(repo.buildsToArchive(1)).toEqual([old.id]);
    expect(await repo.archiveLogs(old.id)).toBe(25);

    expect(store!.db.prepare('SELECT COUNT(*) AS n FROM build_logs WHERE build_id = ?').get(old.id)).toEqual({
      n: 0,
    });
    expect(fs.existsSync(path.join(dir, `${old.id}.log`))).toBe(true);
    expect(repo.logs(old.id, 0, 1_000)).toEqual(before);
    expect([repo.logs(old.id, 0, 10), repo.logs(old.id, 10, 10), repo.logs(old.id, 20, 10)]).toEqual(
      pagesBefore,
    );
    expect(repo.lastLogSeq(old.id)).toBe(25);
    expect(repo.buildsToArchive(1)).toEqual([]);
  });

  it('never moves a running or queued build, nor the newest finished build of a project', () => {
    const { repo } = setup();
    const a1 = buildWith(repo, 'a', 'succeeded', 2);
    buildWith(repo, 'a', 'failed', 2);
    buildWith(repo, 'a', 'running', 2);
    buildWith(repo, 'a', 'queued', 1);
    buildWith(repo, 'b', 'succeeded', 2);
    buildWith(repo, 'c', 'running', 2);
    // keep 0 still keeps one: a project's last build is what every client opens first.
    expect(repo.buildsToArchive(0)).toEqual([a1.id]);
    expect(repo.buildsToArchive(1)).toEqual([a1.id]);
    expect(repo.buildsToArchive(2)).toEqual([]);
  });

  it('loses nothing when lines arrive after the move, or the move stopped before the delete', async () => {
    const { repo, dir } = setup();
    const old = buildWith(repo, 'site', 'failed', 5);
    buildWith(repo, 'site', 'failed', 1);
    await repo.archiveLogs(old.id);
    // A last line stored after the move (a run's final flush): read with the archived ones.
    repo.appendLogs(old.id, rowsOf(6, 6));
    expect(repo.logs(old.id, 0, 100).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(repo.lastLogSeq(old.id)).toBe(6);
    // Moving again adds it to the file instead of replacing the file.
    await repo.archiveLogs(old.id);
    expect(repo.logs(old.id, 0, 100)).toEqual(rowsOf(1, 6));
    // A crash between writing the file and deleting the rows leaves both: no line twice.
    repo.appendLogs(old.id, rowsOf(1, 6));
    expect(repo.logs(old.id, 0, 100)).toEqual(rowsOf(1, 6));
    expect(repo.logs(old.id, 2, 3).map((r) => r.seq)).toEqual([3, 4, 5]);
    // A line damaged by hand is left out; the others still read.
    fs.appendFileSync(path.join(dir, `${old.id}.log`), 'not json\n{"seq":"x"}\n');
    store!.db.prepare('DELETE FROM build_logs WHERE build_id = ?').run(old.id);
    expect(repo.logs(old.id, 0, 100)).toEqual(rowsOf(1, 6));
  });
});
