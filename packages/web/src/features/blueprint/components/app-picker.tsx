import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Hammer, LoaderCircle } from 'lucide-react';
import type { AppCandidate } from '@forge/shared';
import { frameworkWithStack } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { useLiveStore } from '@/lib/live-store.ts';
import { projectsQueryKey } from '@/lib/project-context.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { errorMessage } from '@/features/extensions/queries.ts';
import { buildsQueryKey } from '@/features/builds/queries.ts';

const label = (app: AppCandidate) =>
  `${app.dir} · ${frameworkWithStack(app)}${app.name ? ` (${app.name})` : ''}`;

/**
 * The project setting of a repository of several apps: which one Forge builds. Choosing another
 * builds it at once (POST /api/builds with `app`), and the daemon remembers the choice for the
 * project's next builds and uploads until another is chosen.
 */
export function AppPicker({
  projectName,
  apps,
  current,
}: {
  projectName: string;
  apps: readonly AppCandidate[];
  current: string;
}) {
  const id = useId();
  const [choice, setChoice] = useState(current);
  const queryClient = useQueryClient();
  const store = useLiveStore();
  const { toast } = useToast();
  const build = useMutation({
    mutationFn: (app: string) => forgeClient.request('startBuild', { body: { projectName, app } }),
    onSuccess: (started, app) => {
      store.dispatch({ type: 'build-record', build: started });
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      void queryClient.invalidateQueries({ queryKey: buildsQueryKey });
      toast({ title: 'Build started', description: `${projectName}: ${app}, build ${started.id}` });
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Build not started', description: errorMessage(error) }),
  });

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-muted-foreground">
        App ({apps.length} in this repository)
      </label>
      <div className="flex items-center gap-1.5">
        <select
          id={id}
          value={choice}
          onChange={(event) => setChoice(event.target.value)}
          className="h-7 min-w-0 flex-1 rounded-md border bg-background px-1.5 font-mono text-xs"
        >
          {apps.map((app) => (
            <option key={app.dir} value={app.dir}>
              {label(app)}
            </option>
          ))}
        </select>
        <Button
          size="sm"
          variant="outline"
          className="h-7"
          disabled={choice === current || build.isPending}
          aria-busy={build.isPending || undefined}
          onClick={() => build.mutate(choice)}
        >
          {build.isPending ? (
            <LoaderCircle aria-hidden="true" className="animate-spin" />
          ) : (
            <Hammer aria-hidden="true" />
          )}
          Build this app
        </Button>
      </div>
    </div>
  );
}
