import type { BuildStatus, Project } from '@forge/shared';
import { DEFAULT_PROJECT_NAME, latestBuild } from '@forge/shared/schema-free';
import { useClientState } from '@/lib/live-store.ts';
import { useProject } from '@/lib/project-context.tsx';
import { cn } from '@/lib/utils.ts';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select.tsx';

function buildTone(status: BuildStatus | undefined): string {
  switch (status) {
    case 'succeeded':
      return 'bg-online';
    case 'queued':
    case 'running':
      return 'bg-pending';
    case 'failed':
    case 'timed-out':
    case 'interrupted':
      return 'bg-error';
    default:
      return 'bg-muted-foreground/40';
  }
}

/**
 * The colour of a project's last build. The client model's view of it wins when it knows that build
 * or a newer one (it follows /ws, so it agrees with every other panel); the project list's summary
 * covers builds it has not seen.
 */
function BuildDot({ project }: { project: Project }) {
  const known = useClientState((state) => latestBuild(state, project.name))?.build;
  const summary = project.lastBuild;
  const status = known && (!summary || known.createdAt >= summary.createdAt) ? known.status : summary?.status;
  return <span aria-hidden="true" className={cn('size-1.5 shrink-0 rounded-full', buildTone(status))} />;
}

/**
 * The header's project name and selector (docs/product.md#dashboard). Its value is the project every panel
 * works on; with nothing uploaded yet it shows the starter project's name, "Forge".
 */
export function ProjectSelector({ className }: { className?: string }) {
  const { project, projects, select } = useProject();
  if (!project) {
    return (
      <span
        aria-label="Project"
        className={cn('truncate px-1 text-sm font-medium', className)}
        title="Nothing uploaded yet: the starter project"
      >
        {DEFAULT_PROJECT_NAME}
      </span>
    );
  }
  return (
    <Select value={project} onValueChange={select}>
      <SelectTrigger
        size="sm"
        aria-label="Project"
        className={cn(
          'max-w-56 min-w-0 border-transparent font-medium shadow-none hover:bg-accent',
          className,
        )}
      >
        <SelectValue />
      </SelectTrigger>
      <SelectContent align="start" className="max-w-80">
        {projects.map((p) => (
          <SelectItem key={p.name} value={p.name}>
            <BuildDot project={p} />
            <span className="truncate">{p.name}</span>
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
