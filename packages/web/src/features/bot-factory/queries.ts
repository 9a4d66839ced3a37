import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ForgeHttpError, POLL_MS, UI_TEXT, type BotInfo } from '@forge/shared';
import { forgeClient } from '@/lib/api.ts';
import { routeQueryKey } from '@/lib/query-client.ts';
import { useSocketMessages } from '@/lib/socket.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { applyBotStatus } from './bot-cards.ts';

export const botsQueryKey = routeQueryKey('bots');

/**
 * Every bot with its live state. Pushed `bot-status` messages update the cached list at once; the
 * 5 s poll (spec §9 bot status interval) brings the job counts, which the push does not carry.
 */
export function useBots() {
  const queryClient = useQueryClient();
  useSocketMessages((message) => {
    if (message.type !== 'bot-status') return;
    queryClient.setQueryData<BotInfo[]>(botsQueryKey, (list) => applyBotStatus(list, message));
  });
  return useQuery<BotInfo[]>({ queryKey: botsQueryKey, refetchInterval: POLL_MS.botStatus });
}

export type BotOperation = 'build' | 'fix';

/** Why a call failed, in the daemon's words when it gave some. */
const reasonOf = (error: unknown): string =>
  error instanceof ForgeHttpError
    ? error.serverMessage
    : error instanceof Error
      ? error.message
      : String(error);

/** The same with the HTTP status in front, for a failure that stays on screen. */
export const errorDetail = (error: unknown): string =>
  error instanceof ForgeHttpError ? `${error.status}: ${error.serverMessage}` : reasonOf(error);

/** POST /api/bots/build or /api/bots/fix for one bot; says what happened either way (spec §8). */
export function useBotAction(op: BotOperation, botName: string) {
  const queryClient = useQueryClient();
  const { toast } = useToast();
  return useMutation({
    mutationFn: () => forgeClient.request(op === 'build' ? 'botBuild' : 'botFix', { body: { botName } }),
    onSuccess: (answer) => {
      toast({ title: answer.message });
      void queryClient.invalidateQueries({ queryKey: botsQueryKey });
    },
    onError: (error) => {
      toast({
        title: UI_TEXT.botTriggerFailed(op, botName),
        description: reasonOf(error),
        variant: 'destructive',
      });
    },
  });
}
