import { History } from 'lucide-react';
import type { HistoryEntry } from '@forge/shared';
import { formatBytes, formatLocalTime } from '@forge/shared/schema-free';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { errorMessage } from '@/lib/api.ts';
import { useProject } from '@/lib/project-context.tsx';
import { RollbackButton } from '@/features/extensions/components/rollback-button.tsx';
import { useProjectHistory, useRollback } from '../queries.ts';

/** Shown before the project has a kept build. */
export const NO_HISTORY_HINT = 'No kept builds yet: every successful build is kept here.';

const verdictVariant = (status: string | undefined) =>
  status === 'failed' ? 'error' : status === 'passed' ? 'online' : 'outline';

function HistoryRow({
  project,
  entry,
  pending,
  onRollback,
}: {
  project: string;
  entry: HistoryEntry;
  pending: boolean;
  onRollback: () => void;
}) {
  return (
    <li
      className="flex flex-col gap-1 border-b pb-1.5 last:border-b-0 last:pb-0"
      aria-label={`Build ${entry.buildId}${entry.current ? ' (current)' : ''}`}
      aria-current={entry.current || undefined}
    >
      <div className="flex min-w-0 items-center gap-1.5">
        <span className="truncate font-mono text-foreground">{entry.buildId}</span>
        {entry.current ? <Badge variant="online">current</Badge> : null}
        <Badge variant={verdictVariant(entry.verdict?.status)} title={entry.verdict?.summary}>
          {!entry.verdict || entry.verdict.status === 'none' ? 'no tests' : entry.verdict.status}
        </Badge>
      </div>
      <div className="flex min-w-0 flex-wrap gap-x-2 font-mono text-muted-foreground">
        <span>{formatLocalTime(entry.createdAt)}</span>
        <span>{formatBytes(entry.bytes)}</span>
        <span title={`sha256 ${entry.artifactSha256}`}>{entry.artifactSha256.slice(0, 12)}</span>
      </div>
      {entry.current ? null : (
        <div>
          <RollbackButton
            target={`build ${entry.buildId}`}
            subject={project}
            pending={pending}
            onClick={onRollback}
          />
        </div>
      )}
    </li>
  );
}

/**
 * The current project's kept builds, newest first (docs/artifacts.md): when, tests verdict, size and
 * artifact digest, the current one marked, and Rollback on the others, which switches the preview
 * and "Download App" to that build at once, without building.
 */
export function HistoryPanel() {
  const { project } = useProject();
  const { toast } = useToast();
  const history = useProjectHistory(project);
  const rollback = useRollback(project);
  const builds = history.data?.builds ?? [];

  const rollBack = (buildId: string) =>
    rollback.mutate(buildId, {
      onSuccess: (result) =>
        toast({
          title: 'Rolled back',
          description: `${result.projectName} now serves build ${result.buildId}.`,
        }),
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Rollback failed', description: errorMessage(error) }),
    });

  return (
    <Card className="gap-0" aria-label="Build history">
      <CardHeader className="px-3 pt-3">
        <CardTitle className="flex items-center gap-1.5">
          <History aria-hidden="true" className="size-4 text-muted-foreground" />
          History
          {history.data ? (
            <span className="ml-auto text-xs font-normal text-muted-foreground">
              last {history.data.keep} kept
            </span>
          ) : null}
        </CardTitle>
      </CardHeader>
      <CardContent className="px-3 py-3 text-xs">
        {!project || (history.isSuccess && builds.length === 0) ? (
          <p className="text-muted-foreground">{NO_HISTORY_HINT}</p>
        ) : history.isError ? (
          <p className="text-error">{errorMessage(history.error)}</p>
        ) : (
          <ul className="flex flex-col gap-1.5">
            {builds.map((entry) => (
              <HistoryRow
                key={entry.buildId}
                project={project}
                entry={entry}
                pending={rollback.isPending && rollback.variables === entry.buildId}
                onRollback={() => rollBack(entry.buildId)}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
