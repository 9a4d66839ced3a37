import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AUTH_TOKEN_STORAGE_KEY, UI_TEXT } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { notImplemented, stubDaemon } from '@/test/render-panel.tsx';
import { FAMILY_CHAT_STORAGE_KEY, simulatedReply } from '../family-chat.ts';
import { swarmSummary } from '../swarm-status.ts';
// Loaded up front: the route imports the screen lazily, and a cold transform under load can outlast
// a findBy timeout.
import './university-page.tsx';
import '@/features/login/components/login-page.tsx';

const signedIn = () => window.localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, 'tok-1');

async function open(path: string) {
  const app = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'University' });
  return app;
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});

describe('university access', () => {
  it('shows the login form, and no tabs, while no token is stored', async () => {
    const { requests } = stubDaemon(() => undefined);
    await open('/university/memory');

    expect(screen.getByLabelText('Username')).toBeDefined();
    expect(screen.getByText('Family access required')).toBeDefined();
    expect(screen.queryByRole('navigation', { name: 'University' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Main Platform' }).getAttribute('href')).toBe('/');
    // Nothing of the family area is fetched for a visitor.
    expect(requests.some((r) => r.path === '/api/memory-cells')).toBe(false);
  });

  it('signing in from a tab stays on that tab', async () => {
    stubDaemon((req) => {
      if (req.method === 'POST' && req.url.pathname === '/api/login') return json({ token: 'tok-9' });
      if (req.url.pathname === '/api/memory-cells') return json([]);
      return undefined;
    });
    const { pathname } = await open('/university/memory');
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ada' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });

    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('No memory cells yet')).toBeDefined();
    expect(pathname()).toBe('/university/memory');
  });

  it('Logout removes the token and goes to /login', async () => {
    signedIn();
    stubDaemon(() => undefined);
    const { pathname } = await open('/university');

    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));

    await waitFor(() => expect(pathname()).toBe('/login'));
    expect(window.localStorage.getItem(AUTH_TOKEN_STORAGE_KEY)).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'Login' })).toBeDefined();
  });
});

describe('university platform controls', () => {
  it('says "Build failed - family authentication required" when packaging fails', async () => {
    signedIn();
    stubDaemon((req) => (req.method === 'POST' ? notImplemented() : undefined));
    await open('/university');

    fireEvent.click(screen.getByRole('button', { name: 'Rebuild and package' }));

    expect(await screen.findByText(UI_TEXT.packageFailed)).toBeDefined();
  });

  it('shows the returned status, or "Build triggered" when it is empty', async () => {
    signedIn();
    let status = 'Packaging Forge 1.0.0';
    stubDaemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/package-platform' ? json({ status }) : undefined,
    );
    await open('/university');

    fireEvent.click(screen.getByRole('button', { name: 'Rebuild and package' }));
    expect(await screen.findByText('Packaging Forge 1.0.0')).toBeDefined();

    status = '';
    fireEvent.click(screen.getByRole('button', { name: 'Rebuild and package' }));
    expect(await screen.findByText(UI_TEXT.packageTriggered)).toBeDefined();
  });

  it('lists the installed extensions', async () => {
    signedIn();
    stubDaemon((req) =>
      req.url.pathname === '/api/extensions'
        ? json([{ name: 'kanban', displayName: 'Kanban Board', route: '/ext/kanban' }])
        : undefined,
    );
    await open('/university');

    const list = await screen.findByRole('list', { name: 'Installed extensions' });
    expect(within(list).getByText('Kanban Board')).toBeDefined();
    expect(within(list).getByRole('link', { name: 'Open' }).getAttribute('href')).toBe('/ext/kanban');
  });
});

describe('university tabs', () => {
  it('memory lists key, value and time, or says why it could not', async () => {
    signedIn();
    const ts = Date.UTC(2025, 0, 2, 3, 4, 5);
    stubDaemon((req) =>
      req.url.pathname === '/api/memory-cells'
        ? json([{ key: 'greeting', value: 'hello family', ts }])
        : undefined,
    );
    const view = await open('/university/memory');
    const row = (await screen.findByText('greeting')).closest('tr')!;
    expect(within(row).getByText('hello family')).toBeDefined();
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe('2025-01-02T03:04:05.000Z');
    view.unmount();

    stubDaemon((req) => (req.url.pathname === '/api/memory-cells' ? notImplemented() : undefined));
    await open('/university/memory');
    expect(await screen.findByText('Could not load the memory cells.')).toBeDefined();
    expect(screen.getByText(/^503: /)).toBeDefined();
  });

  it('bots shows the swarm status text', async () => {
    signedIn();
    const status = {
      success: true,
      activities: [
        { type: 'infrastructure', count: 6, status: 'online' },
        { type: 'development', count: 6, status: 'pending' },
        { type: 'operations', count: 6, status: 'online' },
        { type: 'services', count: 7, status: 'online' },
      ],
    };
    stubDaemon((req) => (req.url.pathname === '/api/bots/status' ? json(status) : undefined));
    await open('/university/bots');

    expect(
      await screen.findByText('Swarm working: 25 of 25 bots available; building in development.'),
    ).toBeDefined();
    expect(
      swarmSummary({
        success: true,
        activities: [
          { type: 'development', count: 5, status: 'error' },
          { type: 'services', count: 7, status: 'online' },
        ],
      }),
    ).toBe('Swarm degraded: 12 of 25 bots available; errors in development.');
  });

  it('family chat is local only: simulated replies, kept in sessionStorage', async () => {
    signedIn();
    const { requests } = stubDaemon(() => undefined);
    const view = await open('/university/chat');
    expect(screen.getByText('Local only')).toBeDefined();

    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Dinner at 7?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    const chat = screen.getByRole('log', { name: 'Family chat' });
    expect(within(chat).getByText('Dinner at 7?')).toBeDefined();
    expect(within(chat).getByText(simulatedReply('Dinner at 7?'))).toBeDefined();
    expect(within(chat).getByText(/^Simulated reply/)).toBeDefined();
    expect(JSON.parse(window.sessionStorage.getItem(FAMILY_CHAT_STORAGE_KEY)!)).toHaveLength(2);
    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);

    view.unmount();
    await open('/university/chat');
    expect(screen.getByText('Dinner at 7?')).toBeDefined();
  });
});
