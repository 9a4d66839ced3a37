import { UI_TEXT } from '@forge/shared/schema-free';
import { useConnectionStatus } from '@/lib/socket.tsx';
import { cn } from '@/lib/utils.ts';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';

/** The live socket's state (docs/product.md#dashboard): green dot "Connected", red dot "Disconnected". */
export function ConnectionIndicator({ className }: { className?: string }) {
  const connected = useConnectionStatus() === 'connected';
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span
          role="status"
          aria-live="polite"
          tabIndex={0}
          data-status={connected ? 'connected' : 'disconnected'}
          className={cn(
            'inline-flex items-center gap-1.5 rounded-md px-1.5 py-0.5 text-xs text-muted-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring/60',
            className,
          )}
        >
          <span
            aria-hidden="true"
            className={cn('size-2 rounded-full', connected ? 'bg-online' : 'bg-error')}
          />
          {/* Only the dot on phones; the word stays for screen readers. */}
          <span className="max-sm:sr-only">{connected ? UI_TEXT.connected : UI_TEXT.disconnected}</span>
        </span>
      </TooltipTrigger>
      <TooltipContent side="bottom" align="end">
        {connected
          ? 'Live updates from the Forge daemon are streaming.'
          : 'No live connection to the Forge daemon; retrying every 3 s. Start it with `forge daemon start`.'}
      </TooltipContent>
    </Tooltip>
  );
}
