import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UI_TEXT, type SettingUpdate, type Settings } from '@forge/shared';
import { forgeClient } from '@/lib/api.ts';
import { routeQueryKey } from '@/lib/query-client.ts';
import { useToast } from '@/components/ui/use-toast.tsx';

export const settingsQueryKey = routeQueryKey('getSettings');

export const useSettings = () => useQuery<Settings>({ queryKey: settingsQueryKey });

export type BooleanSettingKey = 'botOrchestration' | 'autoRepair' | 'debugMode';

/**
 * Flip one boolean setting: POST `{ key: value }` (spec §7), show the new value at once, put the old
 * one back if the daemon refuses, and say which happened (spec §8 texts).
 */
export function useUpdateSetting() {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  return useMutation({
    mutationFn: ({ key, value }: { key: BooleanSettingKey; value: boolean }) =>
      forgeClient.request('updateSetting', { body: { [key]: value } as SettingUpdate }),
    onMutate: async ({ key, value }) => {
      await queryClient.cancelQueries({ queryKey: settingsQueryKey });
      const previous = queryClient.getQueryData<Settings>(settingsQueryKey)?.[key];
      queryClient.setQueryData<Settings>(settingsQueryKey, (old) => (old ? { ...old, [key]: value } : old));
      return { previous };
    },
    onError: (_error, { key }, context) => {
      // Revert only the key this call changed: another toggle may have succeeded meanwhile.
      const previous = context?.previous;
      if (previous !== undefined) {
        queryClient.setQueryData<Settings>(settingsQueryKey, (old) =>
          old ? { ...old, [key]: previous } : old,
        );
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
