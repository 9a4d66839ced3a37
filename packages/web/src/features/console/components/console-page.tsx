import { useState } from 'react';
import { useLogEntries } from '@/lib/live-store.ts';
import { cn } from '@/lib/utils.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { useConnectionStatus } from '@/lib/socket.tsx';
import { PageFrame } from '@/components/layout/page.tsx';
import { useForgeChat } from '../forge-chat.ts';
import { BotLogsPanel } from './bot-logs-panel.tsx';
import { ChatPanel } from './chat-panel.tsx';

type ConsoleTab = 'logs' | 'chat';

export function ConsolePage() {
  const [tab, setTab] = useState<ConsoleTab>('logs');
  const { entries, clear } = useLogEntries();
  // Held here, not in the tab, so replies keep arriving while the Bot Logs tab is shown.
  const chat = useForgeChat();
  const connected = useConnectionStatus() === 'connected';

  return (
    <PageFrame
      title="Console"
      description="Every bot's log lines as they happen, and your chat with Forge."
      className="h-full min-h-[32rem]"
      actions={
        <Badge
          variant={connected ? 'online' : 'error'}
          title={connected ? 'Streaming live' : 'Reconnecting every 3 s'}
        >
          {connected ? 'Live' : 'Offline'}
        </Badge>
      }
    >
      <Tabs
        value={tab}
        onValueChange={(value) => setTab(value as ConsoleTab)}
        className="min-h-0 flex-1 gap-3"
      >
        <TabsList aria-label="Console">
          <TabsTrigger value="logs" className="px-3">
            Bot Logs
            <span
              aria-label={`${entries.length} log lines`}
              className={cn(
                'rounded bg-muted-foreground/15 px-1.5 font-mono text-[0.7rem] tabular-nums',
                entries.length === 0 && 'opacity-60',
              )}
            >
              {entries.length}
            </span>
          </TabsTrigger>
          <TabsTrigger value="chat" className="px-3">
            Chat
          </TabsTrigger>
        </TabsList>
        <TabsContent value="logs" className="flex min-h-0 flex-col">
          <BotLogsPanel entries={entries} onClear={clear} />
        </TabsContent>
        <TabsContent value="chat" className="flex min-h-0 flex-col">
          <ChatPanel lines={chat.lines} sending={chat.sending} onSend={chat.send} />
        </TabsContent>
      </Tabs>
    </PageFrame>
  );
}
