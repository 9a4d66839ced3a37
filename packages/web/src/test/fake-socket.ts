import { act } from '@testing-library/react';
import type { ClientMessage, ServerMessage, SocketHandlers, SocketStatus } from '@forge/shared';
import type { SocketConnector } from '@/lib/socket.tsx';

/** Stands in for the /ws connection: the test decides when it opens, drops and what it says. */
export interface FakeSocket {
  connect: SocketConnector;
  setStatus: (status: SocketStatus) => void;
  emit: (message: ServerMessage) => void;
  /** What the app sent on the socket while it was connected, parsed. */
  sent: ClientMessage[];
}

export function createFakeSocket(): FakeSocket {
  let handlers: SocketHandlers | undefined;
  const current = () => {
    if (!handlers) throw new Error('the app has not opened its socket');
    return handlers;
  };
  const sent: ClientMessage[] = [];
  let status: SocketStatus = 'connecting';
  return {
    sent,
    connect: (h) => {
      handlers = h;
      status = 'connecting';
      h.onStatus?.(status);
      return {
        get status() {
          return status;
        },
        send: (data: string) => {
          // Like a real socket: only an open connection carries a message.
          if (status !== 'connected') return false;
          sent.push(JSON.parse(data) as ClientMessage);
          return true;
        },
        close: () => {
          status = 'disconnected';
          handlers = undefined;
        },
      };
    },
    setStatus: (next) =>
      act(() => {
        status = next;
        current().onStatus?.(next);
      }),
    emit: (message) => act(() => current().onMessage?.(message)),
  };
}
