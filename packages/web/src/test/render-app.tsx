import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { AppProviders, AppRoutes } from '@/app.tsx';
import { createQueryClient } from '@/lib/query-client.ts';
import type { SocketConnector } from '@/lib/socket.tsx';
import { createFakeSocket, type FakeSocket } from './fake-socket.ts';

export interface RenderedApp {
  socket: FakeSocket;
  /** The path the router is at now (after redirects and navigations). */
  pathname: () => string;
  queryClient: QueryClient;
  unmount: () => void;
}

/** Reports the router's location to the test on every render. */
function LocationProbe({ onLocation }: { onLocation: (pathname: string) => void }) {
  onLocation(useLocation().pathname);
  return null;
}

/**
 * The whole app at `path`, with the real routes and providers, a fake socket (unless `connect` is
 * given) and a fresh cache.
 */
export function renderApp(path: string, options: { connect?: SocketConnector } = {}): RenderedApp {
  const socket = createFakeSocket();
  const queryClient = createQueryClient();
  let pathname = path;
  const view = render(
    <AppProviders queryClient={queryClient} connect={options.connect ?? socket.connect}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe onLocation={(p) => (pathname = p)} />
      </MemoryRouter>
    </AppProviders>,
  );
  return { socket, pathname: () => pathname, queryClient, unmount: view.unmount };
}
