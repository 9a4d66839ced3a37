import type { Build, BotStatusResponse, HealthResponse, Project } from '@forge/shared';
import { formatDuration } from '@forge/shared/schema-free';
import { stageLabel } from '../protocol/facts.ts';
import type { Connection } from '../deps.ts';
import { diagnosisRows, failureRows, logCommand, PRIMARY_MARK } from '../builds/failure.ts';

/** Everything `forge status` shows, in one JSON-able object. */
export interface StatusSnapshot {
  url: string;
  version: string;
  uptimeMs: number;
  project: string | null;
  build: Pick<
    Build,
    'id' | 'status' | 'stage' | 'durationMs' | 'cacheHit' | 'previewUrl' | 'error' | 'diagnosis'
  > | null;
  activities: BotStatusResponse['activities'];
}

export async function snapshot({ client, baseUrl }: Connection): Promise<StatusSnapshot> {
  const [health, projects, bots] = (await Promise.all([
    client.request('health'),
    client.request('projects'),
    client.request('botStatus'),
  ])) as [HealthResponse, Project[], BotStatusResponse];
  const project = projects[0]?.name ?? null;
  const latest = project ? (await client.request('builds', { query: { project, limit: 1 } }))[0] : undefined;
  return {
    url: baseUrl,
    version: health.version,
    uptimeMs: health.uptimeMs,
    project,
    build: latest
      ? {
          id: latest.id,
          status: latest.status,
          stage: latest.stage,
          durationMs: latest.durationMs,
          cacheHit: latest.cacheHit,
          previewUrl: latest.previewUrl,
          error: latest.error,
          diagnosis: latest.diagnosis ?? null,
        }
      : null,
    activities: bots.activities,
  };
}

/** Plain lines: readable in a terminal and in a CI log alike. */
export function formatStatus(s: StatusSnapshot): string[] {
  const lines = [`Forge ${s.version} at ${s.url} (up ${formatDuration(s.uptimeMs)})`];
  if (!s.project) lines.push('No project yet: forge upload app.zip --wait');
  else if (!s.build) lines.push(`Project ${s.project}: not built yet`);
  else {
    const b = s.build;
    const extra = [
      b.durationMs !== null ? formatDuration(b.durationMs) : null,
      b.cacheHit ? 'cache hit' : null,
      b.previewUrl ? `preview ${b.previewUrl}` : null,
    ].filter(Boolean);
    lines.push(
      `Project ${s.project}: build ${b.id} ${b.status}, ${stageLabel(b.stage)}${extra.length ? ` (${extra.join(', ')})` : ''}`,
    );
    // Why it failed, first error line first, and where the whole log is.
    if (b.error && b.status !== 'cancelled') {
      for (const [label, text] of failureRows(b.error, { tail: false }))
        lines.push(label === PRIMARY_MARK ? `  ${PRIMARY_MARK} ${text}` : `  ${text}`);
      // ScanBot's reading: the cause, where, and what to do.
      if (b.diagnosis)
        for (const [label, text] of diagnosisRows(b.diagnosis)) lines.push(`  ${label}: ${text}`);
      lines.push(`  full log: ${logCommand(b.id)}`);
    }
  }
  const online = s.activities.reduce((n, a) => n + a.count, 0);
  lines.push(
    `Bots: ${online} online · ${s.activities.map((a) => `${a.type} ${a.count} ${a.status}`).join(' · ')}`,
  );
  return lines;
}
