import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { AppProviders, appRoutes } from '@/app.tsx';
import { createQueryClient } from '@/lib/query-client.ts';
import { createFakeSocket, type FakeSocket } from './fake-socket.ts';

export interface RenderedApp {
  socket: FakeSocket;
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
  unmount: () => void;
}

/** The whole app at `path`, with the real routes and providers, a fake socket and a fresh cache. */
export function renderApp(path: string): RenderedApp {
  const socket = createFakeSocket();
  const queryClient = createQueryClient();
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={queryClient} connect={socket.connect}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { socket, router, queryClient, unmount: view.unmount };
}
