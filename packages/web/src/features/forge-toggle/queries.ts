import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isForgeHttpError } from '@/lib/http-error.ts';
import { UI_TEXT } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { routeQuery } from '@/lib/query-client.ts';

const forgeToggleQuery = routeQuery('forgeToggleState');
export const forgeToggleQueryKey = forgeToggleQuery.queryKey;

/**
 * docs/product.md#live-state: "Auto-Forge toggle starts on": the value shown until the daemon has said
 * otherwise.
 */
export const FORGE_TOGGLE_DEFAULT = true;

/** GET /api/forge/toggle: whether auto-forge (rebuild on file changes) is on. */
export const useForgeToggleState = () => useQuery(forgeToggleQuery);

/** POST /api/forge/toggle { active }; the daemon's answer becomes the cached state. */
export function useSetForgeToggle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (active: boolean) => forgeClient.request('forgeToggle', { body: { active } }),
    onSuccess: (state) => queryClient.setQueryData(forgeToggleQueryKey, state),
  });
}

/**
 * docs/product.md#error-texts "Forge operation": the daemon's own words when it sent some, else the catalogue
 * text.
 */
export function forgeOperationError(error: unknown): string {
  return isForgeHttpError(error) && error.serverMessage ? error.serverMessage : UI_TEXT.forgeUnavailable;
}
