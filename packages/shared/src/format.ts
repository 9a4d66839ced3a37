/** Session time as minutes:seconds (spec §9), e.g. 125000 ms → "2:05". */
export function formatSessionTime(ms: number): string {
  const total = Math.max(0, Math.floor((Number.isFinite(ms) ? ms : 0) / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${seconds.toString().padStart(2, '0')}`;
}

/** Short human duration for CLI/TUI, e.g. 850 → "850ms", 12_300 → "12.3s", 125_000 → "2m05s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${m}m${s.toString().padStart(2, '0')}s`;
}

/** The export file name of the FixIt console log (spec §2.5): a .txt named with the date. */
export const logExportFileName = (date: Date): string => `forge-logs-${date.toISOString().slice(0, 10)}.txt`;
