import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPanel, stubDaemon } from '@/test/render-panel.tsx';
import { mergeChatMessage, type ChatLine } from '../forge-chat.ts';
import { ChatPanel } from './chat-panel.tsx';

describe('Console chat: the brain honesty mark', () => {
  it('marks a brain answer that says it does not know, and no other line', () => {
    let lines: ChatLine[] = [];
    const at = Date.parse('2026-03-02T10:00:00Z');
    for (const message of [
      { type: 'chat' as const, chat: 'brain: where is the payment handled?', role: 'user' as const },
      {
        type: 'chat' as const,
        chat: 'I don\'t know: no file of shop mentions "payment".',
        role: 'brain' as const,
        certainty: 'unknown' as const,
      },
      { type: 'chat' as const, chat: 'brain: where is the login handled?', role: 'user' as const },
      {
        type: 'chat' as const,
        chat: 'In shop, "login" appears in 1 file.',
        role: 'brain' as const,
        certainty: 'known' as const,
      },
    ]) {
      lines = mergeChatMessage(lines, message, at);
    }
    stubDaemon(() => undefined);
    renderPanel(<ChatPanel lines={lines} sending={false} onSend={() => true} />);
    const notes = screen.getAllByRole('note');
    expect(notes).toHaveLength(1);
    expect(notes[0]!.dataset.honesty).toBe('unknown');
    const item = notes[0]!.closest('li')!;
    expect(within(item).getByText('I don\'t know: no file of shop mentions "payment".')).toBeDefined();
  });
});
