import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Build } from '@forge/shared';
import { routeQueryKey } from '@/lib/query-client.ts';
import { useSocketMessages } from '@/lib/socket.tsx';

/** Every "latest build of a project" query starts with this (GET /api/builds). */
export const latestBuildQueryKeyPrefix = routeQueryKey('builds');

export const latestBuildQueryKey = (project: string) =>
  [...latestBuildQueryKeyPrefix, { project, limit: 1 }] as const;

/**
 * The newest build of `project` (GET /api/builds?project=…&limit=1): its plan (blueprint), stage and
 * result. Refetched when the socket says a build of that project moved on, not polled.
 */
export function useLatestBuild(project: string | null) {
  const queryClient = useQueryClient();
  useSocketMessages((message) => {
    if (!project) return;
    const relevant =
      (message.type === 'build-stage' || message.type === 'build-finished') &&
      message.projectName === project;
    if (relevant) void queryClient.invalidateQueries({ queryKey: latestBuildQueryKey(project) });
  });
  return useQuery<Build[], Error, Build | null>({
    queryKey: latestBuildQueryKey(project ?? ''),
    enabled: project !== null,
    select: (builds) => builds[0] ?? null,
  });
}
