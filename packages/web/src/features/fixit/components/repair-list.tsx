import { useMemo } from 'react';
import { useIsMutating, useMutationState } from '@tanstack/react-query';
import { LoaderCircle, Undo2, Wrench } from 'lucide-react';
import type { Build, Repair, RepairStatus } from '@forge/shared';
import { formatClock } from '@forge/shared/schema-free';
import { cn } from '@/lib/utils.ts';
import { Badge, type BadgeProps } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { HonestyMark } from '@/components/assistants/honesty-mark.tsx';
import { diffStats, parseUnifiedDiff } from '../diff.ts';
import { applyFixKey, currentRepair, useApplyFix, useRepairJournal, useUndoRepair } from '../queries.ts';
import { DiffView } from './diff-view.tsx';

const STATUS_TONE: Record<RepairStatus, BadgeProps['variant']> = {
  proposed: 'pending',
  applied: 'online',
  failed: 'error',
  undone: 'outline',
};

/** How many applied repairs of the journal are offered for undo besides the build's own. */
const JOURNAL_SHOWN = 5;

function DiffStat({ diff }: { diff: string }) {
  const { added, removed } = useMemo(() => diffStats(parseUnifiedDiff(diff)), [diff]);
  if (added === 0 && removed === 0) return null;
  return (
    <span className="font-mono text-[0.7rem] tabular-nums" aria-label={`${added} added, ${removed} removed`}>
      <span className="text-online">+{added}</span> <span className="text-error">−{removed}</span>
    </span>
  );
}

/**
 * What the proposal's trial on a copy of the project showed: "Verified" when the build passed there
 * or got further, plainly "Not verified" (and why) when it could not be tried.
 */
function RepairVerificationNote({ repair }: { repair: Repair }) {
  const v = repair.verification;
  if (!v) return null;
  // The mark says "Verified" itself: its reason is the detail without the word ("the build passes").
  if (v.status === 'passes' || v.status === 'partial')
    return <HonestyMark mark="verified" reason={v.detail.replace(/^verified:\s*/i, '')} />;
  return (
    <p role="note" aria-label={`Not verified: ${v.detail}`} className="text-[0.7rem] text-muted-foreground">
      Not verified: {v.detail}
    </p>
  );
}

/** One repair: what it does, the files, the change, and the action its status allows. */
function RepairItem({
  repair,
  diffOpen,
  action,
}: {
  repair: Repair;
  diffOpen: boolean;
  action: React.ReactNode;
}) {
  const label = `Change of ${repair.files.join(', ') || 'the project'}`;
  return (
    <li
      aria-label={repair.summary}
      data-status={repair.status}
      className="flex flex-col gap-1.5 rounded-md border bg-background/60 p-2"
    >
      <div className="flex flex-wrap items-start gap-2">
        <Wrench aria-hidden="true" className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" />
        <p className="min-w-0 flex-1 text-xs break-words">{repair.summary}</p>
        <Badge variant={STATUS_TONE[repair.status]} aria-label={`Status: ${repair.status}`}>
          {repair.status}
        </Badge>
      </div>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-[0.7rem] text-muted-foreground">
        {repair.files.length ? (
          <ul aria-label="Files" className="flex flex-wrap gap-1">
            {repair.files.map((f) => (
              <li key={f} className="rounded bg-muted px-1 font-mono text-foreground">
                {f}
              </li>
            ))}
          </ul>
        ) : null}
        <DiffStat diff={repair.diff} />
        <time dateTime={repair.at} className="tabular-nums">
          {formatClock(repair.at)}
        </time>
        <span className="ml-auto">{action}</span>
      </div>
      <RepairVerificationNote repair={repair} />
      {repair.diff ? (
        diffOpen ? (
          <DiffView diff={repair.diff} label={label} />
        ) : (
          <details>
            <summary className="cursor-pointer text-[0.7rem] text-muted-foreground hover:text-foreground">
              Show the change
            </summary>
            <DiffView diff={repair.diff} label={label} className="mt-1" />
          </details>
        )
      ) : (
        <p className="text-[0.7rem] text-muted-foreground">
          No file text changes: the repair runs the install differently.
        </p>
      )}
    </li>
  );
}

