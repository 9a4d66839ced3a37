import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Eraser, MessagesSquare, SendHorizontal } from 'lucide-react';
import { formatClock } from '@forge/shared';
import { cn } from '@/lib/utils.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/layout/page.tsx';
import { Input } from '@/components/ui/input.tsx';
import { FAMILY_CHAT_STORAGE_KEY, readFamilyChat, withMessage, type FamilyMessage } from '../family-chat.ts';

const load = (): FamilyMessage[] => {
  try {
    return readFamilyChat(window.sessionStorage);
  } catch {
    return [];
  }
};

/** /university/chat: the family chat, local to this tab, with simulated replies (spec §2.8). */
export function FamilyChatTab() {
  const [messages, setMessages] = useState<FamilyMessage[]>(load);
  const [draft, setDraft] = useState('');
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    try {
      window.sessionStorage.setItem(FAMILY_CHAT_STORAGE_KEY, JSON.stringify(messages));
    } catch {
      /* storage disabled: the chat lasts while the page is open */
    }
  }, [messages]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    setMessages((current) => withMessage(current, text, Date.now()));
    setDraft('');
  };

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="flex flex-col gap-1">
          <CardTitle className="flex items-center gap-2">
            Family chat <Badge variant="outline">Local only</Badge>
          </CardTitle>
          <CardDescription>
            Messages stay in this browser tab and replies are simulated: nobody else reads or answers them.
          </CardDescription>
        </div>
        <Button variant="ghost" size="sm" disabled={messages.length === 0} onClick={() => setMessages([])}>
          <Eraser />
          Clear
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {messages.length === 0 ? (
          <EmptyState icon={MessagesSquare} title="No messages yet" className="py-8">
            Write a note below; it is kept until this tab is closed.
          </EmptyState>
        ) : (
          <div
            ref={scroller}
            role="log"
            aria-label="Family chat"
            tabIndex={0}
            className="max-h-[50vh] min-h-48 overflow-auto rounded-md border p-3 outline-none focus-visible:ring-2 focus-visible:ring-ring/60"
          >
            <ol className="flex flex-col gap-3">
              {messages.map((m) => (
                <li
                  key={m.id}
                  data-from={m.from}
                  className={cn('flex flex-col gap-0.5', m.from === 'you' ? 'items-end' : 'items-start')}
                >
                  <span className="text-[0.7rem] text-muted-foreground">
                    {m.from === 'you' ? 'You' : 'Simulated reply'} ·{' '}
                    <time dateTime={new Date(m.ts).toISOString()}>
                      {formatClock(new Date(m.ts).toISOString())}
                    </time>
                  </span>
                  <p
                    className={cn(
                      'max-w-[85%] rounded-lg border px-3 py-1.5 text-sm break-words whitespace-pre-wrap',
                      m.from === 'you' ? 'bg-secondary' : 'border-dashed text-muted-foreground',
                    )}
                  >
                    {m.text}
                  </p>
                </li>
              ))}
            </ol>
          </div>
        )}
        <form onSubmit={submit} className="flex gap-2" aria-label="Family chat message">
          <Input
            aria-label="Message"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="Write to the family chat (local only)"
            autoComplete="off"
          />
          <Button type="submit" disabled={draft.trim() === ''}>
            <SendHorizontal />
            Send
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
