import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_TOKEN_STORAGE_KEY, UI_TEXT, type SocketHandlers } from '@forge/shared';
import type { SocketConnector } from '@/lib/socket.tsx';
import { installFakeDaemon, json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon } from '@/test/render-panel.tsx';
import { SESSION_ENDED_TEXT } from '@/features/login/login-error.ts';
// Loaded up front: the route imports the screen lazily, and a cold transform under load can outlast
// a findBy timeout.
import '@/features/login/components/login-page.tsx';

describe('routes (docs/product.md#routes-and-navigation)', () => {
  it('shows the 404 page with both texts for an unknown path', async () => {
    installFakeDaemon();
    renderApp('/code-editor');

    expect(await screen.findByText('404 Page Not Found')).toBeDefined();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeDefined();
  });

  it('treats a university tab that does not exist as an unknown page', async () => {
    installFakeDaemon();
    renderApp('/university/nope');

    expect(await screen.findByText(UI_TEXT.notFoundTitle)).toBeDefined();
  });

  it('redirects /dashboard to / and shows the dashboard', async () => {
    installFakeDaemon();
    const { pathname } = renderApp('/dashboard');

    await waitFor(() => expect(pathname()).toBe('/'));
    const upload = await screen.findByRole('region', { name: 'Project upload' });
    expect(upload.textContent).toContain('Drop a project ZIP here or run forge upload app.zip');
    expect(screen.queryByText(UI_TEXT.notFoundTitle)).toBeNull();
  });

  it('loads each screen of the route table', { timeout: 60_000 }, async () => {
    installFakeDaemon();
    const screens: [string, string][] = [
      ['/file-explorer', 'File Explorer'],
      ['/console', 'Console'],
      ['/bot-factory', 'Bot Factory'],
      ['/code-generator', 'Code Generator'],
      ['/description-pad', 'Description Pad'],
      ['/login', 'Login'],
      ['/university', 'University'],
      ['/university/memory', 'University'],
      ['/settings', 'Settings'],
    ];
    for (const [path, title] of screens) {
      const view = renderApp(path);
      // Screens load lazily; a loaded 2-core CI machine can take longer than findBy's 1 s default.
      expect(
        await screen.findByRole('heading', { level: 1, name: title }, { timeout: 10_000 }),
      ).toBeDefined();
      view.unmount();
    }
  });

  it('lists the route-table entries in the navigation, Automation pointing at the Bot Factory', async () => {
    installFakeDaemon();
    renderApp('/');

    const nav = (await screen.findAllByRole('navigation', { name: 'Main' }))[0]!;
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual([
      'Dashboard',
      'File Explorer',
      'Code Generator',
      'Description Pad',
      'Settings',
      'Bot Factory',
      'Automation',
      'Console',
    ]);
    expect(within(nav).getByRole('link', { name: 'Automation' }).getAttribute('href')).toBe('/bot-factory');
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
  });
});

describe('connection indicator', () => {
  it('follows the socket: Disconnected until it opens, Connected while open, Disconnected when it drops', async () => {
    installFakeDaemon();
    const { socket } = renderApp('/');
    const indicator = within(await screen.findByRole('banner')).getByRole('status');
    expect(indicator.textContent).toBe(UI_TEXT.disconnected);

    socket.setStatus('connected');
    expect(indicator.textContent).toBe(UI_TEXT.connected);
    expect(indicator.dataset.status).toBe('connected');

    socket.setStatus('disconnected');
    expect(indicator.textContent).toBe(UI_TEXT.disconnected);
  });

  it('says Connected from the first render when the socket opened before the app rendered', async () => {
    installFakeDaemon();
    // A socket dialled at boot (lib/early-socket.ts) that is open already: the connector says so, and
    // says nothing more on attach, so only the first render can have shown it.
    const attached: SocketHandlers[] = [];
    const connect: SocketConnector = Object.assign(
      (handlers: SocketHandlers) => {
        attached.push(handlers);
        return { status: 'connected' as const, send: () => false, close: () => {} };
      },
      { status: () => 'connected' as const },
    );

    renderApp('/', { connect });
    const indicator = within(screen.getByRole('banner')).getByRole('status');
    expect(indicator.textContent).toBe(UI_TEXT.connected);
    expect(attached).toHaveLength(1);

    act(() => attached[0]!.onStatus?.('disconnected'));
    expect(indicator.textContent).toBe(UI_TEXT.disconnected);
  });

  it('refetches what is on screen once the socket comes back after an outage', async () => {
    const daemon = installFakeDaemon();
    const { socket } = renderApp('/');
    socket.setStatus('connected');
    await screen.findByText('1.0.0');
    const healthCalls = () => daemon.requests.filter((r) => r.path === '/api/health').length;
    expect(healthCalls()).toBe(1);

    socket.setStatus('disconnected');
    socket.setStatus('connecting');
    socket.setStatus('connected');

    await waitFor(() => expect(healthCalls()).toBe(2));
  });
});

describe('a refused family token anywhere', () => {
  afterEach(() => {
    window.localStorage.clear();
    vi.restoreAllMocks();
  });

  it('signs out and returns the user to /login, saying the session ended', async () => {
    window.localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, 'tok-old');
    stubDaemon(({ url }) =>
      url.pathname === '/api/download/app'
        ? json({ error: 'Family authentication required.', code: 'FAMILY_AUTH_REQUIRED' }, 401)
        : undefined,
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { pathname } = renderApp('/');

    // The dashboard's platform download (extension manager) is refused for the stored token.
    fireEvent.click(await screen.findByRole('link', { name: '/api/download/app' }));

    await waitFor(() => expect(pathname()).toBe('/login'));
    expect(await screen.findByText(SESSION_ENDED_TEXT)).toBeDefined();
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
  });
});
