import { act } from '@testing-library/react';
import type { ServerMessage, SocketHandlers, SocketStatus } from '@forge/shared';
import type { SocketConnector } from '@/lib/socket.tsx';

/** Stands in for the /ws connection: the test decides when it opens, drops and what it says. */
export interface FakeSocket {
  connect: SocketConnector;
  setStatus: (status: SocketStatus) => void;
  emit: (message: ServerMessage) => void;
}

export function createFakeSocket(): FakeSocket {
  let handlers: SocketHandlers | undefined;
  const current = () => {
    if (!handlers) throw new Error('the app has not opened its socket');
    return handlers;
  };
  return {
    connect: (h) => {
      handlers = h;
      let status: SocketStatus = 'connecting';
      h.onStatus?.(status);
      return {
        get status() {
          return status;
        },
        send: () => false,
        close: () => {
          status = 'disconnected';
          handlers = undefined;
        },
      };
    },
    setStatus: (status) => act(() => current().onStatus?.(status)),
    emit: (message) => act(() => current().onMessage?.(message)),
  };
}
