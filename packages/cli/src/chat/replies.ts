import { sanitize, type Tone } from '../terminal.ts';

/** A /ws `chat` message as the printer needs it (ServerMessage of type chat). */
export interface ChatMessage {
  chat: string;
  role: 'user' | 'forge' | 'brain';
  replyId?: string;
  final?: boolean;
}

export interface ReplyPrinter {
  /**
   * Take one chat message; true when it completes a reply (a one-piece message, or the last part
   * of a streamed one), which is when `forge chat` stops waiting.
   */
  accept(message: ChatMessage): boolean;
  /** The wait ended without a final part: finish the line, or print what came so far as cut off. */
  abandon(): void;
}

/**
 * Prints chat replies, each prefixed by who speaks ("forge: …", "brain: …"; the user's own words
 * are not repeated). A streamed reply arrives as messages with the same replyId, each holding the
 * whole text so far: `live` (a terminal) prints each new piece as it comes, on the same line;
 * otherwise (a pipe, a log) the reply is printed once, when its final part arrives. Lines after a
 * reply's first are indented under the prefix.
 */
export function createReplyPrinter(
  write: (text: string) => void,
  live: boolean,
  paint: (tone: Tone | undefined, text: string) => string,
): ReplyPrinter {
  const prefix = (role: string) => `${role}: `;
  /** The reply being streamed on a terminal: its id, and the text already printed. */
  let open: { id: string; role: string; printed: string } | null = null;
  /** Streamed replies not printed yet (not live): the newest text of each. */
  const pending = new Map<string, { role: string; text: string }>();

  /** Text with terminal escapes removed, its later lines indented under `indent` columns. */
  const body = (text: string, indent: number) =>
    text
      .split('\n')
      .map((line) => sanitize(line))
      .join(`\n${' '.repeat(indent)}`);

  const closeOpen = () => {
    if (open) write('\n');
    open = null;
  };

  const whole = (role: string, text: string) => {
    write(`${paint('bold', prefix(role))}${body(text, prefix(role).length)}\n`);
  };

  return {
    accept(message) {
      if (message.role === 'user') return false;
      const { replyId, role, chat } = message;
      const final = message.final !== false;
      if (replyId === undefined) {
        closeOpen();
        whole(role, chat);
        return final;
      }
      if (!live) {
        if (!final) {
          pending.set(replyId, { role, text: chat });
          return false;
        }
        pending.delete(replyId);
        whole(role, chat);
        return true;
      }
      if (open?.id === replyId && chat.startsWith(open.printed)) {
        const more = chat.slice(open.printed.length);
        if (more) write(body(more, prefix(role).length));
        open.printed = chat;
      } else {
        // A new reply, or one whose text was rewritten rather than extended: start it afresh.
        closeOpen();
        write(`${paint('bold', prefix(role))}${body(chat, prefix(role).length)}`);
        open = { id: replyId, role, printed: chat };
      }
      if (!final) return false;
      closeOpen();
      return true;
    },
    abandon() {
      if (open) write(paint('dim', ' …(cut off)'));
      closeOpen();
      for (const { role, text } of pending.values()) {
        whole(role, `${text} …(cut off)`);
      }
      pending.clear();
    },
  };
}
