import { useQuery } from '@tanstack/react-query';
import { isForgeHttpError } from '@/lib/http-error.ts';
import { forgeClient } from '@/lib/api.ts';
import { routeQueryKey } from '@/lib/query-client.ts';

/**
 * "Why is it red now?" of a failed build (GET /api/builds/:id/diff): it compares two finished
 * builds, so it never changes and is read once. A refusal (never green, source not kept) is an
 * answer too, shown in the daemon's words: not retried.
 */
export function useBuildDiff(buildId: string, enabled: boolean) {
  return useQuery({
    queryKey: routeQueryKey('buildDiff', { params: { id: buildId } }),
    queryFn: ({ signal }) => forgeClient.request('buildDiff', { params: { id: buildId }, signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: (count, error) => !isForgeHttpError(error) && count < 2,
  });
}
