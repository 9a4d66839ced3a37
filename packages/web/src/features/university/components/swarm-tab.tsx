import { RotateCw } from 'lucide-react';
import { activityTone, UI_TEXT } from '@forge/shared';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { reasonOf, useBotActivity } from '../queries.ts';
import { swarmSummary } from '../swarm-status.ts';

/** /university/bots: the swarm status (spec §2.8), refreshed every 5 s. */
export function SwarmTab() {
  const status = useBotActivity();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Swarm status</CardTitle>
        <CardDescription>The bot fleet by category, refreshed every 5 s.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {status.isPending ? (
          <div className="flex flex-col gap-2" aria-busy="true">
            <Skeleton className="h-5 w-80" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : status.isError ? (
          <div role="alert" className="flex flex-col items-start gap-2">
            <p className="text-sm">{UI_TEXT.botStatusFailed}</p>
            <p className="font-mono text-xs break-words text-error">{reasonOf(status.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void status.refetch()}>
              <RotateCw />
              Try again
            </Button>
          </div>
        ) : (
          <>
            <p role="status" className="text-sm">
              {swarmSummary(status.data)}
            </p>
            <ul className="divide-y rounded-md border" aria-label="Categories">
              {status.data.activities.map((a) => (
                <li key={a.type} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                  <span className="capitalize">{a.type}</span>
                  <span className="flex items-center gap-3">
                    <span className="font-mono text-xs text-muted-foreground tabular-nums">
                      {a.count} available
                    </span>
                    <Badge variant={activityTone(a.status)}>{a.status}</Badge>
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}
