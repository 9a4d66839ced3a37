import { UI_TEXT } from '@forge/shared';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Mono } from '@/components/layout/page.tsx';
import { useConnectionStatus } from '@/lib/socket.tsx';
import { useHealth } from '@/features/system/queries.ts';
import { cn } from '@/lib/utils.ts';

export function DaemonStatusCard() {
  const connected = useConnectionStatus() === 'connected';
  const health = useHealth();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Daemon</CardTitle>
        <CardDescription>The local Forge process that runs the bots.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        <div className="flex items-center justify-between gap-3">
          <span className="text-muted-foreground">Live socket</span>
          <span className="inline-flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className={cn('size-2 rounded-full', connected ? 'bg-online' : 'bg-error')}
            />
            {connected ? UI_TEXT.connected : UI_TEXT.disconnected}
          </span>
        </div>
        <div className="flex items-center justify-between gap-3">
          <span className="text-muted-foreground">Version</span>
          {health.data ? (
            <span className="font-mono">{health.data.version}</span>
          ) : health.isPending ? (
            <Skeleton className="h-4 w-12" />
          ) : (
            <span className="text-muted-foreground">unknown</span>
          )}
        </div>
        {connected ? null : (
          <p className="text-xs text-muted-foreground">
            Retrying every 3 s. If the daemon is stopped, start it with <Mono>forge daemon start</Mono>.
          </p>
        )}
      </CardContent>
    </Card>
  );
}
