import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Brain, Send } from 'lucide-react';
import type { BrainChatMessage } from '@forge/shared';
import { UI_TEXT, formatSessionTime } from '@forge/shared/schema-free';
import { useProject } from '@/lib/project-context.tsx';
import { forgeClient } from '@/lib/api.ts';
import { useSocketMessages } from '@/lib/socket.tsx';
import { cn } from '@/lib/utils.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { HonestyMark } from '@/components/assistants/honesty-mark.tsx';
import { brainStatusQueryKey, useBrainStatus } from '../queries.ts';

/** The brain session's system notes (docs/product.md#live-state). */
export const BRAIN_NOTES = {
  authenticated: 'Authentication successful. Session established.',
  expired: 'Session expired. Please re-authenticate.',
} as const;

/** The phrases themselves are the user's secret; the hint only says what comes first. */
export const BRAIN_HINT = 'Start with your greeting phrase, then send your code phrase.';

/** What the "I don't know" mark says next to an answer: what would let the brain answer. */
export const unknownReason = (needs: string | undefined): string =>
  needs ? `To answer, it needs ${needs}.` : "Forge's records do not hold the answer.";

let nextId = 0;
const note = (
  type: BrainChatMessage['type'],
  text: string,
  extra: Partial<BrainChatMessage> = {},
): BrainChatMessage => ({
  id: `brain-${++nextId}`,
  type,
  message: text,
  timestamp: new Date().toISOString(),
  ...extra,
});

/** Current time, ticking every second while `active` (the session countdown). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/**
 * The brain chat (docs/product.md#dashboard-widgets, docs/product.md#live-state): a handshake conversation.
 * Guest becomes Authenticated when a reply says so and returns to Guest when one says the session expired;
 * the polled status also sets the flag — whichever answered last wins. While authenticated it shows the
 * session time left (counting down between polls) and the memory cell count. With a language model configured
 * the reply streams in over /ws while the handshake waits, growing in place until the answer arrives.
 */
