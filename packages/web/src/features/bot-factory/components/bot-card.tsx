import { CircleCheck, CircleX, Hammer, Wrench } from 'lucide-react';
import type { BotButton } from '@forge/shared';
import { BOT_BUTTONS, formatLocalTime } from '@forge/shared/schema-free';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatAgo, STATUS_HINTS, statusTone, type BotCard as BotCardModel } from '../bot-cards.ts';
import { useBotAction } from '../queries.ts';

/** What the bot last did: its result (or the job's label), whether it went well, and how long ago. */
function LastJob({ lastJob, now }: { lastJob: NonNullable<BotCardModel['lastJob']>; now: number }) {
  const Icon = lastJob.ok ? CircleCheck : CircleX;
  return (
    <p className="flex items-start gap-1.5 text-xs" aria-label="Last job">
      <Icon
        aria-label={lastJob.ok ? 'Succeeded' : 'Failed'}
        className={`mt-px size-3.5 shrink-0 ${lastJob.ok ? 'text-online' : 'text-error'}`}
      />
      <span className="min-w-0 break-words">
        <span className="text-foreground">{lastJob.summary ?? lastJob.label}</span>{' '}
        <time
          dateTime={lastJob.at}
          title={formatLocalTime(lastJob.at)}
          className="whitespace-nowrap text-muted-foreground"
        >
          · {formatAgo(lastJob.at, now)}
        </time>
      </span>
    </p>
  );
}

/** The title of a card's button: what it does, or why it is disabled. */
const buttonTitle = (button: BotButton | undefined): string | undefined =>
  button ? ('disabled' in button ? `Disabled: ${button.disabled}` : button.does) : undefined;

/**
 * One bot: live status, what it does, what it last did, its current job and record, and its two
 * actions. `now` moves the "3 min ago" along.
 */
export function BotCard({ bot, loading, now }: { bot: BotCardModel; loading: boolean; now: number }) {
  const build = useBotAction('build', bot.name);
  const fix = useBotAction('fix', bot.name);
  const busy = build.isPending || fix.isPending;
  const buttons = BOT_BUTTONS[bot.name];
  const buildOff = buttons !== undefined && 'disabled' in buttons.build;
  const fixOff = buttons !== undefined && 'disabled' in buttons.fix;
  return (
    <Card role="listitem" aria-label={bot.name} className="justify-between">
      <CardHeader className="flex-row items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-1">
          <CardTitle className="truncate font-mono">{bot.name}</CardTitle>
          <span className="text-xs text-muted-foreground capitalize">{bot.category}</span>
        </div>
        {bot.status !== null ? (
          <Badge variant={statusTone(bot.status)} data-testid="bot-status" title={STATUS_HINTS[bot.status]}>
            {bot.status}
          </Badge>
        ) : loading ? (
          <Skeleton className="h-5 w-14" />
        ) : (
          <Badge variant="outline" className="text-muted-foreground" data-testid="bot-status">
            unknown
          </Badge>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-2 pt-2 pb-3 text-sm">
        <p className="text-muted-foreground">{bot.description}</p>
        {bot.lastJob ? (
          <LastJob lastJob={bot.lastJob} now={now} />
        ) : bot.status !== null ? (
          <p className="text-xs text-muted-foreground" aria-label="Last job">
            No job yet.
          </p>
        ) : null}
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
          <dt className="text-muted-foreground">Current job</dt>
          <dd className="truncate font-mono" title={bot.currentJob ?? undefined}>
            {bot.currentJob ?? (bot.status === null ? '—' : 'none')}
          </dd>
          <dt className="text-muted-foreground">Jobs run</dt>
          <dd className="font-mono tabular-nums">{bot.jobsRun ?? '—'}</dd>
          <dt className="text-muted-foreground">Failures</dt>
          <dd className="font-mono tabular-nums">{bot.failures ?? '—'}</dd>
        </dl>
      </CardContent>
      <CardFooter className="gap-2">
        {/* A disabled button takes no pointer events: its wrapper carries the reason as a tooltip. */}
        <span title={buttonTitle(buttons?.build)}>
          <Button
            variant="outline"
            size="sm"
            disabled={busy || buildOff}
            title={buttonTitle(buttons?.build)}
            onClick={() => build.mutate()}
          >
            <Hammer />
            Build
          </Button>
        </span>
        <span title={buttonTitle(buttons?.fix)}>
          <Button
            variant="outline"
            size="sm"
            disabled={busy || fixOff}
            title={buttonTitle(buttons?.fix)}
            onClick={() => fix.mutate()}
          >
            <Wrench />
            Fix
          </Button>
        </span>
      </CardFooter>
    </Card>
  );
}
