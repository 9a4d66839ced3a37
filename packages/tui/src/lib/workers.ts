import { formatAge, type Build, type QueueKind, type WorkerInfo, workerLabel } from '@forge/shared';
import type { ToneColor } from './fleet.ts';

/** What the fleet pane knows of the scale-out queue and its workers (GET /api/workers, /ws `workers`). */
export interface WorkersView {
  /** The queue the daemon uses; null while only an error is known. */
  queue: QueueKind | null;
  /** The Redis URL (password hidden) from the last GET /api/workers; /ws messages do not carry it. */
  queueUrl: string | null;
  /** The daemon this dashboard watches: where a worker has to report to. */
  daemonUrl: string;
  /** Online first, then by name (the shared `workerList`). */
  list: readonly WorkerInfo[];
  /** Why the last read failed (the last known workers stay shown). */
  error: string | null;
}

/** Online green, lost red: the colours the fleet uses for a healthy and a failed bot. */
export const workerColor = (status: WorkerInfo['status']): ToneColor =>
  status === 'online' ? 'green' : 'red';

/** "now", "12s ago", "3m ago", "2h ago", "4d ago": how long since `iso` (a clock ahead counts as now). */
export function formatAgo(iso: string, now: number): string {
  const ms = now - Date.parse(iso);
  if (!Number.isFinite(ms)) return '?';
  return ms < 1_000 ? 'now' : `${formatAge(ms)} ago`;
}

/**
 * Where the build pane says a build ran: "local", a worker's name, or "—" while it is queued. Null
 * when unknown: a record from a daemon (or a build) older than scale-out has no worker, and must not
 * read as queued.
 */
export function buildWorkerText(build: Pick<Build, 'worker' | 'status'>): string | null {
  if (build.worker === null && build.status !== 'queued') return null;
  return workerLabel(build);
}

/** The line that says how to add a worker to a bullmq queue that has none. */
export const noWorkersHint = (view: Pick<WorkersView, 'queueUrl' | 'daemonUrl'>): string =>
  `no workers yet: forge worker --queue ${view.queueUrl ?? '<redis-url>'} --url ${view.daemonUrl}`;

/** What an in-process queue with no workers says: nothing is missing, builds run here. */
export const IN_PROCESS_TEXT = 'builds run in this daemon (in-process queue)';

/**
 * `text` as lines of at most `columns`, broken between words (a word longer than a line, such as a
 * URL, is cut across lines): a command the user must read whole is never truncated away.
 */
export function wrapWords(text: string, columns: number): string[] {
  const width = Math.max(1, columns);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length <= width) {
      line += ` ${word}`;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (rest.length > width) {
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}
