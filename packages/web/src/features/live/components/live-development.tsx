import { useLayoutEffect, useRef } from 'react';
import { Radio } from 'lucide-react';
import { LIVE_VIEWER_SHOW, STAGE_LABELS, type LiveMessage, type Stage } from '@forge/shared';
import { useLiveBuild } from '@/lib/live-store.ts';
import { useProject } from '@/lib/project-context.tsx';
import { useLatestBuild } from '@/features/blueprint/queries.ts';
import { cn } from '@/lib/utils.ts';
import { Badge, type BadgeProps } from '@/components/ui/badge.tsx';

/** Stage badge tone: status colours only for status (ARCHITECTURE §6). */
export function stageTone(stage: Stage): BadgeProps['variant'] {
  switch (stage) {
    case 'build-success':
    case 'no-build-needed':
    case 'integration-available':
      return 'online';
    case 'build-failed':
    case 'build-timeout':
      return 'error';
    case 'idle':
      return 'outline';
    default:
      return 'pending';
  }
}

/** One line saying what a live message was about. */
export function describeLiveMessage(message: LiveMessage): string {
  switch (message.type) {
    case 'rapid-build-start':
      return 'Build started';
    case 'bot-assigned':
      return `${message.botName ?? 'A bot'} assigned`;
    case 'build-stage':
      return message.stage ? STAGE_LABELS[message.stage] : 'Stage changed';
    case 'build-output':
    case 'build-error': {
      const lines = (message.output ?? '').split('\n').filter(Boolean);
      const last = lines.at(-1) ?? '';
      return lines.length > 1 ? `${last} (+${lines.length - 1} lines)` : last;
    }
    case 'build_complete':
      return `Output ready: ${message.buildOutput?.files.length ?? 0} files`;
    case 'log':
      return message.botName ? `${message.botName}: ${message.message ?? ''}` : (message.message ?? '');
    default:
      return message.message ?? message.type;
  }
}

const timeOf = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour12: false });
};

/**
 * The Live Development viewer (spec §2.7): the build being watched — project, stage, builder bots,
 * its output as it streams, and the last 10 build messages (50 are kept, spec §4).
 */
export function LiveDevelopment({ className }: { className?: string }) {
  const live = useLiveBuild();
  const { builderBots, messages, output } = live;
  // Before any live message (a fresh page), show where the selected project's last build ended.
  const { project } = useProject();
  const latest = useLatestBuild(live.projectName ? null : project);
  const projectName = live.projectName ?? (latest.data ? project : null);
  const stage = live.projectName ? live.stage : (latest.data?.stage ?? live.stage);
  const recent = messages.slice(-LIVE_VIEWER_SHOW).reverse();

  const outputRef = useRef<HTMLPreElement>(null);
  useLayoutEffect(() => {
    const pre = outputRef.current;
    if (pre) pre.scrollTop = pre.scrollHeight;
  }, [output]);

  return (
    <section
      aria-label="Live Development"
      className={cn('flex flex-col gap-3 rounded-lg border bg-card p-3 text-card-foreground', className)}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Radio aria-hidden="true" className="size-4 text-muted-foreground" />
        <h3 className="text-sm font-semibold">Live Development</h3>
        <div className="ml-auto flex flex-wrap items-center gap-1.5">
          <Badge
            variant="secondary"
            aria-label={`Project: ${projectName ?? 'none'}`}
            className="max-w-48 truncate"
          >
            {projectName ?? 'No project'}
          </Badge>
          <Badge variant={stageTone(stage)} aria-label={`Stage: ${STAGE_LABELS[stage]}`}>
            {STAGE_LABELS[stage]}
          </Badge>
        </div>
      </div>

      <div className="flex flex-col gap-1">
        <h4 className="text-xs font-medium text-muted-foreground">Builder bots</h4>
        {builderBots.length === 0 ? (
          <p className="text-xs text-muted-foreground">None assigned yet.</p>
        ) : (
          <ul aria-label="Builder bots" className="flex flex-wrap gap-1">
            {builderBots.map((bot) => (
              <li key={bot}>
                <Badge variant="outline">{bot}</Badge>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="flex flex-col gap-1">
        <h4 className="text-xs font-medium text-muted-foreground">Build output</h4>
        {output.length === 0 ? (
          <p className="text-xs text-muted-foreground">
            {messages.length === 0
              ? 'Output streams here while a build runs. Upload a project ZIP to start one.'
              : 'No command output in this build yet.'}
          </p>
        ) : (
          <pre
            ref={outputRef}
            aria-label="Build output"
            tabIndex={0}
            className="max-h-32 overflow-auto rounded-md bg-muted/60 p-2 font-mono text-[0.7rem] leading-4 whitespace-pre-wrap break-words outline-none focus-visible:ring-2 focus-visible:ring-ring/60"
          >
            {output.join('\n')}
          </pre>
        )}
      </div>

      <div className="flex flex-col gap-1">
        <h4 className="text-xs font-medium text-muted-foreground">
          Recent messages{messages.length > 0 ? ` (last ${recent.length} of ${messages.length})` : ''}
        </h4>
        {recent.length === 0 ? (
          <p className="text-xs text-muted-foreground">No build messages yet.</p>
        ) : (
          <ol aria-label="Recent build messages" className="flex flex-col gap-0.5 text-xs">
            {recent.map((message, index) => (
              <li
                key={`${messages.length - index}`}
                data-type={message.type}
                className={cn(
                  'flex gap-2',
                  message.type === 'build-error' && 'text-pending',
                  message.type === 'build_complete' && 'text-online',
                )}
              >
                <time
                  dateTime={message.timestamp}
                  className="shrink-0 font-mono text-muted-foreground tabular-nums"
                >
                  {timeOf(message.timestamp)}
                </time>
                <span className="min-w-0 truncate" title={describeLiveMessage(message)}>
                  {describeLiveMessage(message)}
                </span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
