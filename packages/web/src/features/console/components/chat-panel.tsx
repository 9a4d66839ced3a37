import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { MessagesSquare, SendHorizontal } from 'lucide-react';
import { formatClock } from '@forge/shared/schema-free';
import { useConnectionStatus } from '@/lib/socket.tsx';
import { cn } from '@/lib/utils.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState, Mono } from '@/components/layout/page.tsx';
import { Input } from '@/components/ui/input.tsx';
import { HonestyMark } from '@/components/assistants/honesty-mark.tsx';
import { CHAT_COMMANDS, type ChatLine } from '../forge-chat.ts';

/** Distance from the bottom (px) within which the chat keeps following what arrives. */
const FOLLOW_SLACK_PX = 24;

const ROLE_LABEL: Record<ChatLine['role'], string> = { user: 'You', forge: 'Forge', brain: 'Brain' };

function ChatBubble({ line }: { line: ChatLine }) {
  const mine = line.role === 'user';
  const failed = typeof line.delivery === 'object' ? line.delivery.failed : null;
  return (
    <li className={cn('flex flex-col gap-0.5', mine ? 'items-end' : 'items-start')} data-role={line.role}>
      <span className="text-[0.7rem] text-muted-foreground">
        {ROLE_LABEL[line.role]} · <time dateTime={line.timestamp}>{formatClock(line.timestamp)}</time>
        {line.delivery === 'sending' ? ' · sending…' : null}
        {line.streaming ? ' · writing…' : null}
      </span>
      <p
        aria-busy={line.streaming || undefined}
        className={cn(
          'max-w-[85%] rounded-lg border px-3 py-1.5 text-sm break-words whitespace-pre-wrap',
          mine ? 'bg-secondary' : 'bg-card',
          failed && 'border-error/50',
        )}
      >
        {line.message}
      </p>
      {line.role === 'brain' && line.certainty === 'unknown' ? (
        <div className="max-w-[85%]">
          <HonestyMark
            mark="unknown"
            reason="The brain says it does not know, and what would let it answer."
          />
        </div>
      ) : null}
      {failed ? (
        <span className="max-w-[85%] font-mono text-[0.7rem] break-words text-error">Not sent: {failed}</span>
      ) : null}
    </li>
  );
}

/**
 * The Console's Chat tab: the Forge chat (docs/product.md#entities, docs/product.md#http-calls). Needs the
 * live connection (docs/product.md#validation). A streamed reply is one bubble whose text grows in place
 * until it is final.
 */
export function ChatPanel({
  lines,
  sending,
  onSend,
}: {
  lines: ChatLine[];
  sending: boolean;
  onSend: (text: string) => boolean;
}) {
  const connected = useConnectionStatus() === 'connected';
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const scroller = useRef<HTMLDivElement>(null);

  // Follow new lines, and a streamed reply growing in place, while the view is at the bottom.
  const following = useRef(true);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [lines]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!connected || sending) return;
    if (onSend(draft)) {
      setDraft('');
      following.current = true;
    }
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      {lines.length === 0 ? (
        <EmptyState icon={MessagesSquare} title="Talk to Forge" className="flex-1">
          Ask for <Mono>status</Mono>, start a <Mono>build</Mono>, <Mono>fix</Mono> the last failure, or ask
          the brain with <Mono>brain: your question</Mono>. Replies stream in live.
        </EmptyState>
      ) : (
        <div
          ref={scroller}
          role="log"
          aria-label="Forge chat"
          tabIndex={0}
          className="min-h-64 flex-1 overflow-auto rounded-md border p-3 outline-none focus-visible:ring-2 focus-visible:ring-ring/60"
          onScroll={(event) => {
            const el = event.currentTarget;
            following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK_PX;
          }}
        >
          <ol className="flex flex-col gap-3">
            {lines.map((line) => (
              <ChatBubble key={line.id} line={line} />
            ))}
          </ol>
        </div>
      )}
      <div role="group" aria-label="Commands" className="flex flex-wrap items-center gap-1">
        {CHAT_COMMANDS.map((c) => (
          <Button
            key={c.label}
            variant="ghost"
            size="sm"
            className="font-mono text-muted-foreground"
            title={c.hint}
            onClick={() => {
              setDraft(c.fill);
              input.current?.focus();
            }}
          >
            {c.label}
          </Button>
        ))}
      </div>
      <form onSubmit={submit} className="flex items-center gap-2" aria-label="Message Forge">
        <Input
          ref={input}
          aria-label="Message"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={
            connected ? 'status, build, fix, brain: question…' : 'Waiting for the live connection…'
          }
          disabled={!connected}
          className="font-mono"
          autoComplete="off"
        />
        <Button type="submit" disabled={!connected || sending || draft.trim() === ''}>
          <SendHorizontal />
          Send
        </Button>
      </form>
      {connected ? null : (
        <p className="flex items-center gap-2 text-xs text-muted-foreground">
          <Badge variant="error">Disconnected</Badge>
          Forge chat needs the live connection to the daemon; it reconnects every 3 s.
        </p>
      )}
    </div>
  );
}
