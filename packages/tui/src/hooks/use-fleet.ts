import { useEffect, useState } from 'react';
import { POLL_MS, type BotInfo } from '@forge/shared';
import { createRefresher } from '../lib/refresher.ts';
import { describeError, withTimeout } from '../lib/request.ts';
import { useForge, useMessages } from './use-forge.tsx';

export interface FleetState {
  /** Every bot with its live state; null until the first answer. */
  bots: readonly BotInfo[] | null;
  /** Why the last read failed (the last known bots stay shown). */
  error: string | null;
}

/**
 * The fleet: GET /api/bots on every (re)connect and every 5 s (the web's bot status poll), and each
 * `bot-status` message applied at once so a bot turns yellow the moment it takes a job.
 */
export function useFleet(pollMs: number = POLL_MS.botStatus): FleetState {
  const { client, status, connection, timeoutMs } = useForge();
  const [state, setState] = useState<FleetState>({ bots: null, error: null });

  useEffect(() => {
    if (status !== 'connected') return;
    let live = true;
    const refresher = createRefresher(async () => {
      try {
        const bots = await withTimeout(client.request('bots'), timeoutMs);
        if (live) setState({ bots, error: null });
      } catch (err) {
        if (live) setState((prev) => ({ ...prev, error: describeError(err) }));
      }
    });
    refresher.trigger();
    const timer = setInterval(refresher.trigger, pollMs);
    return () => {
      live = false;
      refresher.dispose();
      clearInterval(timer);
    };
  }, [client, status, connection, timeoutMs, pollMs]);

  useMessages((message) => {
    if (message.type !== 'bot-status') return;
    setState((prev) => {
      if (!prev.bots?.some((b) => b.name === message.botName)) return prev;
      return {
        ...prev,
        bots: prev.bots.map((b) =>
          b.name === message.botName ? { ...b, status: message.status, currentJob: message.job ?? null } : b,
        ),
      };
    });
  });

  return state;
}
