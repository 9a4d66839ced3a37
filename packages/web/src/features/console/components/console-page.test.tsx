import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { UI_TEXT } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon } from '@/test/render-panel.tsx';
// Loaded up front: the route imports the screen lazily, and a cold transform under load can outlast
// a findBy timeout.
import './console-page.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));
const openTab = (name: RegExp) => {
  // Radix tabs switch on mouse down (and on focus), not on click.
  fireEvent.mouseDown(screen.getByRole('tab', { name }), { button: 0 });
};

beforeEach(() => {
  window.sessionStorage.clear();
});

describe('console: bot logs', () => {
  it('counts the live log lines and clears the view', async () => {
    stubDaemon(() => undefined);
    const { socket } = renderApp('/console');
    expect(await screen.findByText('No log lines yet')).toBeDefined();
    expect(screen.getByRole('tab', { name: /Bot Logs/ }).textContent).toBe('Bot Logs0');

    socket.emit({ type: 'log', botName: 'BuildBot', level: 'info', message: 'vite build started' });
    socket.emit({ type: 'log', botName: 'TestBot', level: 'error', message: '2 tests failed' });

    const log = await screen.findByRole('log', { name: 'Bot logs' });
    expect(within(log).getByText('vite build started')).toBeDefined();
    expect(within(log).getByText('TestBot')).toBeDefined();
    expect(screen.getByTestId('log-count').textContent).toBe('2 lines');
    expect(screen.getByRole('tab', { name: /Bot Logs/ }).textContent).toBe('Bot Logs2');

    fireEvent.click(screen.getByRole('button', { name: 'error' }));
    expect(
      within(screen.getByRole('log', { name: 'Bot logs' })).queryByText('vite build started'),
    ).toBeNull();
    expect(screen.getByTestId('log-count').textContent).toBe('1 of 2 lines');

    fireEvent.click(screen.getByRole('button', { name: 'Clear logs' }));

    expect(screen.getByText('No log lines yet')).toBeDefined();
    expect(screen.getByRole('tab', { name: /Bot Logs/ }).textContent).toBe('Bot Logs0');
    expect(screen.getByRole('button', { name: 'Clear logs' }).hasAttribute('disabled')).toBe(true);

    socket.emit({ type: 'log', botName: 'BuildBot', level: 'error', message: 'build failed' });
    expect(await screen.findByText('build failed')).toBeDefined();
    expect(screen.getByTestId('log-count').textContent).toBe('1 of 1 line');
  });

  it('switches between the Bot Logs and Chat tabs', async () => {
    stubDaemon(() => undefined);
    renderApp('/console');
    expect((await screen.findByRole('tab', { name: /Bot Logs/ })).getAttribute('aria-selected')).toBe('true');

    openTab(/Chat/);

    expect(screen.getByRole('tab', { name: /Chat/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeDefined();
    expect(screen.queryByText('No log lines yet')).toBeNull();
  });
});

describe('console: Forge chat', () => {
  it('needs a live connection', async () => {
    stubDaemon(() => undefined);
    const { socket } = renderApp('/console');
    await screen.findByRole('tab', { name: /Chat/ });
    openTab(/Chat/);
    const input = screen.getByRole('textbox', { name: 'Message' });
    expect(input.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(/Forge chat needs the live connection/)).toBeDefined();

    socket.setStatus('connected');

    expect(input.hasAttribute('disabled')).toBe(false);
  });

  it('posts { q } and shows the replies that arrive over the socket', async () => {
    const { requests } = stubDaemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/chat' ? json({ ok: true }) : undefined,
    );
    const { socket } = renderApp('/console');
    await screen.findByRole('tab', { name: /Chat/ });
    socket.setStatus('connected');
    openTab(/Chat/);

    const input = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: '  status ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() =>
      expect(requests.filter((r) => r.method === 'POST')).toMatchObject([
        { path: '/api/chat', body: { q: 'status' } },
      ]),
    );
    expect((input as HTMLInputElement).value).toBe('');
    // The daemon echoes the user's line to every client: shown once, not twice.
    socket.emit({ type: 'chat', chat: 'status', role: 'user' });
    socket.emit({ type: 'chat', chat: '25 of 25 bots available.', role: 'forge' });

    const chat = screen.getByRole('log', { name: 'Forge chat' });
    expect(await within(chat).findByText('25 of 25 bots available.')).toBeDefined();
    expect(within(chat).getAllByText('status')).toHaveLength(1);
  });

  it("sends this tab's connection id, so a signed-in brain answer comes back to it alone", async () => {
    const { requests } = stubDaemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/chat' ? json({ ok: true }) : undefined,
    );
    const { socket } = renderApp('/console');
    await screen.findByRole('tab', { name: /Chat/ });
    socket.setStatus('connected');
    socket.emit({ type: 'hello', version: '1.0.0', clientId: 'tab-7' });
    openTab(/Chat/);

    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'brain: hi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() =>
      expect(requests.filter((r) => r.method === 'POST')).toEqual([
        expect.objectContaining({ path: '/api/chat', body: { q: 'brain: hi', clientId: 'tab-7' } }),
      ]),
    );
  });

  it('shows a streamed reply as one message, updated in place by its replyId until it is final', async () => {
    stubDaemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/chat' ? json({ ok: true }) : undefined,
    );
    const { socket } = renderApp('/console');
    await screen.findByRole('tab', { name: /Chat/ });
    socket.setStatus('connected');
    openTab(/Chat/);
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), {
      target: { value: 'brain: what failed?' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const chat = await screen.findByRole('log', { name: 'Forge chat' });
    const bubbles = () =>
      [...chat.querySelectorAll('li')].map((li) => [li.dataset.role, li.querySelector('p')?.textContent]);

    const piece = (text: string, final = false) =>
      socket.emit({
        type: 'chat',
        chat: text,
        role: 'brain',
        replyId: 'rp_1',
        final,
        timestamp: '2026-01-02T03:04:05.000Z',
      });
    piece('The last build');
    piece('The last build of site failed:');
    expect(bubbles()).toEqual([
      ['user', 'brain: what failed?'],
      ['brain', 'The last build of site failed:'],
    ]);
    expect(chat.querySelector('li[data-role="brain"] p')?.getAttribute('aria-busy')).toBe('true');
    expect(within(chat).getByText(/writing…/)).toBeDefined();

    // Another reply meanwhile is a message of its own.
    socket.emit({ type: 'chat', chat: 'Build started for site.', role: 'forge' });
    piece('The last build of site failed: build.mjs imports ./Lib.mjs, the file is lib.mjs.', true);
    expect(bubbles()).toEqual([
      ['user', 'brain: what failed?'],
      ['brain', 'The last build of site failed: build.mjs imports ./Lib.mjs, the file is lib.mjs.'],
      ['forge', 'Build started for site.'],
    ]);
    expect(chat.querySelector('li[data-role="brain"] p')?.hasAttribute('aria-busy')).toBe(false);
    expect(within(chat).queryByText(/writing…/)).toBeNull();
  });

  it('does not send blank text', async () => {
    const { requests } = stubDaemon(() => undefined);
    const { socket } = renderApp('/console');
    await screen.findByRole('tab', { name: /Chat/ });
    socket.setStatus('connected');
    openTab(/Chat/);

    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: '   ' } });
    expect(screen.getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
    fireEvent.submit(screen.getByRole('form', { name: 'Message Forge' }));

    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('says "Chat Error - Failed to send message to Forge" when the daemon refuses', async () => {
    stubDaemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/chat'
        ? json({ error: 'Something went wrong inside Forge.', code: 'INTERNAL' }, 500)
        : undefined,
    );
    const { socket } = renderApp('/console');
    await screen.findByRole('tab', { name: /Chat/ });
    socket.setStatus('connected');
    openTab(/Chat/);

    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'build' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    expect(await notices().findByText(UI_TEXT.forgeChatErrorTitle)).toBeDefined();
    expect(notices().getByText(UI_TEXT.forgeChatErrorBody)).toBeDefined();
    expect(await screen.findByText('Not sent: 500: Something went wrong inside Forge.')).toBeDefined();
  });
});
