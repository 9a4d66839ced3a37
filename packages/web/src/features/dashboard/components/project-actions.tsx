import { useId, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, FolderDown, Hammer, LoaderCircle } from 'lucide-react';
import { forgeClient } from '@/lib/api.ts';
import { useLiveStore } from '@/lib/live-store.ts';
import { projectsQueryKey, useProject } from '@/lib/project-context.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { errorMessage } from '@/features/extensions/queries.ts';
import { buildsQueryKey } from '@/features/builds/queries.ts';

/**
 * An action that cannot be used right now. Not `disabled`: a disabled button can neither be focused
 * nor hovered, so its tooltip — the reason — would never show. aria-disabled keeps it reachable.
 */
function UnavailableAction({ icon, label, reason }: { icon: ReactNode; label: string; reason: string }) {
  const reasonId = useId();
  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button
            variant="outline"
            size="sm"
            aria-disabled="true"
            aria-describedby={reasonId}
            className="w-full cursor-not-allowed opacity-50 hover:bg-transparent"
            onClick={(event) => event.preventDefault()}
          >
            {icon}
            {label}
          </Button>
        </TooltipTrigger>
        <TooltipContent side="left">{reason}</TooltipContent>
      </Tooltip>
      {/* Hidden, yet still read as the button's description. */}
      <span id={reasonId} hidden>
        {reason}
      </span>
    </>
  );
}

/** POST /api/builds { projectName }: build the project again; its record goes into the client model. */
function useStartBuild() {
  const queryClient = useQueryClient();
  const store = useLiveStore();
  return useMutation({
    mutationFn: (projectName: string) => forgeClient.request('startBuild', { body: { projectName } }),
    onSuccess: (build) => {
      store.dispatch({ type: 'build-record', build });
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      void queryClient.invalidateQueries({ queryKey: buildsQueryKey });
    },
  });
}

const NO_PROJECT = 'Upload a project first';

/**
 * Download Project, Start Build and Download App (docs/product.md#dashboard) against the pipeline: the source
 * as {project}.zip, a new build, and the last successful build's output as {project}.zip.
 */
export function ProjectActions() {
  const { project, projects } = useProject();
  const { toast } = useToast();
  const startBuild = useStartBuild();
  const hasArtifact = projects.find((p) => p.name === project)?.hasArtifact ?? false;

  const onStartBuild = () => {
    if (!project) return;
    startBuild.mutate(project, {
      onSuccess: (build) =>
        toast({ title: 'Build started', description: `${build.projectName}: build ${build.id}` }),
      onError: (error) =>
        toast({ variant: 'destructive', title: 'Build not started', description: errorMessage(error) }),
    });
  };

  const projectIcon = <FolderDown aria-hidden="true" />;
  const buildIcon = startBuild.isPending ? (
    <LoaderCircle aria-hidden="true" className="animate-spin" />
  ) : (
    <Hammer aria-hidden="true" />
  );
  const appIcon = <Download aria-hidden="true" />;

  return (
    <div className="flex flex-col gap-2">
      {project ? (
        <Button asChild variant="outline" size="sm" className="w-full">
          <a href={forgeClient.url('downloadProject', { params: { name: project } })} download>
            {projectIcon}
            Download Project
          </a>
        </Button>
      ) : (
        <UnavailableAction icon={projectIcon} label="Download Project" reason={NO_PROJECT} />
      )}
      {project ? (
        <Button
          variant="outline"
          size="sm"
          className="w-full"
          disabled={startBuild.isPending}
          aria-busy={startBuild.isPending || undefined}
          onClick={onStartBuild}
        >
          {buildIcon}
          Start Build
        </Button>
      ) : (
        <UnavailableAction icon={buildIcon} label="Start Build" reason={NO_PROJECT} />
      )}
      {project && hasArtifact ? (
        <Button asChild variant="outline" size="sm" className="w-full">
          <a href={forgeClient.url('downloadArtifact', { params: { name: project } })} download>
            {appIcon}
            Download App
          </a>
        </Button>
      ) : (
        <UnavailableAction
          icon={appIcon}
          label="Download App"
          reason={project ? 'No successful build of this project yet: start a build first' : NO_PROJECT}
        />
      )}
    </div>
  );
}
