import { Puzzle } from 'lucide-react';
import type { DynamicRoute } from '@forge/shared';
import { useDynamicRoutes } from '@/features/extensions/queries.ts';
import { Button } from '@/components/ui/button.tsx';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';

/**
 * Routes added by extensions (spec §2.2, polled every 10 s). They are served by the daemon, not by
 * this app's router, so they are plain links. A failed poll shows none: there is nothing to link to.
 */
export function useExtensionRoutes(): DynamicRoute[] {
  const { data, isError } = useDynamicRoutes();
  return isError || !Array.isArray(data) ? [] : data;
}

export function DynamicRouteLinks() {
  const extensionRoutes = useExtensionRoutes();
  if (extensionRoutes.length === 0) return null;
  return (
    <nav aria-label="Extensions" className="flex items-center gap-0.5">
      {extensionRoutes.map((route) => (
        <Tooltip key={route.path}>
          <TooltipTrigger asChild>
            <Button asChild variant="ghost" size="sm" className="text-muted-foreground">
              <a href={route.path}>
                <Puzzle aria-hidden="true" />
                {route.displayName || route.name}
              </a>
            </Button>
          </TooltipTrigger>
          {route.description ? <TooltipContent side="bottom">{route.description}</TooltipContent> : null}
        </Tooltip>
      ))}
    </nav>
  );
}

/** The same links as menu items, for the header's overflow menu on narrow screens. */
export function DynamicRouteMenuItems() {
  return useExtensionRoutes().map((route) => (
    <DropdownMenuItem key={route.path} asChild>
      <a href={route.path}>
        <Puzzle aria-hidden="true" />
        {route.displayName || route.name}
      </a>
    </DropdownMenuItem>
  ));
}