/**
 * RepairBot's repairs of a build. Proposed ones (autoRepair off) each show their change with an
 * "Apply fix" button (POST /api/builds/:id/fix, then a new build); with several, "Apply all fixes"
 * applies them together. Applied ones — made during the build, or earlier ones of the project still
 * in place — offer "Undo", which restores the files they changed. `diffOpen` shows the diffs at once
 * (FixIt) rather than behind "Show the change" (the Build Failed panel).
 */
export function RepairList({
  build,
  diffOpen = true,
  className,
}: {
  build: Build;
  diffOpen?: boolean;
  className?: string;
}) {
  const project = build.projectName;
  const journal = useRepairJournal(project);
  const apply = useApplyFix(build.id, project);
  const undo = useUndoRepair(project);
  const applyKey = applyFixKey(build.id);
  // Every Apply button of this build (FixIt's and the Build Failed panel's) shows one state.
  const applying = useIsMutating({ mutationKey: applyKey }) > 0;
  const applied = useMutationState({ filters: { mutationKey: applyKey, status: 'success' } }).length > 0;

  const repairs = build.repairs.map((r) => currentRepair(r, journal.data));
  const own = new Set(repairs.map((r) => r.id));
  const earlier = (journal.data ?? [])
    .filter((r) => r.status === 'applied' && !own.has(r.id))
    .slice(0, JOURNAL_SHOWN);
  const proposed = repairs.filter((r) => r.status === 'proposed');
  const done = [...repairs.filter((r) => r.status !== 'proposed'), ...earlier];
  if (proposed.length === 0 && done.length === 0) return null;

  const applyButton = (codes: Repair['code'][] | undefined, text: string, title: string) => (
    <Button
      size="sm"
      className="h-6 gap-1 px-2 text-xs"
      disabled={applying || applied}
      aria-busy={applying || undefined}
      title={title}
      onClick={() => apply.mutate(codes)}
    >
      {applying ? (
        <LoaderCircle aria-hidden="true" className="animate-spin" />
      ) : (
        <Wrench aria-hidden="true" />
      )}
      {text}
    </Button>
  );

  return (
    <div role="group" aria-label="Repairs" className={cn('flex flex-col gap-2', className)}>
      {proposed.length ? (
        <section aria-label="Proposed repairs" className="flex flex-col gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h4 className="text-xs font-medium">RepairBot can fix this</h4>
            {applied ? (
              <span className="text-[0.7rem] text-muted-foreground" role="status">
                Applied: building again…
              </span>
            ) : null}
            {proposed.length > 1 ? (
              <span className="ml-auto">
                {applyButton(undefined, 'Apply all fixes', 'Apply every proposed repair, then build again')}
              </span>
            ) : null}
          </div>
          <ul className="flex flex-col gap-1.5">
            {proposed.map((r) => (
              <RepairItem
                key={r.id}
                repair={r}
                diffOpen={diffOpen}
                action={applyButton([r.code], 'Apply fix', `Apply this repair, then build ${project} again`)}
              />
            ))}
          </ul>
        </section>
      ) : null}
      {done.length ? (
        <section aria-label="Applied repairs" className="flex flex-col gap-1.5">
          <h4 className="text-xs font-medium">Repairs made</h4>
          <ul className="flex flex-col gap-1.5">
            {done.map((r) => {
              const undoing = undo.isPending && undo.variables === r.id;
              return (
                <RepairItem
                  key={r.id}
                  repair={r}
                  diffOpen={false}
                  action={
                    r.status === 'applied' ? (
                      <Button
                        variant="outline"
                        size="sm"
                        className="h-6 gap-1 px-2 text-xs"
                        disabled={undo.isPending}
                        aria-busy={undoing || undefined}
                        title={`Restore ${r.files.join(', ') || 'the files'} as they were before`}
                        onClick={() => undo.mutate(r.id)}
                      >
                        {undoing ? (
                          <LoaderCircle aria-hidden="true" className="animate-spin" />
                        ) : (
                          <Undo2 aria-hidden="true" />
                        )}
                        Undo
                      </Button>
                    ) : null
                  }
                />
              );
            })}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
