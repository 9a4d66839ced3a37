import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { BuildOutput, ClientState, ClientStore, LogEntry, LogLevel } from '@forge/shared';
import { createClientStore } from '@forge/shared/schema-free';

/**
 * The web's client model: the shared reducer's store (docs/client-model.md), one per SocketProvider, fed
 * every /ws message by it and every build record, log page and fleet list the app reads (the queries
 * that fetch them dispatch them). Builds, the Live Development viewer, the app-wide console (FixIt
 * console, Console screen) and bot statuses all render from it, so a build's status and stage read
 * the same on every panel. The web adds one thing: the window `build_complete` event the Build
 * Complete dialog listens to.
 */

/**
 * Window event raised when a build output is ready (docs/product.md#build-states); detail is the BuildOutput.
 */
export const BUILD_COMPLETE_EVENT = 'build_complete';

export function createLiveStore(): ClientStore {
  const store = createClientStore();
  return {
    ...store,
    receive(message, at) {
      store.receive(message, at);
      if (message.type === 'build_complete') {
        window.dispatchEvent(
          new CustomEvent<BuildOutput>(BUILD_COMPLETE_EVENT, { detail: message.buildOutput }),
        );
      }
    },
  };
}

export const LiveStoreContext = createContext<ClientStore | null>(null);

export function useLiveStore(): ClientStore {
  const store = useContext(LiveStoreContext);
  if (!store) throw new Error('useLiveStore must be used inside <SocketProvider>');
  return store;
}

/**
 * A slice of the client model; the caller re-renders when it changes. `select` must return a part
 * of the state (or a primitive), not a new object or array each call.
 */
export function useClientState<T>(select: (state: ClientState) => T): T {
  const store = useLiveStore();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

const selectConsole = (state: ClientState) => state.console;

/** Every line of the app-wide console (oldest first) and its Clear. */
export function useLogEntries(): { entries: readonly LogEntry[]; clear(): void } {
  const store = useLiveStore();
  const entries = useClientState(selectConsole);
  const clear = useCallback(() => store.dispatch({ type: 'console-clear' }), [store]);
  return { entries, clear };
}

/**
 * Write a line into the console from a panel's own action (e.g. a failed integrate,
 * docs/product.md#error-texts).
 */
export function useAppendLog(): (line: { level: LogLevel; message: string; botName?: string }) => void {
  const store = useLiveStore();
  return useCallback(
    (line) => store.dispatch({ type: 'console-append', ...line, at: new Date().toISOString() }),
    [store],
  );
}
