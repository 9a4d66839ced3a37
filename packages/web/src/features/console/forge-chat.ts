import { useCallback, useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { ForgeChatItem, ServerMessage } from '@forge/shared';
import { isForgeHttpError } from '@/lib/http-error.ts';
import { UI_TEXT } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { useProject } from '@/lib/project-context.tsx';
import { useSocket, useSocketMessages } from '@/lib/socket.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';

/**
 * A line of the Forge chat (a Forge chat item, docs/product.md#entities) and, for the user's own lines, its
 * delivery.
 */
export interface ChatLine extends ForgeChatItem {
  id: string;
  /** User lines only: sending (POST in flight), sent, or failed with the reason. */
  delivery?: 'sending' | 'sent' | { failed: string };
  /** User lines only: the daemon has broadcast this line back (so it is not shown twice). */
  echoed?: boolean;
  /** A streamed reply: its id, and whether more of it is still coming. */
  replyId?: string;
  streaming?: boolean;
}

/** How long after sending a line the daemon's echo of it is still matched to it. */
const ECHO_WINDOW_MS = 60_000;

/** Kept for the browser tab, so leaving the Console and coming back keeps the conversation. */
export const CHAT_STORAGE_KEY = 'forge.console-chat';
export const CHAT_KEEP = 200;

/** Commands Forge understands (docs/product.md#http-calls), offered as one-click starts in the chat. */
export const CHAT_COMMANDS: readonly { label: string; fill: string; hint: string }[] = [
  { label: 'status', fill: 'status', hint: 'Fleet and build status' },
  { label: 'build', fill: 'build', hint: 'Build the current project' },
  { label: 'fix', fill: 'fix', hint: 'Retry the last failed job' },
  { label: 'build: …', fill: 'build: ', hint: 'Build something you describe' },
  { label: 'brain: …', fill: 'brain: ', hint: 'Ask the brain a question' },
];

function readStored(): ChatLine[] {
  try {
    const raw = window.sessionStorage.getItem(CHAT_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    // A line still "sending" when the tab was left never got its answer recorded: say so.
    return Array.isArray(parsed)
      ? (parsed as ChatLine[]).map((l) =>
          l.delivery === 'sending'
            ? { ...l, delivery: { failed: 'Left the page before Forge answered.' } }
            : l.streaming
              ? // Whether more of it comes is not known now; a later, longer piece still updates it.
                { ...l, streaming: false }
              : l,
        )
      : [];
  } catch {
    return [];
  }
}

const keepLast = (lines: ChatLine[]) => (lines.length > CHAT_KEEP ? lines.slice(-CHAT_KEEP) : lines);

let counter = 0;
const nextId = () => `chat-${Date.now().toString(36)}-${++counter}`;

/** What a /ws `chat` message carries. */
type ChatMessage = Extract<ServerMessage, { type: 'chat' }>;

/**
 * The chat after one /ws `chat` message. A streamed reply arrives as several messages with the same
 * replyId, each with the whole text so far: the line of that reply is updated in place (keeping its
 * place and first time), not added again. The user's own line echoed back is matched to it (see
 * useForgeChat). Pure, for the Console and anything else that shows the chat.
 */
export function mergeChatMessage(
  lines: ChatLine[],
  message: ChatMessage,
  now: number,
  newId: () => string = nextId,
): ChatLine[] {
  const timestamp = message.timestamp ?? new Date(now).toISOString();
  if (message.replyId !== undefined) {
    const index = lines.findIndex((l) => l.replyId === message.replyId);
    if (index >= 0) {
      const line = lines[index]!;
      // Once it ended (or the page was left meanwhile) only a longer text is news: a piece arriving
      // late never shortens a reply.
      if (!line.streaming && message.chat.length <= line.message.length) return lines;
      const next: ChatLine = {
        ...line,
        message: message.chat,
        streaming: message.final !== true,
        ...(message.certainty ? { certainty: message.certainty } : {}),
      };
      return lines.map((l, i) => (i === index ? next : l));
    }
  }
  if (message.role === 'user') {
    const own = lines.findIndex(
      (l) =>
        l.role === 'user' &&
        l.delivery !== undefined &&
        !l.echoed &&
        l.message === message.chat &&
        now - Date.parse(l.timestamp) < ECHO_WINDOW_MS,
    );
    if (own >= 0) return lines.map((l, i) => (i === own ? { ...l, delivery: 'sent', echoed: true } : l));
  }
  const line: ChatLine = { id: newId(), role: message.role, message: message.chat, timestamp };
  if (message.certainty) line.certainty = message.certainty;
  if (message.replyId !== undefined) {
    line.replyId = message.replyId;
    line.streaming = message.final !== true;
  }
  return keepLast([...lines, line]);
}

const reasonOf = (error: unknown): string =>
  isForgeHttpError(error)
    ? `${error.status}: ${error.serverMessage}`
    : error instanceof Error
      ? error.message
      : String(error);

/**
 * The Forge chat: POST /api/chat { q }; replies (and other clients' lines) arrive as /ws `chat`
 * messages. A user line the daemon echoes back is matched to ours instead of shown twice.
 */
export function useForgeChat() {
  const { toast } = useToast();
  const [lines, setLines] = useState<ChatLine[]>(readStored);

  useEffect(() => {
    try {
      window.sessionStorage.setItem(CHAT_STORAGE_KEY, JSON.stringify(lines));
    } catch {
      /* storage full or disabled: the chat lasts while the page is open */
    }
  }, [lines]);

  const update = useCallback((id: string, delivery: ChatLine['delivery']) => {
    setLines((current) => current.map((l) => (l.id === id ? { ...l, delivery } : l)));
  }, []);

  useSocketMessages((message) => {
    if (message.type !== 'chat') return;
    setLines((current) => mergeChatMessage(current, message, Date.now()));
  });
  const { clientId } = useSocket();
  const { project } = useProject();

  const send = useMutation({
    // The chat is about the project selected in the header (build, fix, status, brain questions).
    mutationFn: ({ q }: { id: string; q: string }) => {
      const id = clientId();
      return forgeClient.request('chat', {
        body: { q, ...(id ? { clientId: id } : {}), ...(project ? { project } : {}) },
      });
    },
    onMutate: ({ id, q }) => {
      setLines((current) =>
        keepLast([
          ...current,
          { id, role: 'user', message: q, timestamp: new Date().toISOString(), delivery: 'sending' },
        ]),
      );
    },
    onSuccess: (answer, { id }) => {
      setLines((current) => {
        const sent = current.map((l) =>
          l.id === id && l.delivery === 'sending' ? { ...l, delivery: 'sent' as const } : l,
        );
        // Without a live connection to send them to, the daemon answers in the response itself.
        const replies = (answer.replies ?? []).map((r) => ({ ...r, id: nextId() }));
        return replies.length ? keepLast([...sent, ...replies]) : sent;
      });
    },
    onError: (error, { id }) => {
      update(id, { failed: reasonOf(error) });
      toast({
        title: UI_TEXT.forgeChatErrorTitle,
        description: UI_TEXT.forgeChatErrorBody,
        variant: 'destructive',
      });
    },
  });

  return {
    lines,
    sending: send.isPending,
    /** Send `text` (trimmed); blank text is not sent. Returns whether it was sent. */
    send: (text: string): boolean => {
      const q = text.trim();
      if (!q) return false;
      send.mutate({ id: nextId(), q });
      return true;
    },
  };
}
