import fs from 'node:fs';
import path from 'node:path';
import { LogLevel } from '@forge/shared';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write.ts';

/** One stored log line of a build, as the store and its archive file hold it. */
export interface LogRow {
  seq: number;
  ts: string;
  level: LogLevel;
  botName: string;
  message: string;
}

const ArchivedLine = z.object({
  seq: z.number().int().positive(),
  ts: z.string(),
  level: LogLevel,
  botName: z.string(),
  message: z.string(),
});

/**
 * A finished build's log lines moved out of the store: `<dir>/<build id>.log`, one JSON object per
 * line with every field the store has (seq, time, level, bot, text). JSON rather than a printed
 * line, because a message may hold anything (newlines, brackets, a level word) and readers need
 * the fields back exactly: the build logs route pages by seq, the brain filters by level, ScanBot
 * by bot and time.
 */
export interface LogArchive {
  /** The archived lines of a build in seq order; [] when it has none. */
  read(buildId: string): LogRow[];
  /** Adds rows to a build's archive (merged by seq with what it holds), written atomically. */
  write(buildId: string, rows: LogRow[]): Promise<void>;
}

/** Build ids are `b<seq>-<hex>`: anything else never names a file. */
const SAFE_ID = /^[A-Za-z0-9_-]+$/;

export function createLogArchive(dir: string, scratchDir: string): LogArchive {
  const fileOf = (buildId: string) => (SAFE_ID.test(buildId) ? path.join(dir, `${buildId}.log`) : null);

  const read = (buildId: string): LogRow[] => {
    const file = fileOf(buildId);
    if (!file) return [];
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const rows: LogRow[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      // A line damaged by hand is skipped; the others are still the build's log.
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      const row = ArchivedLine.safeParse(parsed);
      if (row.success) rows.push(row.data);
    }
    return rows.sort((a, b) => a.seq - b.seq);
  };

  return {
    read,
    async write(buildId, rows) {
      const file = fileOf(buildId);
      if (!file) throw new Error(`Not a build id: ${buildId}`);
      const merged = mergeBySeq(read(buildId), rows);
      fs.mkdirSync(dir, { recursive: true });
      await writeFileAtomic(file, merged.map((r) => `${JSON.stringify(r)}\n`).join(''), { scratchDir });
    },
  };
}

/** The lines of both lists in seq order, one per seq (the store's copy wins over the archive's). */
export function mergeBySeq(archived: LogRow[], stored: LogRow[]): LogRow[] {
  if (archived.length === 0) return stored;
  if (stored.length === 0) return archived;
  const bySeq = new Map<number, LogRow>();
  for (const r of archived) bySeq.set(r.seq, r);
  for (const r of stored) bySeq.set(r.seq, r);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}
