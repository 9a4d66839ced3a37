import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, UI_TEXT } from '@forge/shared';
import { installFakeDaemon, json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));
const toggle = (name: string) => screen.getByRole('switch', { name });

describe('settings screen', () => {
  it('shows the stored settings, with max concurrent bots read-only', async () => {
    installFakeDaemon({
      settings: { ...DEFAULT_SETTINGS, debugMode: true, maxConcurrentBots: 7, keepArtifacts: 4 },
    });
    renderApp('/settings');

    expect(
      (await screen.findByRole('switch', { name: 'Bot orchestration' })).getAttribute('aria-checked'),
    ).toBe('true');
    expect(toggle('Auto-repair').getAttribute('aria-checked')).toBe('true');
    expect(toggle('Debug mode').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByLabelText('Max concurrent bots').textContent).toBe('7');
    expect(screen.queryByRole('switch', { name: 'Max concurrent bots' })).toBeNull();
    expect(screen.getByLabelText('Builds kept per project').textContent).toBe('4');
  });

  it('posts exactly { debugMode: true } and confirms with "Setting updated"', async () => {
    const daemon = installFakeDaemon();
    renderApp('/settings');

    fireEvent.click(await screen.findByRole('switch', { name: 'Debug mode' }));

    expect(await notices().findByText(UI_TEXT.settingUpdated)).toBeDefined();
    const posts = daemon.requests.filter((r) => r.method === 'POST');
    expect(posts).toEqual([
      { method: 'POST', path: '/api/settings', body: { debugMode: true }, credentials: 'include' },
    ]);
    expect(toggle('Debug mode').getAttribute('aria-checked')).toBe('true');
  });

  it('flips at once, then reverts and says "Failed to update setting." when the daemon refuses', async () => {
    let answer!: (res: Response) => void;
    installFakeDaemon({
      onPostSettings: () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderApp('/settings');

    fireEvent.click(await screen.findByRole('switch', { name: 'Auto-repair' }));
    await waitFor(() => expect(toggle('Auto-repair').getAttribute('aria-checked')).toBe('false'));
    expect(toggle('Auto-repair').hasAttribute('disabled')).toBe(true);

    answer(json({ error: 'disk full', code: 'INTERNAL' }, 500));

    expect(await notices().findByText(UI_TEXT.settingErrorBody)).toBeDefined();
    expect(notices().getByText(UI_TEXT.settingErrorTitle)).toBeDefined();
    expect(notices().queryByText(UI_TEXT.settingUpdated)).toBeNull();
    await waitFor(() => expect(toggle('Auto-repair').getAttribute('aria-checked')).toBe('true'));
    expect(toggle('Auto-repair').hasAttribute('disabled')).toBe(false);
  });

  it('shows a change pushed over the socket by another client', async () => {
    installFakeDaemon();
    const { socket } = renderApp('/settings');
    const debug = await screen.findByRole('switch', { name: 'Debug mode' });
    expect(debug.getAttribute('aria-checked')).toBe('false');

    socket.emit({ type: 'settings-updated', settings: { ...DEFAULT_SETTINGS, debugMode: true } });

    await waitFor(() => expect(toggle('Debug mode').getAttribute('aria-checked')).toBe('true'));
  });

  it('says where loading failed instead of showing switches', async () => {
    installFakeDaemon();
    // The daemon refuses the settings read.
    const failing = async (input: RequestInfo | URL) =>
      String(input) === '/api/settings'
        ? new Response('settings store locked', { status: 503 })
        : json({ ok: true, version: '1.0.0', uptimeMs: 1 });
    globalThis.fetch = failing as typeof fetch;
    renderApp('/settings');

    expect(await screen.findByText('503: settings store locked')).toBeDefined();
    expect(screen.queryByRole('switch')).toBeNull();
  });
});

describe('system information', () => {
  it('reports the daemon operational only while the socket is open and health is ok', async () => {
    installFakeDaemon({ health: { ok: true, version: '9.8.7', uptimeMs: 5 } });
    const { socket } = renderApp('/settings');
    const card = () =>
      within(screen.getByText('System information').closest('[data-slot="card"]') as HTMLElement);

    expect(await card().findByText('9.8.7')).toBeDefined();
    expect(await card().findByText('25/25 bots')).toBeDefined();
    // Health answered but the socket has not opened yet: not known, so not claimed.
    expect(card().getAllByText('checking')).toHaveLength(2);
    expect(card().queryByText('operational')).toBeNull();

    socket.setStatus('connected');
    expect(card().getByText('operational')).toBeDefined();
    expect(card().getByText('engine active')).toBeDefined();

    socket.setStatus('disconnected');
    expect(card().getByText('offline')).toBeDefined();
    expect(card().getByText('engine unreachable')).toBeDefined();
    expect(card().queryByText('operational')).toBeNull();
    expect(card().queryByText('engine active')).toBeNull();
  });
});
