import { useEffect, useState } from 'react';
import { botList, ForgeHttpError, POLL_MS, workerList, type BotInfo } from '@forge/shared';
import { createRefresher } from '../lib/refresher.ts';
import { describeError, withTimeout } from '../lib/request.ts';
import type { WorkersView } from '../lib/workers.ts';
import { useClientState, useForge } from './use-forge.tsx';

export interface FleetState {
  /** Every bot with its live state; null until the first answer. */
  bots: readonly BotInfo[] | null;
  /** Why the last read failed (the last known bots stay shown). */
  error: string | null;
  /** The queue and its workers; null until known, and for a daemon that predates scale-out. */
  workers: WorkersView | null;
}

/** What the last GET /api/workers left that the client store does not hold. */
interface WorkersRead {
  queueUrl: string | null;
  error: string | null;
}

const NO_READ: WorkersRead = { queueUrl: null, error: null };

/**
 * The fleet as the client model has it: GET /api/bots and GET /api/workers on every (re)connect
 * and every 5 s (the web's bot status poll) go into the store, which applies each `bot-status` and
 * `workers` message at once, so a bot turns yellow the moment it takes a job and a worker red the
 * moment the daemon stops hearing from it. The poll also keeps each worker's last-seen time fresh:
 * heartbeats alone send no message.
 */
export function useFleet(pollMs: number = POLL_MS.botStatus): FleetState {
  const { client, store, status, connection, timeoutMs } = useForge();
  const state = useClientState();
  const [error, setError] = useState<string | null>(null);
  const [workersRead, setWorkersRead] = useState<WorkersRead>(NO_READ);

  useEffect(() => {
    if (status !== 'connected') return;
    let live = true;
    // A daemon without the route (older than scale-out) is asked again only after a reconnect,
    // which may be to an upgraded one.
    let noWorkersRoute = false;

    const readBots = async () => {
      try {
        const answer = await withTimeout(client.request('bots'), timeoutMs);
        if (!live) return;
        store.dispatch({ type: 'bots', bots: answer });
        setError(null);
      } catch (err) {
        if (live) setError(describeError(err));
      }
    };
    const readWorkers = async () => {
      if (noWorkersRoute) return;
      try {
        const answer = await withTimeout(client.request('workers'), timeoutMs);
        if (!live) return;
        store.dispatch({ type: 'workers', queue: answer.queue, workers: answer.workers });
        setWorkersRead((prev) =>
          prev.queueUrl === answer.queueUrl && prev.error === null
            ? prev
            : { queueUrl: answer.queueUrl, error: null },
        );
      } catch (err) {
        if (!live) return;
        if (err instanceof ForgeHttpError && err.status === 404) {
          // It runs every build itself: there is nothing to show, not an error.
          noWorkersRoute = true;
          setWorkersRead(NO_READ);
          return;
        }
        const message = describeError(err);
        setWorkersRead((prev) => (prev.error === message ? prev : { ...prev, error: message }));
      }
    };

    const refresher = createRefresher(async () => {
      await Promise.all([readBots(), readWorkers()]);
    });
    refresher.trigger();
    const timer = setInterval(refresher.trigger, pollMs);
    return () => {
      live = false;
      refresher.dispose();
      clearInterval(timer);
    };
  }, [client, store, status, connection, timeoutMs, pollMs]);

  const workers: WorkersView | null =
    state.queue === null && workersRead.error === null
      ? null
      : {
          queue: state.queue,
          queueUrl: workersRead.queueUrl,
          daemonUrl: client.baseUrl,
          list: workerList(state),
          error: workersRead.error,
        };

  // The roster is never empty: no bots means none has been read yet.
  const list = botList(state);
  return { bots: list.length > 0 ? list : null, error, workers };
}
