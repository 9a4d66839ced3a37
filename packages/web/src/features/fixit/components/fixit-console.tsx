import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Download, Eraser, Wrench } from 'lucide-react';
import type { LogFilter, LogLevel } from '@forge/shared';
import {
  CONSOLE_PANEL_HEIGHT,
  formatClock,
  DEFAULT_LOG_FILTER,
  LOG_FILTERS,
  matchesLogFilter,
} from '@forge/shared/schema-free';
import { useLogEntries } from '@/lib/live-store.ts';
import { useConnectionStatus } from '@/lib/socket.tsx';
import { cn } from '@/lib/utils.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { downloadLogs } from '../log-export.ts';
import { FixItReport } from './fixit-report.tsx';

const FILTER_LABELS: Record<LogFilter, string> = {
  all: 'All',
  error: 'Error',
  warn: 'Warn',
  success: 'Success',
  info: 'Info',
};

const LEVEL_TONE: Record<LogLevel, string> = {
  error: 'text-error',
  warn: 'text-pending',
  success: 'text-online',
  info: 'text-muted-foreground',
};

/** Distance from the bottom (px) within which the list keeps following new lines. */
const FOLLOW_SLACK_PX = 24;

/**
 * The repair console (docs/product.md#fixit-console): every log line of the app, live, filterable by level,
 * clearable, exportable as a dated .txt. The list follows new lines while it is scrolled to the bottom and
 * stays put while the user reads further up. Above it, when the selected project's last build failed or was
 * repaired: ScanBot's diagnosis and RepairBot's repairs (FixItReport).
 */
export function FixItConsole({ className }: { className?: string }) {
  const { entries, clear } = useLogEntries();
  const connected = useConnectionStatus() === 'connected';
  const [filter, setFilter] = useState<LogFilter>(DEFAULT_LOG_FILTER);

  const shown = useMemo(() => entries.filter((e) => matchesLogFilter(e.level, filter)), [entries, filter]);
  const counts = useMemo(() => {
    const byLevel: Record<LogFilter, number> = {
      all: entries.length,
      error: 0,
      warn: 0,
      success: 0,
      info: 0,
    };
    for (const e of entries) byLevel[e.level] += 1;
    return byLevel;
  }, [entries]);

  const listRef = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list && following.current) list.scrollTop = list.scrollHeight;
  }, [shown]);

  return (
    <section
      aria-label="FixIt Console"
      className={cn('flex flex-col rounded-lg border bg-card text-card-foreground', className)}
    >
      <div className="flex items-center gap-2 border-b py-1.5 pr-1.5 pl-3">
        <Wrench aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
        <h3 className="truncate text-sm font-semibold">FixIt Console</h3>
        <Badge
          variant={connected ? 'online' : 'outline'}
          className={cn(!connected && 'text-muted-foreground')}
          title={
            connected
              ? 'Lines stream in as they happen.'
              : 'No live connection: new lines arrive once it is back.'
          }
        >
          <span
            aria-hidden="true"
            className={cn('size-1.5 rounded-full', connected ? 'bg-online' : 'bg-muted-foreground')}
          />
          Live
        </Badge>
        <div className="ml-auto flex shrink-0 items-center gap-0.5">
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            onClick={clear}
            disabled={entries.length === 0}
            aria-label="Clear logs"
            title="Clear logs"
          >
            <Eraser />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="size-7"
            onClick={() => downloadLogs(shown)}
            disabled={shown.length === 0}
            aria-label="Export logs"
            title="Export the lines shown as a .txt file"
          >
            <Download />
          </Button>
        </div>
      </div>
      <FixItReport />
      <div role="group" aria-label="Filter by level" className="flex flex-wrap gap-0.5 border-b px-2 py-1">
        {LOG_FILTERS.map((f) => (
          <Button
            key={f}
            variant={filter === f ? 'secondary' : 'ghost'}
            size="sm"
            aria-pressed={filter === f}
            onClick={() => setFilter(f)}
            className="h-6 gap-1 px-1.5 text-xs"
          >
            {FILTER_LABELS[f]}
            <span aria-hidden="true" className="font-mono text-[0.7rem] text-muted-foreground tabular-nums">
              {counts[f]}
            </span>
          </Button>
        ))}
      </div>
      <div
        ref={listRef}
        role="log"
        aria-label="Log lines"
        // A build prints hundreds of lines a second: announcing each would drown a screen reader.
        aria-live="off"
        tabIndex={0}
        style={{ height: CONSOLE_PANEL_HEIGHT }}
        className="overflow-y-auto px-3 py-1.5 font-mono text-xs leading-5 outline-none focus-visible:ring-2 focus-visible:ring-ring/60"
        onScroll={(event) => {
          const el = event.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK_PX;
        }}
      >
        {shown.length === 0 ? (
          <p className="py-6 text-center font-sans text-muted-foreground">
            {entries.length === 0
              ? 'No log lines yet. Build output, stage changes and bot messages appear here as they happen.'
              : `No ${filter} lines.`}
          </p>
        ) : (
          <ul>
            {shown.map((entry) => (
              // One flowing line: a long message wraps under its metadata, not into a thin column.
              <li key={entry.id} data-level={entry.level} className="break-words whitespace-pre-wrap">
                <time dateTime={entry.timestamp} className="text-muted-foreground/70 tabular-nums">
                  {formatClock(entry.timestamp)}
                </time>{' '}
                <span className={cn('uppercase', LEVEL_TONE[entry.level])}>{entry.level}</span>{' '}
                <span className="text-muted-foreground">{entry.botName}</span>{' '}
                <span className="text-foreground">{entry.message}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
