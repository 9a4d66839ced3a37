import { useState } from 'react';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import {
  FORGE_TOGGLE_DEFAULT,
  forgeOperationError,
  useForgeToggleState,
  useSetForgeToggle,
} from '../queries.ts';

/**
 * The header's forge toggle (docs/product.md#dashboard, docs/product.md#live-state): it sets its flag at once
 * and sends `active` to POST /api/forge/toggle; if the daemon refuses, it goes back and says why. A toggle
 * button (aria-pressed) drawn as a small switch: the app's switches are settings, this is an action bar.
 */
export function ForgeToggleSwitch() {
  const { data } = useForgeToggleState();
  const setToggle = useSetForgeToggle();
  const { toast } = useToast();
  const [optimistic, setOptimistic] = useState<boolean | null>(null);
  const active = optimistic ?? data?.active ?? FORGE_TOGGLE_DEFAULT;

  const onClick = () => {
    const next = !active;
    setOptimistic(next);
    setToggle.mutate(next, {
      onSettled: () => setOptimistic(null),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: next ? 'Auto-forge was not turned on' : 'Auto-forge was not turned off',
          description: forgeOperationError(error),
        }),
    });
  };

  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          aria-label="Forge toggle"
          aria-pressed={active}
          onClick={onClick}
          className="gap-1.5 px-1.5 text-muted-foreground"
        >
          <span
            aria-hidden="true"
            className={cn(
              'inline-flex h-3.5 w-6 items-center rounded-full p-px transition-colors',
              active ? 'bg-brand' : 'bg-input',
            )}
          >
            <span
              className={cn(
                'size-3 rounded-full bg-background transition-transform',
                active ? 'translate-x-2.5' : 'translate-x-0',
              )}
            />
          </span>
          <span className="text-xs max-sm:sr-only">Forge</span>
        </Button>
      </TooltipTrigger>
      <TooltipContent side="bottom">
        Forge toggle {active ? 'on' : 'off'}: {active ? 'rebuilds' : 'would rebuild'} the current project when
        its files change.
      </TooltipContent>
    </Tooltip>
  );
}
