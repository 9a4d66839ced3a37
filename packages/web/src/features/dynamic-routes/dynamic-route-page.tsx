import { useLocation } from 'react-router';
import { LoaderCircle, Puzzle } from 'lucide-react';
import type { DynamicRoute } from '@forge/shared';
import { useDynamicRoutes } from '@/features/extensions/queries.ts';
import { NotFoundPage } from '@/features/not-found/not-found-page.tsx';
import { EmptyState } from '@/components/layout/page.tsx';

/**
 * What an extension or integrated app may do inside its frame: run its own scripts, submit its own
 * forms, open links in new tabs. Never `allow-same-origin`: the frame gets an opaque origin, so even
 * a page served from the daemon's own origin could not read the workspace's storage or call its API
 * with the user's cookies. Its files are served from their own origin on top of that.
 */
export const DYNAMIC_ROUTE_SANDBOX = 'allow-scripts allow-forms allow-popups';

/** "/ext/hello/" and "/ext/hello" are the same route. */
const normalize = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** The dynamic route a browser path shows, if any. */
export function findDynamicRoute(list: readonly DynamicRoute[], pathname: string): DynamicRoute | undefined {
  const wanted = normalize(pathname);
  return list.find((route) => normalize(route.path) === wanted);
}

/** The name a route is shown by. */
export const routeLabel = (route: DynamicRoute): string => route.displayName || route.name;

/** One extension or integrated app, full size inside the workspace (the shell keeps the header). */
export function DynamicRoutePage({ route }: { route: DynamicRoute }) {
  const label = routeLabel(route);
  if (!route.url) {
    // Its static server is not up (yet): say so rather than framing nothing.
    return (
      <div className="p-6">
        <EmptyState icon={LoaderCircle} title={`${label} is starting…`} role="status">
          <p>
            Forge is still starting the server for <span className="font-mono">{route.path}</span>. This page
            opens it as soon as it is ready.
          </p>
        </EmptyState>
      </div>
    );
  }
  return (
    <iframe
      key={route.url}
      src={route.url}
      title={label}
      sandbox={DYNAMIC_ROUTE_SANDBOX}
      referrerPolicy="no-referrer"
      className="block h-full min-h-[calc(100svh-6rem)] w-full border-0 bg-background"
    />
  );
}

/**
 * The router's catch-all: a path listed by GET /api/dynamic-routes (polled every 10 s) shows its
 * extension or app; any other path is the docs/product.md#routes-and-navigation 404. While the first list is
 * on its way the page waits instead of flashing "404" at a route that exists; a list that never came means no
 * dynamic routes, so the 404.
 */
export function DynamicRouteOrNotFound() {
  const { pathname } = useLocation();
  const { data, isPending } = useDynamicRoutes();
  if (isPending) {
    return (
      <div className="p-6" aria-busy="true">
        <EmptyState icon={Puzzle} title="Loading…" />
      </div>
    );
  }
  // A poll that fails after a good one keeps the last list: the open frame is not torn down by it.
  const route = Array.isArray(data) ? findDynamicRoute(data, pathname) : undefined;
  return route ? <DynamicRoutePage route={route} /> : <NotFoundPage />;
}
