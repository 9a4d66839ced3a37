import type { Build } from '@forge/shared';
import { formatDuration, formatLocalTime } from '@forge/shared/schema-free';
import { stageLabel } from '../protocol/facts.ts';
import { formatTable } from '../table.ts';
import { sanitize, type Tone } from '../terminal.ts';
import { statusTone } from './status-tone.ts';

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
