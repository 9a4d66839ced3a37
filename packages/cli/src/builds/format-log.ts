import type { LogEntry } from '@forge/shared';
import { sanitize, type Tone } from '../terminal.ts';

const pad2 = (n: number) => n.toString().padStart(2, '0');

const LEVEL_TONES: Record<string, Tone | undefined> = { error: 'bad', warn: 'warn', success: 'good' };

/** Wide enough for SUCCESS, the longest level. */
const LEVEL_WIDTH = 7;

/**
 * A build log entry as `HH:MM:SS LEVEL BotName message` (local time). The message comes from the
 * project's own tools: escape sequences and control characters are stripped.
 */
export function formatLogEntry(
  entry: Pick<LogEntry, 'timestamp' | 'level' | 'botName' | 'message'>,
  paint: (tone: Tone | undefined, text: string) => string,
): string {
  const date = new Date(entry.timestamp);
  const clock = Number.isNaN(date.getTime())
    ? '--:--:--'
    : `${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
  const level = paint(LEVEL_TONES[entry.level], entry.level.toUpperCase().padEnd(LEVEL_WIDTH));
  return `${paint('dim', clock)} ${level} ${sanitize(entry.botName)} ${sanitize(entry.message)}`;
}
