import type { Build, ClientState, QueueKind } from '@forge/shared';
import { LOCAL_WORKER, workerLabel } from '@forge/shared/schema-free';
import { useClientState } from '@/lib/live-store.ts';
import { cn } from '@/lib/utils.ts';
import { Badge } from '@/components/ui/badge.tsx';

export interface BuildWorkerText {
  /** What the chip reads: "local", "on ci-1", "waiting for a worker" or "—". */
  text: string;
  /** The same as a sentence, for the tooltip. */
  hint: string;
}

/**
 * Where a build ran (scale-out, docs/scale-out.md): the daemon itself, a `forge worker`, or nowhere
 * yet while it is queued — "waiting for a worker" when the daemon queues on BullMQ, a dash while the
 * queue is unknown or in-process (the stage badge already says queued). Null for a record that names
 * no worker but is not queued: a daemon or build older than scale-out, which must not read as waiting.
 */
export function buildWorkerText(
  build: Pick<Build, 'worker' | 'status'>,
  queue: QueueKind | null,
): BuildWorkerText | null {
  if (build.worker === LOCAL_WORKER) return { text: 'local', hint: 'Runs in this daemon' };
  if (build.worker !== null) {
    const name = workerLabel(build);
    return { text: `on ${name}`, hint: `Runs on the worker ${name}` };
  }
  if (build.status !== 'queued') return null;
  return queue === 'bullmq'
    ? { text: 'waiting for a worker', hint: 'Queued until a worker takes it' }
    : { text: workerLabel(build), hint: 'Queued: not started yet' };
}

const selectQueue = (state: ClientState) => state.queue;

/** A small monospace chip saying where `build` ran; nothing when that is not known. */
export function BuildWorker({
  build,
  className,
}: {
  build: Pick<Build, 'worker' | 'status'>;
  className?: string;
}) {
  const queue = useClientState(selectQueue);
  const where = buildWorkerText(build, queue);
  if (!where) return null;
  return (
    <Badge
      variant="outline"
      aria-label={`Worker: ${where.text}`}
      title={where.hint}
      className={cn('max-w-40 font-mono font-normal text-muted-foreground', className)}
    >
      <span className="truncate">{where.text}</span>
    </Badge>
  );
}
