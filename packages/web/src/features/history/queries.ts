import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { forgeClient } from '@/lib/api.ts';
import { projectsQueryKey } from '@/lib/project-context.tsx';
import { routeQuery, routeQueryKey } from '@/lib/query-client.ts';
import { useSocketMessages } from '@/lib/socket.tsx';

/** Every read of a project's history starts with this key. */
const historyKeyOf = (project: string) => routeQueryKey('projectHistory', { params: { name: project } });

/**
 * GET /api/projects/:name/history: the project's kept builds. Read again when a build of it ends
 * (a new build is kept, old ones pruned) or it is rolled back (from here, the CLI or another tab).
 */
export function useProjectHistory(project: string | null) {
  const queryClient = useQueryClient();
  useSocketMessages((message) => {
    if (!project) return;
    const moved =
      (message.type === 'build-finished' || message.type === 'build-rollback') &&
      message.projectName === project;
    if (moved) void queryClient.invalidateQueries({ queryKey: historyKeyOf(project) });
  });
  return useQuery({
    ...routeQuery('projectHistory', { params: { name: project ?? '' } }),
    enabled: project !== null,
  });
}

/** POST /api/projects/:name/rollback { build }: the kept build becomes the current preview and download. */
export function useRollback(project: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (build: string) =>
      forgeClient.request('rollback', { params: { name: project ?? '' }, body: { build } }),
    onSuccess: () => {
      if (project) void queryClient.invalidateQueries({ queryKey: historyKeyOf(project) });
      void queryClient.invalidateQueries({ queryKey: projectsQueryKey });
      void queryClient.invalidateQueries({ queryKey: routeQueryKey('previewUrl') });
    },
  });
}
