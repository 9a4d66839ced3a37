import { useEffect, useState } from 'react';
import { botList, POLL_MS, type BotInfo } from '@forge/shared';
import { createRefresher } from '../lib/refresher.ts';
import { describeError, withTimeout } from '../lib/request.ts';
import { useClientState, useForge } from './use-forge.tsx';

export interface FleetState {
  /** Every bot with its live state; null until the first answer. */
  bots: readonly BotInfo[] | null;
  /** Why the last read failed (the last known bots stay shown). */
  error: string | null;
}

/**
 * The fleet as the client model has it: GET /api/bots on every (re)connect and every 5 s (the
 * web's bot status poll) goes into the store, which applies each `bot-status` message at once, so
 * a bot turns yellow the moment it takes a job.
 */
export function useFleet(pollMs: number = POLL_MS.botStatus): FleetState {
  const { client, store, status, connection, timeoutMs } = useForge();
  const state = useClientState();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (status !== 'connected') return;
    let live = true;
    const refresher = createRefresher(async () => {
      try {
        const answer = await withTimeout(client.request('bots'), timeoutMs);
        if (!live) return;
        store.dispatch({ type: 'bots', bots: answer });
        setError(null);
      } catch (err) {
        if (live) setError(describeError(err));
      }
    });
    refresher.trigger();
    const timer = setInterval(refresher.trigger, pollMs);
    return () => {
      live = false;
      refresher.dispose();
      clearInterval(timer);
    };
  }, [client, store, status, connection, timeoutMs, pollMs]);

  // The roster is never empty: no bots means none has been read yet.
  const list = botList(state);
  return { bots: list.length > 0 ? list : null, error };
}
