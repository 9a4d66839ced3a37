import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BrainReply, BrainStatus } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { BRAIN_HINT, BRAIN_NOTES, BrainChat } from './brain-chat.tsx';

const box = () => screen.getByRole('textbox', { name: 'Message to the brain' }) as HTMLTextAreaElement;
const conversation = () =>
  within(screen.getByRole('list', { name: 'Brain conversation' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);
const type = (text: string) => fireEvent.change(box(), { target: { value: text } });
const handshakes = (requests: { method: string; path: string }[]) =>
  requests.filter((r) => r.method === 'POST' && r.path === '/api/brain/handshake');

const GUEST: BrainStatus = { authenticated: false, sessionTimeRemaining: 0, memoryCellCount: 0 };
/** The daemon's answer when something broke inside it. */
const internalError = () => json({ error: 'Something went wrong inside Forge.', code: 'INTERNAL' }, 500);

function brain(
  options: { status?: BrainStatus | (() => BrainStatus); reply?: () => Response | Promise<Response> } = {},
) {
  return stubDaemon(({ method, url }) => {
    if (method === 'GET' && url.pathname === '/api/brain/status') {
      const status = typeof options.status === 'function' ? options.status() : options.status;
      return json(status ?? GUEST);
    }
    if (method === 'POST' && url.pathname === '/api/brain/handshake') {
      return options.reply ? options.reply() : internalError();
    }
    return undefined;
  });
}

describe('Brain chat (docs/product.md#dashboard-widgets)', () => {
  it('starts as Guest with the hint, without naming the phrases', () => {
    brain();
    renderPanel(<BrainChat />);
    expect(screen.getByLabelText('Session').textContent).toBe('Guest');
    expect(conversation()).toEqual([BRAIN_HINT]);
  });

  it('Enter sends; Shift+Enter does not', async () => {
    const daemon = brain({ reply: () => json({ reply: 'hi', authenticated: false, sessionExpired: false }) });
    renderPanel(<BrainChat />);

    type('hello');
    fireEvent.keyDown(box(), { key: 'Enter', shiftKey: true });
    expect(handshakes(daemon.requests)).toHaveLength(0);
    expect(box().value).toBe('hello');

    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(conversation()).toEqual(['hello', 'hi']));
    expect(handshakes(daemon.requests).map((r) => (r as { body?: unknown }).body)).toEqual([
      { message: 'hello' },
    ]);
    expect(box().value).toBe('');
  });

  it('does not send empty or whitespace-only text', () => {
    const daemon = brain();
    renderPanel(<BrainChat />);
    type('   \n  ');
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(handshakes(daemon.requests)).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Send to the brain' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows "Thinking..." and is disabled while waiting', async () => {
    let answer!: (res: Response) => void;
    brain({ reply: () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderPanel(<BrainChat />);
    type('hello');
    fireEvent.keyDown(box(), { key: 'Enter' });

    expect(await screen.findByText('Thinking...')).toBeDefined();
    expect(box().disabled).toBe(true);
    answer(json({ reply: 'hi', authenticated: false, sessionExpired: false }));
    await waitFor(() => expect(screen.queryByText('Thinking...')).toBeNull());
    expect(box().disabled).toBe(false);
  });

  it('says "Connection error. Please try again." when the call fails, never a made-up reply', async () => {
    const failures = [internalError, () => Promise.reject(new TypeError('Failed to fetch'))];
    brain({ reply: () => failures.shift()!() });
    renderPanel(<BrainChat />);
    type('hello');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(conversation()).toEqual(['hello', 'Connection error. Please try again.']));
    // The daemon could not be reached at all: the same calm line.
    type('again');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() =>
      expect(conversation().slice(2)).toEqual(['again', 'Connection error. Please try again.']),
    );
    expect(screen.getByLabelText('Session').textContent).toBe('Guest');
  });

  it("shows a model's reply streaming in over /ws in place of Thinking..., then the answer", async () => {
    let answer!: (res: Response) => void;
    brain({ reply: () => new Promise<Response>((resolve) => (answer = resolve)) });
    const { socket } = renderPanel(<BrainChat />);
    // Not waiting for anything: a streamed piece of someone else's question is not this chat's.
    socket.emit({ type: 'chat', chat: 'Unrelated', role: 'brain', replyId: 'rp_0' });
    type('what failed?');
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(await screen.findByText('Thinking...')).toBeDefined();

    socket.emit({ type: 'chat', chat: 'The last build', role: 'brain', replyId: 'rp_1', final: false });
    expect(conversation()).toEqual(['what failed?', 'The last build']);
    expect(screen.queryByText('Thinking...')).toBeNull();
    socket.emit({
      type: 'chat',
      chat: 'The last build failed at build.mjs:2.',
      role: 'brain',
      replyId: 'rp_1',
    });
    expect(conversation()).toEqual(['what failed?', 'The last build failed at build.mjs:2.']);

    answer(
      json({ reply: 'The last build failed at build.mjs:2.', authenticated: false, sessionExpired: false }),
    );
    await waitFor(() => expect(box().disabled).toBe(false));
    expect(conversation()).toEqual(['what failed?', 'The last build failed at build.mjs:2.']);
  });

  it('becomes Authenticated on a reply that says so, and Guest again when the session expires', async () => {
    const replies: BrainReply[] = [
      { reply: 'Welcome back.', authenticated: true, sessionExpired: false },
      { reply: 'Too late.', authenticated: false, sessionExpired: true },
    ];
    // The status the chat refetches after each reply says what the daemon says: the session of the last reply.
    let session = GUEST;
    brain({
      status: () => session,
      reply: () => {
        const reply = replies.shift()!;
        const authenticated = reply.authenticated && !reply.sessionExpired;
        session = { authenticated, sessionTimeRemaining: authenticated ? 1_800_000 : 0, memoryCellCount: 0 };
        return json(reply);
      },
    });
    renderPanel(<BrainChat />);

    type('greeting and code');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(screen.getByLabelText('Session').textContent).toBe('Authenticated'));
    expect(conversation()).toEqual(['greeting and code', 'Welcome back.', BRAIN_NOTES.authenticated]);

    type('still there?');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(screen.getByLabelText('Session').textContent).toBe('Guest'));
    expect(conversation().slice(-2)).toEqual(['Too late.', BRAIN_NOTES.expired]);
  });

  it('shows the session time as m:ss and the memory cell count from the polled status', async () => {
    brain({ status: { authenticated: true, sessionTimeRemaining: 125_000, memoryCellCount: 7 } });
    renderPanel(<BrainChat />);
    await waitFor(() => expect(screen.getByLabelText('Session').textContent).toBe('Authenticated'));
    expect(screen.getByLabelText('Session time left').textContent).toMatch(/^2:0[45]$/);
    expect(screen.getByLabelText('Memory cells').textContent).toBe('7');
  });
});
