import { describe, expect, it } from 'vitest';
import { mergeChatMessage, type ChatLine } from './forge-chat.ts';

const NOW = Date.parse('2026-01-02T03:04:05.000Z');
let ids = 0;
const newId = () => `l${++ids}`;
const brain = (chat: string, final?: boolean) =>
  ({
    type: 'chat',
    chat,
    role: 'brain',
    replyId: 'rp_1',
    final,
    timestamp: '2026-01-02T03:04:05.000Z',
  }) as const;

describe('mergeChatMessage', () => {
  it('grows a streamed reply in place, keeping its place and first time, until the final piece', () => {
    let lines: ChatLine[] = [];
    lines = mergeChatMessage(lines, brain('Hel'), NOW, newId);
    lines = mergeChatMessage(lines, { type: 'chat', chat: 'Build started.', role: 'forge' }, NOW, newId);
    lines = mergeChatMessage(
      lines,
      { ...brain('Hello, the build'), timestamp: '2026-01-02T03:04:09.000Z' },
      NOW,
      newId,
    );
    expect(lines.map((l) => [l.message, l.streaming])).toEqual([
      ['Hello, the build', true],
      ['Build started.', undefined],
    ]);
    expect(lines[0]!.timestamp).toBe('2026-01-02T03:04:05.000Z');
    lines = mergeChatMessage(lines, brain('Hello, the build failed.', true), NOW, newId);
    expect(lines[0]).toMatchObject({
      message: 'Hello, the build failed.',
      streaming: false,
      replyId: 'rp_1',
    });
    expect(lines).toHaveLength(2);
  });

  it('never shortens a reply that ended with a piece arriving late, and changes nothing then', () => {
    const done = mergeChatMessage([], brain('The whole answer.', true), NOW, newId);
    expect(mergeChatMessage(done, brain('The whole'), NOW, newId)).toBe(done);
  });

  it("matches the echo of the user's own line instead of showing it twice", () => {
    const sent: ChatLine = {
      id: 'mine',
      role: 'user',
      message: 'status',
      timestamp: new Date(NOW - 1000).toISOString(),
      delivery: 'sending',
    };
    const lines = mergeChatMessage([sent], { type: 'chat', chat: 'status', role: 'user' }, NOW, newId);
    expect(lines).toEqual([{ ...sent, delivery: 'sent', echoed: true }]);
  });
});
