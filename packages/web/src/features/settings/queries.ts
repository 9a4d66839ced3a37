import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SettingUpdate } from '@forge/shared';
import { UI_TEXT } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { routeQuery } from '@/lib/query-client.ts';
import { useToast } from '@/components/ui/use-toast.tsx';

const settingsQuery = routeQuery('getSettings');
export const settingsQueryKey = settingsQuery.queryKey;

export const useSettings = () => useQuery(settingsQuery);

export type BooleanSettingKey = 'botOrchestration' | 'autoRepair' | 'debugMode';

/**
 * Flip one boolean setting: POST `{ key: value }` (docs/product.md#http-calls), show the new value at once,
 * put the old one back if the daemon refuses, and say which happened (texts: docs/product.md#error-texts).
 */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  return useMutation({
    mutationFn: ({ key, value }: { key: BooleanSettingKey; value: boolean }) =>
      forgeClient.request('updateSetting', { body: { [key]: value } as SettingUpdate }),
    onMutate: async ({ key, value }) => {
      await queryClient.cancelQueries({ queryKey: settingsQueryKey });
      const previous = queryClient.getQueryData(settingsQueryKey)?.[key];
      queryClient.setQueryData(settingsQueryKey, (old) => (old ? { ...old, [key]: value } : old));
      return { previous };
    },
    onError: (_error, { key }, context) => {
      // Revert only the key this call changed: another toggle may have succeeded meanwhile.
      const previous = context?.previous;
      if (previous !== undefined) {
        queryClient.setQueryData(settingsQueryKey, (old) => (old ? { ...old, [key]: previous } : old));
      }
      toast({
        title: UI_TEXT.settingErrorTitle,
        description: UI_TEXT.settingErrorBody,
        variant: 'destructive',
      });
    },
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsQueryKey, settings);
      toast({ title: UI_TEXT.settingUpdated });
    },
  });
}
