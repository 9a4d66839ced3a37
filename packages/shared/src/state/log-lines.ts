import type { LogLevel } from '../domain/log.ts';
import { DEFAULT_BOT_NAME } from '../domain/log-levels.ts';
import type { BuildLogsResponse } from '../domain/builds.ts';
import { splitLines } from '../format.ts';
import type { ServerMessage } from '../ws/events.ts';

/** One line of a build's log as a client knows it: stored (with its seq) or only streamed live. */
export interface LogLine {
  /** Unique within the build, stable across renders: `s<seq>` for stored lines, `l<n>` for the others. */
  key: string;
  /** Sequence number in the build's stored log (1, 2, 3 … without gaps); null for a line never stored. */
  seq: number | null;
  timestamp: string;
  level: LogLevel;
  botName: string;
  /** The line as the daemon sent it (clients sanitise it for display). */
  text: string;
}

/** A stored entry as GET /api/builds/:id/logs returns it. */
export type StoredLogEntry = BuildLogsResponse['entries'][number];

/**
 * A build's lines in order: stored lines by seq, then the lines that were only streamed (past the
 * per-build cap, or a server app's output after its build ended), in the order they came. The same
 * line read from the store and seen on /ws is kept once, by its seq, whatever order the two arrive in.
 */
export interface LogBuffer {
  lines: readonly LogLine[];
  /** How many live-only lines were ever added (for their keys). */
  liveCount: number;
}

export const EMPTY_LOG: LogBuffer = { lines: [], liveCount: 0 };

/** The lines of a /ws message for a build's log (none for other messages). */
export function linesOfMessage(message: ServerMessage, at: string): Array<Omit<LogLine, 'key'>> {
  const timestamp = ('timestamp' in message && message.timestamp) || at;
  switch (message.type) {
    case 'log':
      return [
        {
          seq: message.seq ?? seqOfId(message.id),
          timestamp,
          level: message.level,
          botName: message.botName || DEFAULT_BOT_NAME,
          text: message.message,
        },
      ];
    case 'build-output':
    case 'build-error': {
      // stderr is stored as warn: tools print progress and notices there, not only errors.
      const level: LogLevel = message.type === 'build-error' ? 'warn' : 'info';
      const botName = message.botName ?? DEFAULT_BOT_NAME;
      return splitLines(message.output).map((text, i) => ({
        seq: message.seq === undefined ? null : message.seq + i,
        timestamp,
        level,
        botName,
        text,
      }));
    }
    default:
      return [];
  }
}

/** Older daemons sent only `id: "<build>:<seq>"` on stored log messages. */
function seqOfId(id: string | undefined): number | null {
  const match = id === undefined ? null : /:(\d+)$/.exec(id);
  return match ? Number(match[1]) : null;
}

export const storedLine = (entry: StoredLogEntry): Omit<LogLine, 'key'> => ({
  seq: entry.seq,
  timestamp: entry.timestamp,
  level: entry.level,
  botName: entry.botName,
  text: entry.message,
});

/** Index of the first line whose seq is ≥ `seq` among the stored ones (which come first, sorted). */
function lowerBound(lines: readonly LogLine[], storedCount: number, seq: number): number {
  let lo = 0;
  let hi = storedCount;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((lines[mid]!.seq as number) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Add lines to a buffer, keeping at most `keep` (the oldest go first). Returns the same buffer when nothing changed. */
export function addLines(
  buffer: LogBuffer,
  incoming: ReadonlyArray<Omit<LogLine, 'key'>>,
  keep: number,
): LogBuffer {
  if (incoming.length === 0) return buffer;
  const lines = [...buffer.lines];
  let storedCount = lines.findIndex((l) => l.seq === null);
  if (storedCount < 0) storedCount = lines.length;
  let liveCount = buffer.liveCount;
  let changed = false;
  for (const line of incoming) {
    if (line.seq === null) {
      lines.push({ ...line, key: `l${++liveCount}` });
      changed = true;
      continue;
    }
    const at = lowerBound(lines, storedCount, line.seq);
    if (lines[at]?.seq === line.seq) continue;
    // Older than everything kept while the buffer is full: it was dropped before, keep it dropped.
    if (at === 0 && lines.length >= keep && storedCount > 0) continue;
    lines.splice(at, 0, { ...line, key: `s${line.seq}` });
    storedCount++;
    changed = true;
  }
  if (!changed) return buffer;
  return { lines: lines.length > keep ? lines.slice(lines.length - keep) : lines, liveCount };
}

/**
 * The stored lines that follow `afterSeq` without a gap (for a printer that must show every line
 * once and in order, whatever order the store and /ws delivered them in).
 */
export function contiguousAfter(buffer: LogBuffer, afterSeq: number): LogLine[] {
  const out: LogLine[] = [];
  let next = afterSeq + 1;
  for (const line of buffer.lines) {
    if (line.seq === null || line.seq < next) continue;
    if (line.seq !== next) break;
    out.push(line);
    next++;
  }
  return out;
}
