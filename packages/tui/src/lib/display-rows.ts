import { sanitizeLine, splitLines, type LogEntry, type LogLevel, type LogLine } from '@forge/shared';

/** One terminal row of a log: a line of what the daemon sent, safe to draw. */
export interface DisplayRow {
  /** Unique within its list and stable across renders (React key). */
  key: string;
  level: LogLevel;
  text: string;
}

export interface ConsoleRow extends DisplayRow {
  botName: string;
  timestamp: string;
}

/**
 * Rows of `items`, one per line of each item's text with colour and cursor codes removed: a line
 * holding a newline or an escape sequence would move Ink's cursor and tear the frame. Each item's
 * rows are made once (items are immutable: a new line is a new object), and the whole list once
 * per list the store hands out.
 */
function rowsOf<T extends object, R extends DisplayRow>(
  perItem: WeakMap<T, R[]>,
  perList: WeakMap<readonly T[], R[]>,
  make: (item: T, text: string, i: number) => R,
  textOf: (item: T) => string,
) {
  return (items: readonly T[]): R[] => {
    const cached = perList.get(items);
    if (cached) return cached;
    const rows = items.flatMap((item) => {
      let own = perItem.get(item);
      if (!own) {
        own = splitLines(textOf(item)).map((line, i) => make(item, sanitizeLine(line), i));
        perItem.set(item, own);
      }
      return own;
    });
    perList.set(items, rows);
    return rows;
  };
}

/** The build pane's rows of a build's log. */
export const outputRows = rowsOf<LogLine, DisplayRow>(
  new WeakMap(),
  new WeakMap(),
  (line, text, i) => ({ key: `${line.key}:${i}`, level: line.level, text }),
  (line) => line.text,
);

/** The logs pane's rows of the app-wide console. */
export const consoleRows = rowsOf<LogEntry, ConsoleRow>(
  new WeakMap(),
  new WeakMap(),
  (entry, text, i) => ({
    key: `${entry.id}:${i}`,
    level: entry.level,
    botName: sanitizeLine(entry.botName),
    timestamp: entry.timestamp,
    text,
  }),
  (entry) => entry.message,
);
