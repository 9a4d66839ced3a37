import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { MessagesSquare, RotateCw, SendHorizontal } from 'lucide-react';
import { formatClock } from '@forge/shared/schema-free';
import { useAuthToken } from '@/lib/auth.ts';
import { useSocket, useSocketMessages } from '@/lib/socket.tsx';
import { cn } from '@/lib/utils.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { EmptyState } from '@/components/layout/page.tsx';
import { Input } from '@/components/ui/input.tsx';
import {
  reasonOf,
  useAddFamilyMessages,
  useFamilyChat,
  useFamilySession,
  useSendFamilyMessage,
} from '../queries.ts';

/**
 * Signs the app's socket in as family (ClientMessage `family-auth`) while the chat is open, again
 * after every reconnect, and out when it closes; pushed `family-chat` messages join the history.
 * Returns the name the daemon accepted the connection as (null: refused; undefined: no answer yet).
 */
function useLiveFamilyChat(): string | null | undefined {
  const token = useAuthToken();
  const { status, send } = useSocket();
  const add = useAddFamilyMessages();
  const [liveAs, setLiveAs] = useState<string | null | undefined>(undefined);

  useEffect(() => {
    if (status !== 'connected' || !token) return;
    send({ type: 'family-auth', token });
    return () => {
      send({ type: 'family-auth', token: null });
    };
  }, [status, token, send]);

  useSocketMessages((message) => {
    if (message.type === 'family-auth') setLiveAs(message.name);
    else if (message.type === 'family-chat') add(message.message);
  });
  return status === 'connected' ? liveAs : undefined;
}

/**
 * /university/chat: the family chat, shared by every signed-in family member
 * (docs/decisions.md#the-university-authbot).
 */
export function FamilyChatTab() {
  const history = useFamilyChat();
  const me = useFamilySession();
  const sendMessage = useSendFamilyMessage();
  const liveAs = useLiveFamilyChat();
  const [draft, setDraft] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  const count = history.data?.length ?? 0;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [count]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text || sendMessage.isPending) return;
    sendMessage.mutate(text, { onSuccess: () => setDraft('') });
  };

  const myName = me.data?.name ?? liveAs ?? null;

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="flex flex-col gap-1">
          <CardTitle className="flex items-center gap-2">
            Family chat{' '}
            {typeof liveAs === 'string' ? (
              <Badge variant="online">Live</Badge>
            ) : (
              <Badge variant="outline">Not live</Badge>
            )}
          </CardTitle>
          <CardDescription>
            Every signed-in family member reads these messages; new ones arrive as they are sent.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {history.isPending ? (
          <div className="flex flex-col gap-2" aria-busy="true">
            <Skeleton className="h-8 w-2/3" />
            <Skeleton className="ml-auto h-8 w-1/2" />
          </div>
        ) : history.isError ? (
          <div role="alert" className="flex flex-col items-start gap-2">
            <p className="text-sm">Could not load the family chat.</p>
            <p className="font-mono text-xs break-words text-error">{reasonOf(history.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void history.refetch()}>
              <RotateCw />
              Try again
            </Button>
          </div>
        ) : history.data.length === 0 ? (
          <EmptyState icon={MessagesSquare} title="No messages yet" className="py-8">
            Write the first one below; every signed-in family member sees it.
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
              {history.data.map((m) => {
                const mine = m.from === myName;
                return (
                  <li
                    key={m.id}
                    data-from={m.from}
                    className={cn('flex flex-col gap-0.5', mine ? 'items-end' : 'items-start')}
                  >
                    <span className="text-[0.7rem] text-muted-foreground">
                      {mine ? 'You' : m.from} · <time dateTime={m.at}>{formatClock(m.at)}</time>
                    </span>
                    <p
                      className={cn(
                        'max-w-[85%] rounded-lg border px-3 py-1.5 text-sm break-words whitespace-pre-wrap',
                        mine && 'bg-secondary',
                      )}
                    >
                      {m.text}
                    </p>
                  </li>
                );
              })}
            </ol>
          </div>
        )}
        <form onSubmit={submit} className="flex gap-2" aria-label="Family chat message">
          <Input
            aria-label="Message"
            value={draft}
            maxLength={4000}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="Write to the family"
            autoComplete="off"
          />
          <Button type="submit" disabled={draft.trim() === '' || sendMessage.isPending}>
            <SendHorizontal />
            Send
          </Button>
        </form>
        {sendMessage.isError ? (
          <p role="alert" className="text-sm text-error">
            Message not sent: {reasonOf(sendMessage.error)}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
