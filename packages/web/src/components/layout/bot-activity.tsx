import { UI_TEXT } from '@forge/shared/schema-free';
import { cn } from '@/lib/utils.ts';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { TONE_DOT, TONE_TEXT, useBotStatus, type BotStatusView } from './bot-status.ts';

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The nav badge: how many bots are online. Reads the polled status; shows a dash until known. */
export function OnlineBotsBadge({ className }: { className?: string }) {
  const { data, isError } = useBotStatus();
  const known = data && !isError;
  return (
    <span
      data-testid="online-bots-badge"
      aria-label={known ? `${data.online} bots online` : 'Bots online unknown'}
      className={cn(
        'inline-flex min-w-5 items-center justify-center rounded-full border px-1.5 font-mono text-[11px] leading-4 tabular-nums',
        known && data.online > 0
          ? 'border-online/30 bg-online/10 text-online'
          : 'border-error/30 bg-error/10 text-error',
        className,
      )}
    >
      {known ? data.online : '–'}
    </span>
  );
}

function ActivityRows({ view }: { view: BotStatusView }) {
  if (view.activities.length === 0) {
    return <p className="px-2 py-1 text-xs text-muted-foreground">No bot activity reported.</p>;
  }
  return (
    <ul className="flex flex-col gap-0.5" aria-label="Bot Activity">
      {view.activities.map((activity) => (
        <li
          key={activity.type}
          data-tone={activity.tone}
          className="flex items-center gap-2 rounded-md px-2 py-1 text-xs"
        >
          <span
            aria-hidden="true"
            className={cn('size-1.5 shrink-0 rounded-full', TONE_DOT[activity.tone])}
          />
          <span className="min-w-0 flex-1 truncate">{capitalize(activity.type)}</span>
          <span className="font-mono text-muted-foreground tabular-nums">{activity.count}</span>
          <span className={cn('w-12 text-right', TONE_TEXT[activity.tone])}>
            {view.allInactive ? 'error' : activity.status}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The Bot Activity list (docs/product.md#routes-and-navigation): type, count, status, coloured online green,
 * pending yellow, anything else red. A failed poll says so in place (docs/product.md#error-texts) instead of
 * raising a notice every 5 s.
 */
export function BotActivityList({ className }: { className?: string }) {
  const { data, isError, isPending } = useBotStatus();
  return (
    <div className={cn('flex flex-col', className)} aria-busy={isPending || undefined}>
      {isError ? (
        <p role="alert" className="px-2 py-1 text-xs text-error">
          {UI_TEXT.botStatusFailed}
        </p>
      ) : data ? (
        <ActivityRows view={data} />
      ) : (
        <div className="flex flex-col gap-1.5 px-2 py-1">
          <Skeleton className="h-3.5 w-full" />
          <Skeleton className="h-3.5 w-full" />
          <Skeleton className="h-3.5 w-full" />
          <Skeleton className="h-3.5 w-full" />
        </div>
      )}
    </div>
  );
}
