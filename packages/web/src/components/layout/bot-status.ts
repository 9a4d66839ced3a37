import { useQuery } from '@tanstack/react-query';
import type { BotStatusResponse } from '@forge/shared';
import { activityTone, POLL_MS } from '@forge/shared/schema-free';
import { routeQuery } from '@/lib/query-client.ts';

export type ActivityTone = ReturnType<typeof activityTone>;

/**
 * One Bot Activity row as shown (docs/product.md#routes-and-navigation, docs/product.md#entities): type,
 * count, status, and its colour.
 */
export interface BotActivityView {
  type: string;
  count: number;
  status: string;
  tone: ActivityTone;
}

export interface BotStatusView {
  activities: BotActivityView[];
  /** Bots not in error, for the navigation badge. */
  online: number;
  /** docs/product.md#build-states: every bot reported inactive, so every activity shows error. */
  allInactive: boolean;
  /** The worst tone of any row: one dot that sums the fleet up (footer). */
  tone: ActivityTone;
}

/**
 * docs/product.md#build-states: "When all bots are reported inactive, every activity shows error." The daemon
 * reports that either by `success: false` (the fleet is not running) or by rows that all count zero bots
 * (`count` is the bots of a type not in error).
 */
export function presentBotStatus(response: BotStatusResponse): BotStatusView {
  const allInactive =
    !response.success ||
    (response.activities.length > 0 && response.activities.every((activity) => activity.count === 0));
  const activities = response.activities.map((activity) => ({
    ...activity,
    tone: allInactive ? ('error' as const) : activityTone(activity.status),
  }));
  const online = allInactive ? 0 : activities.reduce((sum, activity) => sum + activity.count, 0);
  const tone: ActivityTone =
    allInactive || activities.some((a) => a.tone === 'error')
      ? 'error'
      : activities.some((a) => a.tone === 'pending')
        ? 'pending'
        : 'online';
  return { activities, online, allInactive, tone };
}

/**
 * GET /api/bots/status. Exactly one mounted reader polls (`poll: true`, the navigation, which is
 * always on screen, every POLL_MS.botStatus); every other reader shares its cache entry instead of
 * starting a timer of its own.
 */
export function useBotStatus({ poll = false }: { poll?: boolean } = {}) {
  return useQuery({
    ...routeQuery('botStatus'),
    refetchInterval: poll ? POLL_MS.botStatus : false,
    select: presentBotStatus,
  });
}

export const TONE_DOT: Record<ActivityTone, string> = {
  online: 'bg-online',
  pending: 'bg-pending',
  error: 'bg-error',
};

export const TONE_TEXT: Record<ActivityTone, string> = {
  online: 'text-online',
  pending: 'text-pending',
  error: 'text-error',
};
