import type { LogEntry } from '@forge/shared';
import { logExportFileName } from '@forge/shared/schema-free';

/** One exported line: `2025-01-02T03:04:05.000Z [WARN] BuildBot: message` (ISO time sorts and greps). */
export const formatLogLine = (entry: LogEntry): string =>
  `${entry.timestamp} [${entry.level.toUpperCase()}] ${entry.botName}: ${entry.message}`;

/** The export file's text: one line per entry, newline-terminated so `cat` and editors agree. */
export const logExportText = (entries: readonly LogEntry[]): string =>
  entries.map(formatLogLine).join('\n') + (entries.length ? '\n' : '');

/** Save `entries` as a dated .txt through the browser's download (docs/product.md#fixit-console). */
export function downloadLogs(entries: readonly LogEntry[], now: Date = new Date()): string {
  const name = logExportFileName(now);
  const url = URL.createObjectURL(new Blob([logExportText(entries)], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; free it once this task is done.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return name;
}
