import type { WorkersResponse } from '@forge/shared';
import { formatAge } from '@forge/shared/schema-free';
import { formatTable } from '../table.ts';
import { sanitize, type Tone } from '../terminal.ts';

type Paint = (tone: Tone | undefined, text: string) => string;

/** How long ago `iso` was, seen from `now`: `4s ago`, `3m ago`, `2h ago`, `5d ago`; `-` if unreadable. */
export function formatAgo(iso: string, now: number): string {
  const then = Date.parse(iso);
  // A worker's clock is not ours: a time slightly ahead of us is "0s ago", not negative.
  return Number.isNaN(then) ? '-' : `${formatAge(now - then)} ago`;
}

/** The line above the table: where the daemon's builds run. */
export function formatQueueLine(response: Pick<WorkersResponse, 'queue' | 'queueUrl'>): string {
  if (response.queue === 'in-process') return 'queue: in-process (builds run in this daemon)';
  return response.queueUrl === null ? 'queue: bullmq' : `queue: bullmq (${sanitize(response.queueUrl)})`;
}

/** What `forge workers` says when a queueing daemon has heard from no worker yet. */
export const NO_WORKERS_HINT =
  'No workers yet: start one with forge worker --queue <redis-url> --url <daemon-url>';

/**
 * `forge workers`: the workers as the daemon lists them, with what each runs against its capacity,
 * the builds it has finished, and when the daemon last heard from it. Empty when there are none.
 */
export function formatWorkersTable(
  workers: WorkersResponse['workers'],
  paint: Paint,
  now: number = Date.now(),
): string[] {
  if (workers.length === 0) return [];
  const rows = workers.map((w) => [
    sanitize(w.name),
    sanitize(w.host),
    { text: w.status, tone: w.status === 'online' ? ('good' as const) : ('bad' as const) },
    `${w.running.length}/${w.concurrency}`,
    String(w.jobsDone),
    formatAgo(w.lastSeen, now),
  ]);
  return formatTable(['NAME', 'HOST', 'STATUS', 'RUNNING', 'DONE', 'LAST SEEN'], rows, paint);
}
