import type { LogLine } from '@forge/shared';
import { formatClock, sanitizeLine } from '@forge/shared/schema-free';
import { sanitize, type Tone } from '../terminal.ts';

const LEVEL_TONES: Record<string, Tone | undefined> = { error: 'bad', warn: 'warn', success: 'good' };

/** Wide enough for SUCCESS, the longest level. */
const LEVEL_WIDTH = 7;

type Line = Pick<LogLine, 'timestamp' | 'level' | 'botName' | 'text'>;

/**
 * A build log line as `HH:MM:SS LEVEL BotName text` (local time). The text comes from the project's
 * own tools: it is made safe for a terminal the way every client shows it (sanitizeLine).
 */
export function formatLogLine(line: Line, paint: (tone: Tone | undefined, text: string) => string): string {
  const level = paint(LEVEL_TONES[line.level], line.level.toUpperCase().padEnd(LEVEL_WIDTH));
  return `${paint('dim', formatClock(line.timestamp))} ${level} ${sanitize(line.botName)} ${sanitizeLine(line.text)}`;
}

/**
 * `forge logs --json`: one object per line, the stored entry as GET /api/builds/:id/logs gives it
 * (`id`, `seq`, …); a line the daemon only streamed has no id or seq.
 */
export function logLineJson(buildId: string, line: LogLine): Record<string, unknown> {
  return {
    ...(line.seq === null ? {} : { id: `${buildId}:${line.seq}`, seq: line.seq }),
    timestamp: line.timestamp,
    level: line.level,
    botName: line.botName,
    message: line.text,
  };
}
