import { useEffect, useState } from 'react';
import type { HealthResponse } from '@forge/shared';
import { HEALTH_TIMEOUT_MS } from '../constants.ts';
import { useForge } from './use-forge.tsx';

export type HealthState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | {
      kind: 'ok';
      health: HealthResponse;
      /** Local clock when the answer arrived, to advance uptime. */
      receivedAt: number;
    }
  | { kind: 'error'; message: string };

/**
 * GET /api/health each time the socket (re)connects: a reconnect may be a restarted daemon with a
 * new version and uptime. The request runs in the background and is abandoned after
 * HEALTH_TIMEOUT_MS, so a slow daemon never holds the screen.
 */
export function useHealth(timeoutMs: number = HEALTH_TIMEOUT_MS): HealthState {
  const { client, status } = useForge();
  const [state, setState] = useState<HealthState>({ kind: 'idle' });

  useEffect(() => {
    if (status !== 'connected') return;
    let current = true;
    setState({ kind: 'loading' });
    const timer = setTimeout(() => {
      if (current) setState({ kind: 'error', message: `No health answer within ${timeoutMs / 1000} s` });
      current = false;
    }, timeoutMs);
    client
      .request('health')
      .then(
        (health) => {
          if (current) setState({ kind: 'ok', health, receivedAt: Date.now() });
        },
        (err: unknown) => {
          if (current) setState({ kind: 'error', message: err instanceof Error ? err.message : String(err) });
        },
      )
      .finally(() => {
        current = false;
        clearTimeout(timer);
      });
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, status, timeoutMs]);

  return state;
}
