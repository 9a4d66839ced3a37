import { errorMessage as reasonOf } from '@/lib/api.ts';
import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClientState } from '@forge/shared';
import { isForgeHttpError } from '@/lib/http-error.ts';
import { POLL_MS, UI_TEXT, workerList } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { useClientState, useLiveStore } from '@/lib/live-store.ts';
import { routeQueryKey } from '@/lib/query-client.ts';
import { useToast } from '@/components/ui/use-toast.tsx';

export const botsQueryKey = routeQueryKey('bots');

const selectBots = (state: ClientState) => state.bots;

/**
 * Every bot with its live state, from the client model: GET /api/bots (polled every 5 s,
 * the bot status interval of docs/product.md#constants, for the job counts) is folded into it, and pushed
 * `bot-status` messages move a bot's status and job at once. `data` stays undefined until the list has been
 * read.
 */
export function useBots() {
  const store = useLiveStore();
  const query = useQuery({
    queryKey: botsQueryKey,
    queryFn: async () => {
      const bots = await forgeClient.request('bots');
      store.dispatch({ type: 'bots', bots });
      return bots;
    },
    refetchInterval: POLL_MS.botStatus,
  });
  const known = useClientState(selectBots);
  const read = query.data !== undefined;
  const data = useMemo(() => (read ? Object.values(known) : undefined), [read, known]);
  return { ...query, data };
}

const workersQueryKey = routeQueryKey('workers');

const selectQueue = (state: ClientState) => state.queue;
const selectWorkers = (state: ClientState) => state.workers;

/** A daemon older than scale-out has no GET /api/workers: it runs every build itself. */
const isMissingRoute = (error: unknown): boolean => isForgeHttpError(error) && error.status === 404;

/**
 * The scale-out queue and its workers, from the client model: GET /api/workers is folded into it,
 * and the `workers` message the daemon pushes when a worker joins, takes or ends a job, or goes quiet
 * replaces the list at once. The read is repeated at the bot status interval because heartbeats
 * alone send no message, and "last seen" would otherwise only age. `queue` is null until known;
 * `queueUrl` (password hidden) comes only from the read, the message does not carry it.
 */
export function useWorkers() {
  const store = useLiveStore();
  const query = useQuery({
    queryKey: workersQueryKey,
    queryFn: async ({ signal }) => {
      const answer = await forgeClient.request('workers', { signal });
      store.dispatch({ type: 'workers', queue: answer.queue, workers: answer.workers });
      return answer;
    },
    // Asking an older daemon again would only repeat its 404 (a reconnect refetches anyway).
    refetchInterval: (q) => (isMissingRoute(q.state.error) ? false : POLL_MS.botStatus),
  });
  const queue = useClientState(selectQueue);
  const workers = useClientState(selectWorkers);
  // Sorted from the selected slice, so the list is a new array exactly when the workers change.
  const list = useMemo(() => workerList({ ...store.getState(), workers }), [store, workers]);
  return {
    queue,
    queueUrl: query.data?.queueUrl ?? null,
    list,
    error: query.error,
    /** The daemon has no workers route: nothing to show, and nothing wrong. */
    unsupported: isMissingRoute(query.error),
    refetch: query.refetch,
  };
}

export type BotOperation = 'build' | 'fix';

/** Why a call failed, in the daemon's words when it gave some. */

/** The same with the HTTP status in front, for a failure that stays on screen. */
export const errorDetail = (error: unknown): string =>
  isForgeHttpError(error) ? `${error.status}: ${error.serverMessage}` : reasonOf(error);

/**
 * POST /api/bots/build or /api/bots/fix for one bot; says what happened either way
 * (docs/product.md#error-texts).
 */
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
