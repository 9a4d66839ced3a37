import { Flame, LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import {
  FORGE_TOGGLE_DEFAULT,
  forgeOperationError,
  useForgeToggleState,
  useSetForgeToggle,
} from '../queries.ts';

/**
 * The right column's Auto-Forge button (docs/product.md#dashboard-widgets, docs/product.md#live-state):
 * starts on; a press shows a processing state and the button flips only once the daemon has answered. Same
 * flag as the header's forge toggle.
 */
export function AutoForgeToggle({ className }: { className?: string }) {
  const { data } = useForgeToggleState();
  const setToggle = useSetForgeToggle();
  const { toast } = useToast();
  const active = data?.active ?? FORGE_TOGGLE_DEFAULT;
  const processing = setToggle.isPending;

  const onClick = () => {
    setToggle.mutate(!active, {
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: active ? 'Auto-Forge is still on' : 'Auto-Forge is still off',
          description: forgeOperationError(error),
        }),
    });
  };

  return (
    <Button
      variant="outline"
      aria-pressed={active}
      aria-busy={processing || undefined}
      disabled={processing}
      onClick={onClick}
      className={cn(
        'w-full justify-between',
        active && !processing && 'border-brand/40 bg-brand/10 text-foreground hover:bg-brand/15',
        className,
      )}
    >
      <span className="inline-flex items-center gap-1.5">
        {processing ? (
          <LoaderCircle aria-hidden="true" className="animate-spin" />
        ) : (
          <Flame aria-hidden="true" className={active ? 'text-brand' : undefined} />
        )}
        Auto-Forge
      </span>
      <span className="text-xs text-muted-foreground" data-testid="auto-forge-state">
        {processing ? 'Processing…' : active ? 'On' : 'Off'}
      </span>
    </Button>
  );
}
