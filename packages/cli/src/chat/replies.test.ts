import { describe, expect, it } from 'vitest';
import { paint } from '../terminal.ts';
import { createReplyPrinter, type ChatMessage } from './replies.ts';

/** A printer writing into a string; `feed` gives it messages and says which completed a reply. */
function printer(live: boolean) {
  let text = '';
  const p = createReplyPrinter((chunk) => (text += chunk), live, paint(false));
  return {
    feed: (...messages: ChatMessage[]) => messages.map((m) => p.accept(m)),
    abandon: () => p.abandon(),
    get text() {
      return text;
    },
  };
}

const part = (chat: string, final = false, replyId = 'r1'): ChatMessage => ({
  chat,
  role: 'brain',
  replyId,
  final,
});

describe('chat replies', () => {
  it("leaves out the user's own line; a one-piece reply is complete", () => {
    const p = printer(false);
    expect(p.feed({ chat: 'status', role: 'user' }, { chat: 'Forge is up.', role: 'forge' })).toEqual([
      false,
      true,
    ]);
    expect(p.text).toBe('forge: Forge is up.\n');
  });

  it('on a terminal, a streamed reply grows on its line as each part comes', () => {
    const p = printer(true);
    expect(p.feed(part('Hel'))).toEqual([false]);
    expect(p.text).toBe('brain: Hel');
    p.feed(part('Hello,\nwor'));
    expect(p.text).toBe('brain: Hello,\n       wor');
    expect(p.feed(part('Hello,\nworld.', true))).toEqual([true]);
    expect(p.text).toBe('brain: Hello,\n       world.\n');
  });

  it('on a terminal, a part that rewrites rather than extends starts the reply afresh', () => {
    const p = printer(true);
    p.feed(part('Draft'), part('Final answer', true));
    expect(p.text).toBe('brain: Draft\nbrain: Final answer\n');
  });

  it('in a pipe, a streamed reply is printed once, whole, when its final part comes', () => {
    const p = printer(false);
    expect(p.feed(part('a'), part('ab'))).toEqual([false, false]);
    expect(p.text).toBe('');
    expect(p.feed(part('abc', true))).toEqual([true]);
    expect(p.text).toBe('brain: abc\n');
  });

  it('abandoned (timeout): what came is shown as cut off, on a terminal and in a pipe', () => {
    const live = printer(true);
    live.feed(part('Thinking'));
    live.abandon();
    expect(live.text).toBe('brain: Thinking …(cut off)\n');
    const piped = printer(false);
    piped.feed(part('Thinking'));
    piped.abandon();
    expect(piped.text).toBe('brain: Thinking …(cut off)\n');
  });

  it('removes escape sequences coming from the daemon', () => {
    const p = printer(false);
    p.feed({ chat: 'ok\u001b]0;pwned\u0007 done', role: 'forge' });
    expect(p.text).toBe('forge: ok done\n');
  });
});
