import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BrainReply } from '@forge/shared';
import { json } from '@/test/fake-daemon.ts';
import { renderApp } from '@/test/render-app.tsx';
import { stubDaemon } from '@/test/render-panel.tsx';
// Loaded up front: the route imports the screen lazily.
import './description-pad-page.tsx';

async function sendToBrain(reply: BrainReply) {
  stubDaemon((req) =>
    req.method === 'POST' && req.url.pathname === '/api/brain/handshake' ? json(reply) : undefined,
  );
  const app = renderApp('/description-pad');
  await screen.findByRole('heading', { level: 1, name: 'Description Pad' });
  app.socket.setStatus('connected');
  fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'what is the plan of ghost?' } });
  fireEvent.click(screen.getByRole('button', { name: 'Send to Brain' }));
  return screen.findByLabelText('Brain reply');
}

describe('description pad: the brain reply honesty mark', () => {
  it('marks an "I don\'t know" reply with what would let the brain answer', async () => {
    const card = await sendToBrain({
      reply: 'I don\'t know a project named "ghost".',
      authenticated: true,
      sessionExpired: false,
      certainty: 'unknown',
      needs: 'the name of one of those projects',
    });
    await within(card).findByText('I don\'t know a project named "ghost".');
    const mark = within(card).getByRole('note');
    expect(mark.dataset.honesty).toBe('unknown');
    expect(mark.getAttribute('aria-label')).toBe(
      "I don't know: To answer, it needs the name of one of those projects.",
    );
  });

  it('shows a known reply without a mark', async () => {
    const card = await sendToBrain({
      reply: 'shop is a site built to static files.',
      authenticated: true,
      sessionExpired: false,
      certainty: 'known',
    });
    await within(card).findByText('shop is a site built to static files.');
    expect(within(card).queryByRole('note')).toBeNull();
  });
});
