import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, type Migration } from './migrations.ts';
import { openStore } from './store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const dbFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-store-'));
  dirs.push(dir);
  return path.join(dir, 'nested', 'forge.db');
};

describe('openStore', () => {
  it('creates the file with WAL, synchronous FULL and a busy timeout', () => {
    const store = openStore(dbFile());
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(store.db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    expect(store.schemaVersion).toBe(MIGRATIONS.at(-1)!.version);
    store.close();
    store.close(); // idempotent
  });

  it('applies migrations once: reopening changes nothing and keeps data', () => {
    const file = dbFile();
    const first = openStore(file);
    first.db
      .prepare("INSERT INTO settings (key, value, updated_at) VALUES ('debugMode', 'true', 'now')")
      .run();
    first.close();
    const second = openStore(file);
    const applied = second.db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    expect(applied).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    expect(second.db.prepare('SELECT value FROM settings').pluck().get()).toBe('true');
    second.close();
  });

  it('applies only the new migrations of a later version', () => {
    const file = dbFile();
    openStore(file).close();
    const latest = MIGRATIONS.at(-1)!.version;
    const added: Migration = {
      version: latest + 1,
      name: 'extra',
      up: (db) => db.exec('CREATE TABLE extra (id INTEGER)'),
    };
    const store = openStore(file, { migrations: [...MIGRATIONS, added] });
    expect(store.schemaVersion).toBe(latest + 1);
    expect(store.db.prepare("SELECT name FROM sqlite_master WHERE name = 'extra'").pluck().get()).toBe(
      'extra',
    );
    store.close();
  });

  it('rolls back a failing migration completely', () => {
    const file = dbFile();
    const latest = MIGRATIONS.at(-1)!.version;
    const broken: Migration = {
      version: latest + 1,
      name: 'broken',
      up: (db) => {
        db.exec('CREATE TABLE half (id INTEGER)');
        throw new Error('boom');
      },
    };
    expect(() => openStore(file, { migrations: [...MIGRATIONS, broken] })).toThrow('boom');
    const db = new Database(file);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(latest);
    db.close();
  });

  it('refuses a database written by a newer Forge', () => {
    const file = dbFile();
    const future: Migration = { version: 99, name: 'future', up: () => undefined };
    openStore(file, { migrations: [...MIGRATIONS, future] }).close();
    expect(() => openStore(file)).toThrow(/newer than this Forge/);
  });

  it('refuses an out-of-order migration list', () => {
    const m = (version: number): Migration => ({ version, name: `m${version}`, up: () => undefined });
    expect(() => openStore(dbFile(), { migrations: [m(2), m(1)] })).toThrow(/increasing version order/);
  });
});

describe('migration 4: builds agree with the build machine', () => {
  it('moves builds written before the machine to states it knows, renaming old codes', () => {
    const file = dbFile();
    openStore(file, { migrations: MIGRATIONS.filter((m) => m.version < 4) }).close();
    const legacy = new Database(file);
    const insert = legacy.prepare(
      `INSERT INTO builds (id, seq, project_name, status, stage, created_at, ended_at, record)
       VALUES (?, ?, 'app', ?, ?, '2026-11-01T10:00:00.000Z', ?, ?)`,
    );
    const record = (error: unknown) =>
      JSON.stringify({ stages: [{ stage: 'starting', at: '2026-11-01T10:00:00.000Z' }], error });
    // Cancelled while "Building", as the old engine left it.
    insert.run('b1', 1, 'cancelled', 'build-start', '2026-11-01T10:01:00.000Z', record(null));
    // Interrupted with the old code.
    insert.run(
      'b2',
      2,
      'interrupted',
      'build-start',
      '2026-11-01T10:01:00.000Z',
      record({ code: 'INTERRUPTED', message: 'stopped' }),
    );
    // Killed between two writes: running at a final stage.
    insert.run('b3', 3, 'running', 'integration-available', null, record(null));
    // Already consistent: untouched.
    insert.run('b4', 4, 'succeeded', 'integration-available', '2026-11-01T10:01:00.000Z', record(null));
    legacy.close();

    const store = openStore(file);
    const rows = store.db
      .prepare('SELECT id, status, stage, ended_at, record FROM builds ORDER BY seq')
      .all() as Array<{
      id: string;
      status: string;
      stage: string;
      ended_at: string | null;
      record: string;
    }>;
    const view = rows.map((r) => {
      const rec = JSON.parse(r.record) as {
        stages: Array<{ stage: string }>;
        error: { code: string } | null;
      };
      return [
        r.id,
        r.status,
        r.stage,
        rec.stages.at(-1)!.stage,
        rec.error?.code ?? null,
        r.ended_at !== null,
      ];
    });
    expect(view).toEqual([
      ['b1', 'cancelled', 'idle', 'idle', null, true],
      ['b2', 'interrupted', 'build-failed', 'build-failed', 'BUILD_INTERRUPTED', true],
      ['b3', 'interrupted', 'build-failed', 'build-failed', 'BUILD_INTERRUPTED', true],
      ['b4', 'succeeded', 'integration-available', 'starting', null, true],
    ]);
    store.close();
  });
});
