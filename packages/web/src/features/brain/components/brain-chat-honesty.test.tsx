import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BrainReply, BrainStatus } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { BrainChat } from './brain-chat.tsx';

const SIGNED_IN: BrainStatus = { authenticated: true, sessionTimeRemaining: 1_800_000, memoryCellCount: 0 };

function ask(replies: BrainReply[]) {
  stubDaemon(({ method, url }) => {
    if (method === 'GET' && url.pathname === '/api/brain/status') return json(SIGNED_IN);
    if (method === 'POST' && url.pathname === '/api/brain/handshake') return json(replies.shift()!);
    return undefined;
  });
  renderPanel(<BrainChat />);
  return async (text: string) => {
    fireEvent.change(screen.getByRole('textbox', { name: 'Message to the brain' }), {
      target: { value: text },
    });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message to the brain' }), { key: 'Enter' });
    await screen.findByText(text);
    await waitFor(() => expect(screen.queryByText('Thinking...')).toBeNull());
  };
}

const answers = () =>
  within(screen.getByRole('list', { name: 'Brain conversation' }))
    .getAllByRole('listitem')
    .filter((li) => li.dataset.type === 'brain');

describe('Brain chat honesty mark', () => {
  it('marks an "I don\'t know" answer with what would let the brain answer, and a known answer not', async () => {
    const say = ask([
      {
        reply: 'In shop, "login" appears in 1 file:\n- src/auth/login.ts:2: export function handleLogin() {',
        authenticated: true,
        sessionExpired: false,
        certainty: 'known',
      },
      {
        reply: "I don't know how notes's tests do: no build of it has run them yet.",
        authenticated: true,
        sessionExpired: false,
        certainty: 'unknown',
        needs: 'a build of notes first (say "build: notes" in the chat)',
      },
    ]);
    await say('where is the login handled?');
    await say('how do the tests of notes do?');
    const [knownAnswer, unknownAnswer] = answers();
    expect(within(knownAnswer!).queryByRole('note')).toBeNull();
    const mark = within(unknownAnswer!).getByRole('note');
    expect(mark.dataset.honesty).toBe('unknown');
    expect(mark.getAttribute('aria-label')).toBe(
      'I don\'t know: To answer, it needs a build of notes first (say "build: notes" in the chat).',
    );
    expect(within(mark).getByText("I don't know")).toBeDefined();
  });
});
