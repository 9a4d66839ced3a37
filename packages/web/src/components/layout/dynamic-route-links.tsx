import { Link } from 'react-router';
import { AppWindow, Puzzle } from 'lucide-react';
import type { DynamicRoute } from '@forge/shared';
import { useDynamicRoutes } from '@/features/extensions/queries.ts';
import { Button } from '@/components/ui/button.tsx';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';

/**
 * Routes added by extensions and integrated apps (docs/product.md#dashboard, polled every 10 s). The router
 * shows each in a sandboxed frame (features/dynamic-routes), so they are in-app links. A poll that never
 * answered shows none: there is nothing to link to.
 */
export function useExtensionRoutes(): DynamicRoute[] {
  const { data } = useDynamicRoutes();
  return Array.isArray(data) ? data : [];
}

/** A puzzle piece for an extension, a window for an integrated app. */
function RouteIcon({ route }: { route: DynamicRoute }) {
  return route.kind === 'app' ? <AppWindow aria-hidden="true" /> : <Puzzle aria-hidden="true" />;
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
              <Link to={route.path}>
                <RouteIcon route={route} />
                {route.displayName || route.name}
              </Link>
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
      <Link to={route.path}>
        <RouteIcon route={route} />
        {route.displayName || route.name}
      </Link>
    </DropdownMenuItem>
  ));
}
