import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Eraser, SquareTerminal } from 'lucide-react';
import type { LogEntry, LogFilter, LogLevel } from '@forge/shared';
import { DEFAULT_LOG_FILTER, formatClock, LOG_FILTERS, matchesLogFilter } from '@forge/shared/schema-free';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState, Mono } from '@/components/layout/page.tsx';

const LEVEL_CLASS: Record<LogLevel, string> = {
  error: 'text-error',
  warn: 'text-pending',
  success: 'text-online',
  info: 'text-muted-foreground',
};

function LogLine({ entry }: { entry: LogEntry }) {
  return (
    <li
      data-level={entry.level}
      // Narrow screens put the message on its own row under time, level and bot.
      className="grid grid-cols-[4.5rem_3.75rem_minmax(0,1fr)] gap-x-2 px-3 py-0.5 hover:bg-accent/40 sm:grid-cols-[4.5rem_3.75rem_9rem_minmax(0,1fr)]"
    >
      <time dateTime={entry.timestamp} className="text-muted-foreground tabular-nums">
        {formatClock(entry.timestamp)}
      </time>
      <span className={cn('uppercase', LEVEL_CLASS[entry.level])}>{entry.level}</span>
      <span className="truncate text-foreground/80" title={entry.botName}>
        {entry.botName}
      </span>
      <span className="col-span-full break-words whitespace-pre-wrap sm:col-span-1">{entry.message}</span>
    </li>
  );
}

/** How close to the bottom (px) still counts as "following" the log. */
const FOLLOW_SLACK_PX = 24;

/** The Console's Bot Logs tab: every log line of the fleet, newest last, following new lines. */
export function BotLogsPanel({ entries, onClear }: { entries: readonly LogEntry[]; onClear: () => void }) {
  const [filter, setFilter] = useState<LogFilter>(DEFAULT_LOG_FILTER);
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const shown = filter === 'all' ? entries : entries.filter((e) => matchesLogFilter(e.level, filter));

  // Keep the newest line in view unless the user scrolled up to read.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [shown.length]);
  useEffect(() => {
    following.current = true;
  }, [filter]);

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="group" aria-label="Level" className="flex flex-wrap gap-1">
          {LOG_FILTERS.map((f) => (
            <Button
              key={f}
              size="sm"
              variant={f === filter ? 'secondary' : 'ghost'}
              aria-pressed={f === filter}
              className={cn('capitalize', f !== filter && 'text-muted-foreground')}
              onClick={() => setFilter(f)}
            >
              {f}
            </Button>
          ))}
        </div>
        <div className="flex items-center gap-2">
          <span
            className="text-xs text-muted-foreground tabular-nums"
            aria-live="polite"
            data-testid="log-count"
          >
            {filter === 'all' ? '' : `${shown.length} of `}
            {entries.length} {entries.length === 1 ? 'line' : 'lines'}
          </span>
          <Button variant="outline" size="sm" disabled={entries.length === 0} onClick={onClear}>
            <Eraser />
            Clear logs
          </Button>
        </div>
      </div>
      {shown.length === 0 ? (
        <EmptyState
          icon={SquareTerminal}
          title={entries.length === 0 ? 'No log lines yet' : `No ${filter} lines`}
        >
          {entries.length === 0 ? (
            <>
              Lines from every bot stream here live while they work. Upload a project, press Build on a bot in
              the Bot Factory, or run <Mono>forge build</Mono>.
            </>
          ) : (
            'Pick another level to see the other lines.'
          )}
        </EmptyState>
      ) : (
        <div
          ref={scroller}
          tabIndex={0}
          role="log"
          aria-label="Bot logs"
          onScroll={(e) => {
            const el = e.currentTarget;
            following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK_PX;
          }}
          className="min-h-64 flex-1 overflow-auto rounded-md border bg-card py-1 font-mono text-xs leading-relaxed outline-none focus-visible:ring-2 focus-visible:ring-ring/60"
        >
          <ol>
            {shown.map((entry) => (
              <LogLine key={entry.id} entry={entry} />
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}
