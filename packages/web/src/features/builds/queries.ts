import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BuildView } from '@forge/shared';
import { latestBuild } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { useClientState, useLiveStore } from '@/lib/live-store.ts';
import { routeQueryKey } from '@/lib/query-client.ts';
import { useSocketMessages } from '@/lib/socket.tsx';

/** Every read of GET /api/builds starts with this key (for invalidating them all). */
export const buildsQueryKey = routeQueryKey('builds');

export interface LatestBuild {
  /** The project's newest build as the client model knows it (record and /ws together); null if none. */
  view: BuildView | null;
  /** The record is still on its way (and nothing is known of the project's builds yet). */
  isPending: boolean;
  error: Error | null;
}

/**
 * The newest build of `project`: GET /api/builds?project=…&limit=1, folded into the client model, so
 * what is shown is the model's view of it — the same status and stage as the Live Development
 * viewer and every other panel. Read again when the socket says a build of the project moved on
 * (the record then carries the plan and steps /ws does not), not polled.
 */
export function useLatestBuild(project: string | null): LatestBuild {
  const store = useLiveStore();
  const queryClient = useQueryClient();
  const input = { query: { project: project ?? '', limit: 1 } };
  const queryKey = routeQueryKey('builds', input);

  useSocketMessages((message) => {
    if (!project) return;
    const moved =
      (message.type === 'build-stage' || message.type === 'build-finished') &&
      message.projectName === project;
    if (moved) void queryClient.invalidateQueries({ queryKey });
  });

  const query = useQuery({
    queryKey,
    queryFn: async () => {
      const builds = await forgeClient.request('builds', input);
      store.dispatch({ type: 'build-records', builds });
      return builds;
    },
    enabled: project !== null,
  });
  const view = useClientState((state) => (project === null ? null : latestBuild(state, project)));
  return { view, isPending: query.isPending && view === null, error: query.error };
}

/**
 * The stored tail of a build's log, read once for a build the client model knows only from its
 * record (a fresh page showing the last build): GET /api/builds/:id/logs, folded into the model,
 * which merges it with any live lines by their seq. A build with lines already (from /ws) is not read.
 */
export function useBuildLogTail(view: BuildView | null, lines: number): void {
  const store = useLiveStore();
  const build = view?.build;
  const wanted = !!view && view.fromRecord && view.log.lines.length === 0 && (build?.logCount ?? 0) > 0;
  const id = build?.id ?? '';
  const input = {
    params: { id },
    query: { after: Math.max(0, (build?.logCount ?? 0) - lines), limit: lines },
  };
  useQuery({
    queryKey: routeQueryKey('buildLogs', input),
    queryFn: async () => {
      const page = await forgeClient.request('buildLogs', input);
      store.dispatch({ type: 'log-page', buildId: id, entries: page.entries });
      return page;
    },
    enabled: wanted,
  });
}
