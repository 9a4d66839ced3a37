import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_TOKEN_STORAGE_KEY, UI_TEXT } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { DAEMON_FAILURE_TEXT, daemonFailure, renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { AppHeader } from './app-header.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));

function renderHeader(onAssistantOpenChange = vi.fn()) {
  renderPanel(
    <MemoryRouter>
      <AppHeader assistantOpen={false} onAssistantOpenChange={onAssistantOpenChange} />
    </MemoryRouter>,
  );
  return within(screen.getByRole('banner'));
}

describe('app header (docs/product.md#dashboard)', () => {
  afterEach(() => window.localStorage.clear());

  it('links the routes extensions added, with their descriptions', async () => {
    stubDaemon(({ url }) =>
      url.pathname === '/api/dynamic-routes'
        ? json([{ path: '/ext/kanban', name: 'kanban', displayName: 'Kanban', description: 'Boards' }])
        : undefined,
    );
    const header = renderHeader();

    const link = await header.findByRole('link', { name: 'Kanban' });
    expect(link.getAttribute('href')).toBe('/ext/kanban');
  });

  it('shows no extension links when the routes cannot be read', async () => {
    const daemon = stubDaemon(({ url }) =>
      url.pathname === '/api/dynamic-routes' ? daemonFailure() : undefined,
    );
    const header = renderHeader();

    await waitFor(() => expect(daemon.requests.some((r) => r.path === '/api/dynamic-routes')).toBe(true));
    expect(header.queryByRole('navigation', { name: 'Extensions' })).toBeNull();
    expect(screen.queryByText(DAEMON_FAILURE_TEXT)).toBeNull();
  });

  it('says "Build failed - family authentication required" when Package is refused', async () => {
    stubDaemon(({ url }) => (url.pathname === '/api/package-platform' ? daemonFailure() : undefined));
    const header = renderHeader();

    fireEvent.click(header.getByRole('button', { name: 'Package' }));

    expect(await notices().findByText(UI_TEXT.packageFailed)).toBeDefined();
  });

  it('explains a Download the daemon cannot serve instead of saving an error page', async () => {
    // The download needs the family token (without one the link goes to /login).
    window.localStorage.setItem(AUTH_TOKEN_STORAGE_KEY, 'tok-1');
    stubDaemon(({ url }) => (url.pathname === '/api/download/app' ? daemonFailure() : undefined));
    const header = renderHeader();

    const download = header.getByRole('link', { name: 'Download' });
    expect(download.getAttribute('href')).toBe('/api/download/app');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    fireEvent.click(download);

    expect(await notices().findByText('Download failed')).toBeDefined();
    expect(notices().getByText(DAEMON_FAILURE_TEXT)).toBeDefined();
  });

  it('opens the Forge assistant, links the university, and shows the connection', () => {
    stubDaemon(() => undefined);
    const onOpen = vi.fn();
    const header = renderHeader(onOpen);

    fireEvent.click(header.getByRole('button', { name: 'Forge assistant' }));
    expect(onOpen).toHaveBeenCalledWith(true);
    expect(header.getByRole('link', { name: 'University' }).getAttribute('href')).toBe('/university');
    expect(header.getByRole('status').textContent).toBe(UI_TEXT.disconnected);
    // With nothing uploaded the project name is the starter's.
    expect(header.getByLabelText('Project').textContent).toBe('Forge');
  });
});
