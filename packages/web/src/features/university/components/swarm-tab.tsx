import { RotateCw } from 'lucide-react';
import { POLL_MS, UI_TEXT } from '@forge/shared/schema-free';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { reasonOf, useBots } from '../queries.ts';
import { botTone, byCategory, swarmSummary } from '../swarm-status.ts';

/**
 * /university/bots: the swarm status (docs/product.md#other-screens) from the live fleet: GET /api/bots,
 * refreshed every 5 s, with `bot-status` pushes moving a bot's status and job at once.
 */
export function SwarmTab() {
  const bots = useBots();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Swarm status</CardTitle>
        <CardDescription>
          The bot fleet live: status, current job and work done, refreshed every {POLL_MS.botStatus / 1000} s.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {bots.isError && !bots.data ? (
          <div role="alert" className="flex flex-col items-start gap-2">
            <p className="text-sm">{UI_TEXT.botStatusFailed}</p>
            <p className="font-mono text-xs break-words text-error">{reasonOf(bots.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void bots.refetch()}>
              <RotateCw />
              Try again
            </Button>
          </div>
        ) : !bots.data ? (
          <div className="flex flex-col gap-2" aria-busy="true">
            <Skeleton className="h-5 w-80" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : (
          <>
            <p role="status" className="text-sm">
              {swarmSummary(bots.data)}
            </p>
            {byCategory(bots.data).map((group) => (
              <section key={group.category} aria-label={group.category} className="flex flex-col gap-1">
                <h3 className="text-xs font-medium text-muted-foreground capitalize">{group.category}</h3>
                <ul className="divide-y rounded-md border">
                  {group.bots.map((bot) => (
                    <li
                      key={bot.name}
                      data-bot={bot.name}
                      className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2 text-sm"
                    >
                      <span className="flex min-w-0 flex-col">
                        <span className="font-medium">{bot.name}</span>
                        <span className="truncate text-xs text-muted-foreground">
                          {bot.currentJob ?? bot.lastJob?.summary ?? bot.lastJob?.label ?? bot.description}
                        </span>
                      </span>
                      <span className="flex items-center gap-3">
                        <span className="font-mono text-xs text-muted-foreground tabular-nums">
                          {bot.jobsRun} jobs · {bot.failures} failed
                        </span>
                        <Badge variant={botTone(bot)}>{bot.status}</Badge>
                      </span>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </>
        )}
      </CardContent>
    </Card>
  );
}
