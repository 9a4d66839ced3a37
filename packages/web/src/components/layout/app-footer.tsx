import type { ReactNode } from 'react';
import { FOOTER_TEXT, TOTAL_BOTS, UI_TEXT } from '@forge/shared/schema-free';
import { useConnectionStatus } from '@/lib/socket.tsx';
import { cn } from '@/lib/utils.ts';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';
import { useBrainStatus } from '@/features/brain/queries.ts';
import { useDaemonState } from '@/features/system/queries.ts';
import { TONE_DOT, useBotStatus, type ActivityTone } from './bot-status.ts';

function FooterItem({ tone, label, children }: { tone: ActivityTone; label: string; children: ReactNode }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span
          tabIndex={0}
          data-tone={tone}
          className="inline-flex shrink-0 items-center gap-1.5 rounded-sm px-1 whitespace-nowrap outline-none focus-visible:ring-2 focus-visible:ring-ring/60"
        >
          <span aria-hidden="true" className={cn('size-1.5 rounded-full', TONE_DOT[tone])} />
          {/* Phones get the dots; the words stay for screen readers and in the tooltip. */}
          <span className="max-sm:sr-only">{label}</span>
        </span>
      </TooltipTrigger>
      <TooltipContent side="top">
        <span className="font-medium sm:hidden">{label}: </span>
        {children}
      </TooltipContent>
    </Tooltip>
  );
}

/**
 * The footer (docs/product.md#dashboard): bot activity, bridge, connection, brain active, and the fixed
 * "SLLS 85%". Every item but the last is live: bots from the status poll, bridge from the daemon's
 * health answer, connection from the socket, brain from its status route.
 */
export function AppFooter() {
  const bots = useBotStatus();
  const { state: bridge, health } = useDaemonState();
  const connected = useConnectionStatus() === 'connected';
  const brain = useBrainStatus();

  const botTone: ActivityTone = bots.isError ? 'error' : bots.data ? bots.data.tone : 'pending';
  const botLabel = bots.isError
    ? 'Bots unknown'
    : bots.data
      ? `Bots ${bots.data.online}/${TOTAL_BOTS}`
      : 'Bots …';
  const bridgeTone: ActivityTone =
    bridge === 'operational' ? 'online' : bridge === 'checking' ? 'pending' : 'error';
  const brainTone: ActivityTone = brain.isSuccess ? 'online' : brain.isError ? 'error' : 'pending';

  return (
    <footer
      aria-label="Status"
      className="flex h-6 shrink-0 items-center gap-2 overflow-hidden border-t bg-sidebar px-2 text-[11px] text-muted-foreground sm:gap-3 sm:px-3"
    >
      <FooterItem tone={botTone} label={botLabel}>
        {bots.isError
          ? UI_TEXT.botStatusFailed
          : bots.data?.allInactive
            ? 'Every bot is reported inactive.'
            : 'Bots online (not in error), from the status polled every 5 s.'}
      </FooterItem>
      <FooterItem tone={bridgeTone} label={bridge === 'operational' ? 'Bridge up' : `Bridge ${bridge}`}>
        {bridge === 'operational'
          ? `The Forge daemon answers (version ${health.data?.version ?? '?'}).`
          : bridge === 'checking'
            ? 'Checking the Forge daemon…'
            : 'The Forge daemon does not answer.'}
      </FooterItem>
      <FooterItem
        tone={connected ? 'online' : 'error'}
        label={connected ? UI_TEXT.connected : UI_TEXT.disconnected}
      >
        {connected ? 'The live socket is open.' : 'The live socket is closed; retrying every 3 s.'}
      </FooterItem>
      <FooterItem
        tone={brainTone}
        label={brain.isSuccess ? 'Brain active' : brain.isError ? 'Brain offline' : 'Brain …'}
      >
        {brain.isError
          ? `The brain does not answer: ${brain.error.message}`
          : brain.data?.authenticated
            ? 'The brain answers; this session is authenticated.'
            : 'The brain answers.'}
      </FooterItem>
      {health.data ? (
        <span className="ml-auto hidden shrink-0 sm:inline">
          Forge <span className="font-mono">{health.data.version}</span>
        </span>
      ) : null}
      <span className={cn('shrink-0 font-mono', !health.data && 'ml-auto')}>{FOOTER_TEXT}</span>
    </footer>
  );
}
