import { formatDuration, stageLabel, type Build } from '@forge/shared';
import { formatTable } from '../table.ts';
import { sanitize, type Tone } from '../terminal.ts';
import { statusTone } from './build-result.ts';

const pad2 = (n: number) => n.toString().padStart(2, '0');

/** `YYYY-MM-DD HH:MM:SS` in local time; the text as is when it is not a date. */
export function formatLocalTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** `forge builds`: one row per build, newest first as the daemon lists them. */
export function formatBuildsTable(
  builds: readonly Build[],
  paint: (tone: Tone | undefined, text: string) => string,
): string[] {
  const rows = builds.map((b) => [
    b.id,
    sanitize(b.projectName),
    { text: b.status, tone: statusTone(b.status) },
    stageLabel(b.stage),
    b.cacheHit ? 'hit' : '-',
    b.durationMs === null ? '-' : formatDuration(b.durationMs),
    formatLocalTime(b.createdAt),
  ]);
  return formatTable(['ID', 'PROJECT', 'STATUS', 'STAGE', 'CACHE', 'DURATION', 'CREATED'], rows, paint);
}
