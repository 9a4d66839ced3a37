import type { ProjectHistory } from '@forge/shared';
import { formatBytes, formatLocalTime } from '@forge/shared/schema-free';
import { formatTable } from '../table.ts';
import type { Tone } from '../terminal.ts';

const verdictTone = (status: string | undefined): Tone | undefined =>
  status === 'failed' ? 'bad' : status === 'passed' ? 'good' : undefined;

/**
 * `forge history`: one row per kept build, newest first: its id, when it started, its tests'
 * verdict, its artifact's size and sha256 (short), and `*` on the current one.
 */
export function formatHistoryTable(
  history: ProjectHistory,
  paint: (tone: Tone | undefined, text: string) => string,
): string[] {
  const rows = history.builds.map((b) => [
    b.current ? { text: '*', tone: 'good' as const } : '',
    b.buildId,
    formatLocalTime(b.createdAt),
    { text: b.verdict?.status ?? '-', tone: verdictTone(b.verdict?.status) },
    formatBytes(b.bytes),
    b.artifactSha256.slice(0, 12),
  ]);
  return formatTable(['', 'BUILD', 'WHEN', 'VERDICT', 'SIZE', 'SHA256'], rows, paint);
}
