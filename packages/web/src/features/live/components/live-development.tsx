import { useLayoutEffect, useMemo, useRef } from 'react';
import { Radio } from 'lucide-react';
import type { ClientState, LiveMessage, Stage } from '@forge/shared';
import {
  formatClock,
  LIVE_VIEWER_SHOW,
  sanitizeLine,
  splitLines,
  STAGE_LABELS,
  buildStateLabel,
} from '@forge/shared/schema-free';
import { useClientState } from '@/lib/live-store.ts';
import { useProject } from '@/lib/project-context.tsx';
import { stageTone } from '@/features/builds/build-state.ts';
import { useBuildLogTail, useLatestBuild } from '@/features/builds/queries.ts';
import { LazyBuildFailure } from '@/features/builds/components/build-failure-lazy.tsx';
import { BuildVerdict } from '@/features/builds/components/build-verdict.tsx';
import { BuildWorker } from '@/features/builds/components/build-worker.tsx';
import { cn } from '@/lib/utils.ts';
import { Badge } from '@/components/ui/badge.tsx';

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
      const lines = splitLines(message.output ?? '').filter(Boolean);
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

/** Lines of the build's log the output pane shows (the newest). */
export const LIVE_OUTPUT_SHOW = 200;

const selectActive = (state: ClientState) =>
  state.activeBuildId === null ? null : (state.builds[state.activeBuildId] ?? null);
const selectViewer = (state: ClientState) => state.viewer;

/**
 * The Live Development viewer (docs/product.md#dashboard-widgets): the build being watched — project, stage,
 * where it runs (the daemon or a `forge worker`), builder bots, its log as it streams, and the last 10 build
 * messages (50 are kept, docs/product.md#live-state). The build is the one the newest build message was
 * about; before any (a fresh page), the selected project's last build. Both are the client model's view, so
 * the stage here is the one every other panel shows. A failed build says why under its stage badge, its first
 * error line first (BuildFailure).
 */
export function LiveDevelopment({ className }: { className?: string }) {
  const { project } = useProject();
  const active = useClientState(selectActive);
  const latest = useLatestBuild(project);
  const messages = useClientState(selectViewer);
  const view = active ?? latest.view;
  const projectName = view?.build.projectName || null;
  const stage: Stage = view?.build.stage ?? 'idle';
  const stateLabel = buildStateLabel(view?.build.status ?? null, stage);
  // Known from /ws as they are assigned; for a build read from its record, the bots of its steps.
  const builderBots = useMemo(
    () =>
      !view
        ? []
        : view.builderBots.length
          ? view.builderBots
          : [...new Set(view.build.steps.map((s) => s.botName))],
    [view],
  );
  useBuildLogTail(view, LIVE_OUTPUT_SHOW);
  const lines = view?.log.lines;
  const output = useMemo(
    () => (lines ?? []).slice(-LIVE_OUTPUT_SHOW).map((line) => sanitizeLine(line.text)),
    [lines],
  );
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
          <Badge variant={stageTone(stage)} aria-label={`Stage: ${stateLabel}`}>
            {stateLabel}
          </Badge>
          {view ? <BuildWorker build={view.build} /> : null}
          {view ? <BuildVerdict build={view.build} /> : null}
        </div>
      </div>

      {view ? <LazyBuildFailure build={view.build} project={project} /> : null}

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
                  {formatClock(message.timestamp)}
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
