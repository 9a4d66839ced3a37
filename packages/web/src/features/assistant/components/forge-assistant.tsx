import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Anvil, Loader2, Send, X } from 'lucide-react';
import type { AssistantChatMessage } from '@forge/shared';
import { forgeClient } from '@/lib/api.ts';
import { useProject } from '@/lib/project-context.tsx';
import { useConnectionStatus } from '@/lib/socket.tsx';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';
import { HELP_TEXT, runAssistantCommand } from '../commands.ts';

let nextId = 0;
const message = (type: AssistantChatMessage['type'], content: string): AssistantChatMessage => ({
  id: `assistant-${++nextId}`,
  type,
  content,
  timestamp: new Date().toISOString(),
});

/**
 * The Forge assistant (docs/product.md#dashboard-widgets): a floating chat panel whose messages become daemon
 * calls by keyword (../commands.ts). Disabled while a command runs and while the live connection is down;
 * empty input is not sent. Closing only hides it, so the conversation is still there when reopened.
 */
export function ForgeAssistant({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const connected = useConnectionStatus() === 'connected';
  const { project } = useProject();
  const [messages, setMessages] = useState<AssistantChatMessage[]>(() => [message('bot', HELP_TEXT)]);
  const [input, setInput] = useState('');
  const [running, setRunning] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const titleId = useId();
  const disabled = running || !connected;

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages, running]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const text = input.trim();
    if (!text || disabled) return;
    setInput('');
    setMessages((m) => [...m, message('user', text)]);
    setRunning(true);
    const { reply } = await runAssistantCommand(forgeClient, text, project);
    setMessages((m) => [...m, message('bot', reply)]);
    setRunning(false);
    // The input was disabled while the command ran; give the keyboard back for the next one.
    requestAnimationFrame(() => inputRef.current?.focus());
  };

  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      hidden={!open}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onOpenChange(false);
      }}
      className="fixed right-4 bottom-4 z-40 flex h-[28rem] max-h-[calc(100dvh-2rem)] w-[22rem] max-w-[calc(100vw-2rem)] flex-col rounded-lg border bg-popover text-popover-foreground shadow-lg"
    >
      <div className="flex items-center gap-2 border-b px-3 py-2">
        <Anvil aria-hidden="true" className="size-4 text-brand" />
        <h2 id={titleId} className="text-sm font-semibold">
          Forge assistant
        </h2>
        <Button
          variant="ghost"
          size="icon"
          className="ml-auto size-7"
          aria-label="Close the Forge assistant"
          onClick={() => onOpenChange(false)}
        >
          <X />
        </Button>
      </div>
      <ol
        ref={listRef}
        aria-label="Conversation"
        className="flex flex-1 flex-col gap-2 overflow-y-auto px-3 py-2 text-sm"
      >
        {messages.map((m) => (
          <li
            key={m.id}
            data-type={m.type}
            className={cn(
              'max-w-[85%] rounded-lg px-2.5 py-1.5 whitespace-pre-wrap break-words',
              m.type === 'user' ? 'self-end bg-primary text-primary-foreground' : 'self-start bg-muted',
            )}
          >
            {m.content}
          </li>
        ))}
        {running ? (
          <li
            className="inline-flex items-center gap-1.5 self-start text-xs text-muted-foreground"
            aria-live="polite"
          >
            <Loader2 aria-hidden="true" className="size-3.5 animate-spin" />
            Working…
          </li>
        ) : null}
      </ol>
      {connected ? null : (
        <p role="note" className="border-t px-3 py-1.5 text-xs text-muted-foreground">
          No live connection to the Forge daemon. The assistant works again once it reconnects.
        </p>
      )}
      <form onSubmit={(event) => void send(event)} className="flex items-center gap-2 border-t p-2">
        <input
          ref={inputRef}
          value={input}
          onChange={(event) => setInput(event.target.value)}
          disabled={disabled}
          aria-label="Message to Forge"
          placeholder={connected ? 'Try "status" or "blueprint"' : 'Waiting for the connection…'}
          className="h-8 min-w-0 flex-1 rounded-md border border-input bg-transparent px-2.5 text-sm outline-none placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring/60 disabled:opacity-50"
        />
        <Button type="submit" size="icon" aria-label="Send" disabled={disabled || input.trim() === ''}>
          <Send />
        </Button>
      </form>
    </div>
  );
}
