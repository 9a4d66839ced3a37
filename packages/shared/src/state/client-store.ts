import type { ServerMessage } from '../ws/events.ts';
import {
  createClientState,
  reduceClient,
  type ClientEvent,
  type ClientLimits,
  type ClientState,
} from './client-state.ts';

/**
 * The client model held for a client: the reducer's state, a dispatch, and change listeners (the
 * shape React's useSyncExternalStore wants; the CLI listens to it directly).
 */
export interface ClientStore {
  getState(): ClientState;
  dispatch(event: ClientEvent): void;
  /** Fold a /ws message in, stamped with the time it arrived. */
  receive(message: ServerMessage, at?: Date): void;
  /** Called after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export function createClientStore(limits: Partial<ClientLimits> = {}): ClientStore {
  let state = createClientState(limits);
  const listeners = new Set<() => void>();
  const dispatch = (event: ClientEvent): void => {
    const next = reduceClient(state, event);
    if (next === state) return;
    state = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    getState: () => state,
    dispatch,
    receive: (message, at = new Date()) => dispatch({ type: 'message', message, at: at.toISOString() }),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
