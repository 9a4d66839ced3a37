import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import { AppProviders } from '@/app.tsx';
import { createQueryClient } from '@/lib/query-client.ts';
import { createFakeSocket, type FakeSocket } from './fake-socket.ts';
import { json, type FakeDaemonRequest } from './fake-daemon.ts';

export interface RenderedPanel extends RenderResult {
  socket: FakeSocket;
  queryClient: QueryClient;
}

/** One panel inside the app's real providers (cache, socket, project, toasts), with a fake socket. */
export function renderPanel(ui: ReactElement): RenderedPanel {
  const socket = createFakeSocket();
  const queryClient = createQueryClient();
  const wrap = (element: ReactNode) => (
    <AppProviders queryClient={queryClient} connect={socket.connect}>
      {element}
    </AppProviders>
  );
  const view = render(wrap(ui));
  // Re-rendering keeps the same providers (and so the same socket and cache).
  return { ...view, rerender: (next: ReactNode) => view.rerender(wrap(next)), socket, queryClient };
}

/** What a route handler sees: method, path, parsed query and JSON body. */
export interface RouteRequest extends FakeDaemonRequest {
  url: URL;
}

export type RouteHandler = (request: RouteRequest) => Response | Promise<Response> | undefined;

/**
 * A global fetch answering by `handler`; what it leaves unanswered gets the daemon's 404 body, and
 * GET /api/projects answers an empty list and GET /api/projects/current no project, unless the handler
 * says otherwise (ProjectProvider asks).
 */
export function stubDaemon(handler: RouteHandler) {
  const requests: RouteRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://forge.test',
    );
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: RouteRequest = {
      method,
      path: url.pathname + url.search,
      body,
      credentials: init?.credentials,
      url,
    };
    requests.push(request);
    const answer = await handler(request);
    if (answer) return answer;
    if (method === 'GET' && url.pathname === '/api/projects') return json([]);
    if (method === 'GET' && url.pathname === '/api/projects/current') return json({ name: null });
    return json({ error: 'No such API route.', code: 'NOT_FOUND' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetch: fetchMock, requests };
}

/** What the daemon says when it fails inside (ERROR_CATALOGUE.INTERNAL). */
export const DAEMON_FAILURE_TEXT = 'Something went wrong inside Forge.';

/** A daemon failure every panel must survive: its 500 INTERNAL answer (the catalogue's text). */
export const daemonFailure = (): Response =>
  json(
    {
      error: DAEMON_FAILURE_TEXT,
      code: 'INTERNAL',
      hint: 'See the daemon log: forge daemon logs',
    },
    500,
  );
