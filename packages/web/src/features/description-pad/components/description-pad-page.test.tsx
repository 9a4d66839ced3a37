import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UI_TEXT } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon } from '@/test/render-panel.tsx';
import { DESCRIPTION_TEMPLATES } from '../description-templates.ts';
// Loaded up front: the route imports the screen lazily, and a cold transform under load can outlast
// a findBy timeout.
import './description-pad-page.tsx';

const notices = () => within(screen.getByRole('region', { name: 'Notifications (F8)' }));
const button = (name: string) => screen.getByRole('button', { name });
const textArea = () => screen.getByLabelText('Description') as HTMLTextAreaElement;
/** The daemon's answer when something broke inside it. */
const internalError = () => json({ error: 'Something went wrong inside Forge.', code: 'INTERNAL' }, 500);

async function open() {
  const app = renderApp('/description-pad');
  await screen.findByRole('heading', { level: 1, name: 'Description Pad' });
  app.socket.setStatus('connected');
  return app;
}

describe('description pad', () => {
  it('offers five quick templates that fill the text area', async () => {
    stubDaemon(() => undefined);
    await open();
    const templates = within(screen.getByRole('group', { name: 'Quick templates' })).getAllByRole('button');
    expect(templates).toHaveLength(5);

    fireEvent.click(button('Bug report'));

    expect(textArea().value).toBe(DESCRIPTION_TEMPLATES.find((t) => t.id === 'bug')!.text);
    expect(textArea().value).toMatch(/^Bug: /);
  });

  it('does not send empty or whitespace-only text', async () => {
    const { requests } = stubDaemon(() => undefined);
    await open();
    expect(button('Send to Brain').hasAttribute('disabled')).toBe(true);

    fireEvent.change(textArea(), { target: { value: '  \n\t ' } });
    fireEvent.click(button('Send to Brain'));
    fireEvent.click(button('Send to Forge'));

    expect(button('Send to Brain').hasAttribute('disabled')).toBe(true);
    expect(button('Send to Forge').hasAttribute('disabled')).toBe(true);
    expect(requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('sends to the brain, disables sending while waiting, and shows the reply', async () => {
    let answer!: (res: Response) => void;
    const { requests } = stubDaemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/brain/handshake'
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : undefined,
    );
    await open();
    fireEvent.change(textArea(), { target: { value: '  A login page with email and password.  ' } });

    fireEvent.click(button('Send to Brain'));

    await waitFor(() => expect(button('Send to Brain').hasAttribute('disabled')).toBe(true));
    expect(button('Send to Forge').hasAttribute('disabled')).toBe(true);
    expect(requests.filter((r) => r.method === 'POST')).toMatchObject([
      { path: '/api/brain/handshake', body: { message: 'A login page with email and password.' } },
    ]);

    answer(json({ reply: 'Noted: a login page.', authenticated: false, sessionExpired: false }));

    expect(await screen.findByText('Noted: a login page.')).toBeDefined();
    expect(button('Send to Brain').hasAttribute('disabled')).toBe(false);
  });

  it('says "Request failed" when the brain call fails', async () => {
    stubDaemon((req) => (req.method === 'POST' ? internalError() : undefined));
    await open();
    fireEvent.change(textArea(), { target: { value: 'Add dark mode' } });

    fireEvent.click(button('Send to Brain'));

    expect(await notices().findByText(UI_TEXT.requestFailed)).toBeDefined();
    expect(notices().getByText('Something went wrong inside Forge.')).toBeDefined();
    expect(notices().queryByText(UI_TEXT.forgeRequestFailed)).toBeNull();
  });

  it('says "Forge request failed" when the Forge call fails', async () => {
    const { requests } = stubDaemon((req) => (req.method === 'POST' ? internalError() : undefined));
    await open();
    fireEvent.change(textArea(), { target: { value: 'build: a todo app' } });

    fireEvent.click(button('Send to Forge'));

    expect(await notices().findByText(UI_TEXT.forgeRequestFailed)).toBeDefined();
    expect(requests.filter((r) => r.method === 'POST')).toMatchObject([
      { path: '/api/chat', body: { q: 'build: a todo app' } },
    ]);
  });

  it('shows Forge replies arriving over the socket after a send', async () => {
    stubDaemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/chat' ? json({ ok: true }) : undefined,
    );
    const { socket } = await open();
    fireEvent.change(textArea(), { target: { value: 'status' } });

    fireEvent.click(button('Send to Forge'));
    await screen.findByText('Waiting for Forge to answer…');
    socket.emit({ type: 'chat', chat: 'All 25 bots active.', role: 'forge' });

    expect(await screen.findByText('All 25 bots active.')).toBeDefined();
  });

  it('shows a streamed Forge reply as one reply growing in place', async () => {
    stubDaemon((req) =>
      req.method === 'POST' && req.url.pathname === '/api/chat' ? json({ ok: true }) : undefined,
    );
    const { socket } = await open();
    fireEvent.change(textArea(), { target: { value: 'brain: what is a blueprint?' } });
    fireEvent.click(button('Send to Forge'));
    await screen.findByText('Waiting for Forge to answer…');

    socket.emit({ type: 'chat', chat: 'A blueprint', role: 'brain', replyId: 'rp_1', final: false });
    socket.emit({
      type: 'chat',
      chat: 'A blueprint is the plan',
      role: 'brain',
      replyId: 'rp_1',
      final: false,
    });
    socket.emit({
      type: 'chat',
      chat: 'A blueprint is the plan of a build.',
      role: 'brain',
      replyId: 'rp_1',
      final: true,
    });

    const replies = screen.getByLabelText('Forge replies');
    expect(within(replies).getByText('A blueprint is the plan of a build.')).toBeDefined();
    expect(within(replies).queryByText('A blueprint')).toBeNull();
    expect(within(replies).getAllByText('brain')).toHaveLength(1);
  });

  it('Clear empties the text area', async () => {
    stubDaemon(() => undefined);
    await open();
    fireEvent.click(button('Feature'));
    expect(textArea().value).not.toBe('');

    fireEvent.click(button('Clear'));

    expect(textArea().value).toBe('');
  });
});
