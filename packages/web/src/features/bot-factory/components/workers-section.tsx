import type { ReactNode } from 'react';
import { RotateCw, Server } from 'lucide-react';
import type { QueueKind, WorkerInfo } from '@forge/shared';
import { formatLocalTime } from '@forge/shared/schema-free';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Mono } from '@/components/layout/page.tsx';
import { formatAgo } from '../bot-cards.ts';
import { errorDetail, useWorkers } from '../queries.ts';
import { useNow } from '../use-now.ts';
import { ColumnHeads } from '@/components/column-heads.tsx';

/** "Last seen" moves every second: a worker heartbeats every couple of seconds. */
const LAST_SEEN_TICK_MS = 1_000;

/** The command that adds a worker to this daemon's queue (the URL as the daemon gave it, password hidden). */
export const workerCommand = (queueUrl: string | null, daemonUrl: string): string =>
  `forge worker --queue ${queueUrl ?? '<redis-url>'} --url ${daemonUrl}`;

const STATUS_HINTS: Record<WorkerInfo['status'], string> = {
  online: 'Heard from within the last few seconds.',
  lost: 'Gone quiet: stopped, killed or cut off from this daemon.',
};

/** One quiet line, for the states with nothing to list. */
function Line({ children }: { children: ReactNode }) {
  return (
    <p className="flex min-w-0 items-center gap-2 text-xs text-muted-foreground">
      <Server aria-hidden="true" className="size-3.5 shrink-0" />
      <span className="min-w-0 break-words">{children}</span>
    </p>
  );
}

function WorkersTable({ workers }: { workers: readonly WorkerInfo[] }) {
  const now = useNow(LAST_SEEN_TICK_MS);
  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full text-xs">
        <ColumnHeads
          className="text-left text-muted-foreground"
          cell="px-3 py-1.5"
          columns={[
            { label: 'Name' },
            { label: 'Host' },
            { label: 'Jobs', className: 'text-right' },
            { label: 'Last seen' },
            { label: 'Status' },
          ]}
        />
        <tbody>
          {workers.map((w) => (
            <tr key={w.name} aria-label={w.name} className="border-b last:border-b-0">
              <td className="px-3 py-1.5 font-mono whitespace-nowrap">{w.name}</td>
              <td className="max-w-48 truncate px-3 py-1.5 font-mono text-muted-foreground" title={w.host}>
                {w.host}
              </td>
              <td
                data-testid="worker-jobs"
                className="px-3 py-1.5 text-right font-mono whitespace-nowrap tabular-nums"
                title={w.running.length ? `Running ${w.running.join(', ')}` : `${w.jobsDone} builds done`}
              >
                {w.running.length}/{w.concurrency}
              </td>
              <td className="px-3 py-1.5 whitespace-nowrap text-muted-foreground">
                <time dateTime={w.lastSeen} title={formatLocalTime(w.lastSeen)}>
                  {formatAgo(w.lastSeen, now)}
                </time>
              </td>
              <td className="px-3 py-1.5">
                <Badge
                  variant={w.status === 'online' ? 'online' : 'error'}
                  data-testid="worker-status"
                  title={STATUS_HINTS[w.status]}
                >
                  {w.status}
                </Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function QueueChip({ queue, queueUrl }: { queue: QueueKind; queueUrl: string | null }) {
  return (
    <span className="min-w-0 truncate font-mono text-xs text-muted-foreground" aria-label="Queue">
      {queueUrl ? `${queue} ${queueUrl}` : queue}
    </span>
  );
}

/**
 * The `forge worker` processes that run this daemon's builds (scale-out, docs/scale-out.md), beside
 * the bots: name, host, jobs running of its concurrency, when it was last heard from, and online or
 * lost. Without workers it stays one line saying how to get some; a daemon older than scale-out
 * shows nothing.
 */
export function WorkersSection() {
  const workers = useWorkers();
  if (workers.unsupported) return null;
  const { queue, queueUrl, list, error } = workers;

  let body: ReactNode;
  if (queue === null) {
    body = error ? (
      <div role="alert" className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
        <span>Could not read the workers:</span>
        <span className="font-mono break-words text-muted-foreground">{errorDetail(error)}</span>
        <Button variant="ghost" size="sm" className="h-6 px-2" onClick={() => void workers.refetch()}>
          <RotateCw />
          Try again
        </Button>
      </div>
    ) : (
      <Skeleton className="h-4 w-80 max-w-full" />
    );
  } else if (list.length === 0) {
    body =
      queue === 'in-process' ? (
        <Line>
          Builds run in this daemon. Start <Mono>forge worker</Mono> processes and set a queue to spread
          builds across machines.
        </Line>
      ) : (
        <Line>
          No workers yet: start one with <Mono>{workerCommand(queueUrl, window.location.origin)}</Mono>.
        </Line>
      );
  } else {
    const online = list.filter((w) => w.status === 'online').length;
    body = (
      <>
        <div className="flex min-w-0 flex-wrap items-baseline gap-x-3 gap-y-1">
          <h2 className="text-sm font-semibold">Workers</h2>
          <span className="text-xs text-muted-foreground">
            {online} online{list.length > online ? ` · ${list.length - online} lost` : ''}
          </span>
          <QueueChip queue={queue} queueUrl={queueUrl} />
        </div>
        <WorkersTable workers={list} />
        {error ? (
          <p role="alert" className="text-xs text-muted-foreground">
            Could not refresh the workers: <span className="font-mono">{errorDetail(error)}</span>
          </p>
        ) : null}
      </>
    );
  }
  return (
    <section aria-label="Workers" aria-busy={queue === null && !error} className="flex flex-col gap-2">
      {body}
    </section>
  );
}