export function BrainChat({ className }: { className?: string }) {
  const queryClient = useQueryClient();
  const status = useBrainStatus();
  const [messages, setMessages] = useState<BrainChatMessage[]>([]);
  // Questions are about the project selected in the header.
  const { project } = useProject();
  const [input, setInput] = useState('');
  const [waiting, setWaiting] = useState(false);
  const [fromReply, setFromReply] = useState<{ authenticated: boolean; at: number } | null>(null);
  // A model's reply streams over /ws (`chat`, role brain, one replyId, the whole text so far) while
  // the handshake call waits for its end: shown growing in place of "Thinking...".
  const [stream, setStream] = useState<{ replyId: string; text: string } | null>(null);
  const waitingRef = useRef(false);
  const listRef = useRef<HTMLOListElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();

  const statusAt = status.data ? status.dataUpdatedAt : -1;
  const authenticated =
    fromReply && fromReply.at >= statusAt ? fromReply.authenticated : (status.data?.authenticated ?? false);
  const now = useNow(authenticated && status.data !== undefined);
  const remaining = status.data
    ? Math.max(0, status.data.sessionTimeRemaining - (now - status.dataUpdatedAt))
    : null;

  useSocketMessages((message) => {
    if (message.type !== 'chat' || message.role !== 'brain' || !message.replyId || !waitingRef.current)
      return;
    const { replyId, chat } = message;
    setStream((current) =>
      current === null || (current.replyId === replyId && chat.length >= current.text.length)
        ? { replyId, text: chat }
        : current,
    );
  });

  useLayoutEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages, waiting, stream]);

  const send = async () => {
    const text = input.trim();
    if (!text || waiting) return;
    setInput('');
    setMessages((m) => [...m, note('user', text)]);
    setWaiting(true);
    waitingRef.current = true;
    setStream(null);
    try {
      const reply = await forgeClient.request('brainHandshake', {
        body: project ? { message: text, project } : { message: text },
      });
      const notes: BrainChatMessage[] = [
        note('brain', reply.reply, {
          authenticated: reply.authenticated,
          sessionExpired: reply.sessionExpired,
          ...(reply.certainty ? { certainty: reply.certainty } : {}),
          ...(reply.needs ? { needs: reply.needs } : {}),
        }),
      ];
      if (reply.sessionExpired) notes.push(note('system', BRAIN_NOTES.expired, { sessionExpired: true }));
      else if (reply.authenticated && !authenticated) {
        notes.push(note('system', BRAIN_NOTES.authenticated, { authenticated: true }));
      }
      setMessages((m) => [...m, ...notes]);
      setFromReply({ authenticated: reply.authenticated && !reply.sessionExpired, at: Date.now() });
      void queryClient.invalidateQueries({ queryKey: brainStatusQueryKey });
    } catch {
      // docs/product.md#error-texts: one calm line whatever went wrong (the daemon refused, or could not be
      // reached).
      setMessages((m) => [...m, note('system', UI_TEXT.brainConnectionError)]);
    } finally {
      // The reply (or the failure) replaces whatever streamed meanwhile.
      waitingRef.current = false;
      setStream(null);
      setWaiting(false);
      requestAnimationFrame(() => inputRef.current?.focus());
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter keeps the textarea's newline; an IME composition is never cut short.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <section
      aria-label="Brain chat"
      className={cn('flex min-h-0 flex-col rounded-lg border bg-card text-card-foreground', className)}
    >
      <div className="flex flex-wrap items-center gap-2 border-b px-3 py-2">
        <Brain aria-hidden="true" className="size-4 text-muted-foreground" />
        <h3 className="text-sm font-semibold">Brain</h3>
        <Badge variant={authenticated ? 'online' : 'outline'} aria-label="Session">
          {authenticated ? 'Authenticated' : 'Guest'}
        </Badge>
        {authenticated && status.data && remaining !== null ? (
          <div className="ml-auto flex items-center gap-3 text-xs text-muted-foreground">
            <span>
              Session{' '}
              <span className="font-mono text-foreground tabular-nums" aria-label="Session time left">
                {formatSessionTime(remaining)}
              </span>
            </span>
            <span>
              <span className="font-mono text-foreground tabular-nums" aria-label="Memory cells">
                {status.data.memoryCellCount}
              </span>{' '}
              memory cells
            </span>
          </div>
        ) : null}
      </div>
      <ol
        ref={listRef}
        aria-label="Brain conversation"
        className="flex min-h-24 flex-1 flex-col gap-2 overflow-y-auto px-3 py-2 text-sm"
      >
        {messages.length === 0 ? (
          <li className="self-center py-4 text-center text-xs text-muted-foreground">{BRAIN_HINT}</li>
        ) : (
          messages.map((m) => (
            <li
              key={m.id}
              data-type={m.type}
              className={cn(
                'whitespace-pre-wrap break-words',
                m.type === 'user' &&
                  'max-w-[85%] self-end rounded-lg bg-primary px-2.5 py-1.5 text-primary-foreground',
                m.type === 'brain' && 'max-w-[85%] self-start rounded-lg bg-muted px-2.5 py-1.5',
                m.type === 'system' && 'self-center text-center text-xs text-muted-foreground',
              )}
            >
              {m.message}
              {m.type === 'brain' && m.certainty === 'unknown' ? (
                <div className="mt-1.5 whitespace-normal">
                  <HonestyMark mark="unknown" reason={unknownReason(m.needs)} />
                </div>
              ) : null}
            </li>
          ))
        )}
        {waiting && stream ? (
          <li
            data-type="brain"
            aria-busy="true"
            className="max-w-[85%] self-start rounded-lg bg-muted px-2.5 py-1.5 whitespace-pre-wrap break-words"
          >
            {stream.text}
          </li>
        ) : waiting ? (
          <li className="self-start text-xs text-muted-foreground" aria-live="polite">
            Thinking...
          </li>
        ) : null}
      </ol>
      <form
        className="flex items-end gap-2 border-t p-2"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <textarea
          ref={inputRef}
          rows={2}
          value={input}
          disabled={waiting}
          onChange={(event) => setInput(event.target.value)}
          onKeyDown={onKeyDown}
          aria-label="Message to the brain"
          aria-describedby={hintId}
          placeholder="Message the brain (Enter sends, Shift+Enter for a new line)"
          className="min-h-10 min-w-0 flex-1 resize-none rounded-md border border-input bg-transparent px-2.5 py-1.5 text-sm outline-none placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring/60 disabled:opacity-50"
        />
        <Button
          type="submit"
          size="icon"
          aria-label="Send to the brain"
          disabled={waiting || input.trim() === ''}
        >
          <Send />
        </Button>
        <span id={hintId} hidden>
          {BRAIN_HINT}
        </span>
      </form>
    </section>
  );
}
