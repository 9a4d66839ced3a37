import type { Build } from '@forge/shared';
import { formatDuration, formatLocalTime } from '@forge/shared/schema-free';
import { stageLabel } from '../protocol/facts.ts';
import { formatTable } from '../table.ts';
import { sanitize, type Tone } from '../terminal.ts';
import { statusTone } from './status-tone.ts';

/** `forge builds`: one row per build, newest first as the daemon lists them, with where each ran. */
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
    // "local" (the daemon itself) or a `forge worker`'s name; none yet while the build is queued.
    b.worker === null ? '-' : sanitize(b.worker),
    formatLocalTime(b.createdAt),
  ]);
  return formatTable(
    ['ID', 'PROJECT', 'STATUS', 'STAGE', 'CACHE', 'DURATION', 'WORKER', 'CREATED'],
    rows,
    paint,
  );
}
