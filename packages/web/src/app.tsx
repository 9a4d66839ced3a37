import { Component, lazy, type ReactNode } from 'react';
import {
  Navigate,
  Outlet,
  useLocation,
  useNavigate,
  useRoutes,
  type Location,
  type RouteObject,
} from 'react-router';
import { QueryClientProvider, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { APP_PATHS } from '@/lib/app-paths.ts';
import { useAuthExpired } from '@/lib/auth.ts';
import { SocketProvider, type SocketConnector } from '@/lib/socket.tsx';
import { ProjectProvider } from '@/lib/project-context.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Toaster } from '@/components/ui/toaster.tsx';
import { TooltipProvider } from '@/components/ui/tooltip.tsx';
import { ToastStoreProvider } from '@/components/ui/use-toast.tsx';
import { AppShell } from '@/components/layout/app-shell.tsx';
import { EmptyState } from '@/components/layout/page.tsx';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page.tsx';
import { DynamicRouteOrNotFound } from '@/features/dynamic-routes/dynamic-route-page.tsx';
import type { LoginLocationState } from '@/features/login/login-error.ts';
import { forgetFamilyData } from '@/features/university/queries.ts';

// The landing screen, the 404 and the dynamic-route frame ship in the main chunk; every other screen loads on first visit,
// so the first paint pays only for the shell.
const SettingsPage = lazy(() =>
  import('@/features/settings/components/settings-page.tsx').then((m) => ({ default: m.SettingsPage })),
);
const FileExplorerPage = lazy(() =>
  import('@/features/file-explorer/components/file-explorer-page.tsx').then((m) => ({
    default: m.FileExplorerPage,
  })),
);
const ConsolePage = lazy(() =>
  import('@/features/console/components/console-page.tsx').then((m) => ({ default: m.ConsolePage })),
);
const BotFactoryPage = lazy(() =>
  import('@/features/bot-factory/components/bot-factory-page.tsx').then((m) => ({
    default: m.BotFactoryPage,
  })),
);
const CodeGeneratorPage = lazy(() =>
  import('@/features/code-generator/components/code-generator-page.tsx').then((m) => ({
    default: m.CodeGeneratorPage,
  })),
);
const DescriptionPadPage = lazy(() =>
  import('@/features/description-pad/components/description-pad-page.tsx').then((m) => ({
    default: m.DescriptionPadPage,
  })),
);
const LoginPage = lazy(() =>
  import('@/features/login/components/login-page.tsx').then((m) => ({ default: m.LoginPage })),
);
const UniversityPage = lazy(() =>
  import('@/features/university/components/university-page.tsx').then((m) => ({ default: m.UniversityPage })),
);

/** A screen that threw or whose chunk failed to load (e.g. Forge was rebuilt while the tab was open). */
function RouteError({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="p-6">
      <EmptyState icon={TriangleAlert} title="This screen failed to load" role="alert">
        <p className="font-mono text-xs break-words">{message}</p>
        <Button variant="outline" size="sm" className="mt-3" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </EmptyState>
    </div>
  );
}

interface BoundaryProps {
  location: Location;
  children: ReactNode;
}

/**
 * Shows RouteError instead of a subtree that threw while rendering (a lazy screen's chunk that
 * failed to load throws there too), and tries again on the next navigation: what a data router's
 * errorElement does, without the data router (the app has no loaders or actions; the declarative
 * router is half its size in the first-load JS).
 */
class RouteErrorBoundaryAt extends Component<
  BoundaryProps,
  { failed: boolean; error: unknown; location: Location }
> {
  override state = { failed: false, error: undefined as unknown, location: this.props.location };

  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { location: Location }) {
    return props.location === state.location
      ? null
      : { failed: false, error: undefined, location: props.location };
  }

  override render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}

function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <RouteErrorBoundaryAt location={useLocation()}>{children}</RouteErrorBoundaryAt>;
}

/**
 * A stored token the daemon refused anywhere (expired or revoked; lib/api.ts removed it) returns the
 * user to /login, saying why. The university page does this for itself (it also leaves its screen),
 * and /login needs no trip, so both are left alone here: one navigation per refusal.
 */
function AuthExpiredRedirect() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  useAuthExpired(() => {
    const atUniversity = pathname === APP_PATHS.university || pathname.startsWith(`${APP_PATHS.university}/`);
    if (atUniversity || pathname === APP_PATHS.login) return;
    forgetFamilyData(queryClient);
    void navigate(APP_PATHS.login, { state: { expired: true } satisfies LoginLocationState });
  });
  return null;
}

/** The routes of docs/product.md#routes-and-navigation. */
export const appRoutes: RouteObject[] = [
  {
    // The shell itself failing leaves the error page alone; a screen failing keeps the shell.
    element: (
      <RouteErrorBoundary>
        <AuthExpiredRedirect />
        <AppShell />
      </RouteErrorBoundary>
    ),
    children: [
      {
        element: (
          <RouteErrorBoundary>
            <Outlet />
          </RouteErrorBoundary>
        ),
        children: [
          { index: true, element: <DashboardPage /> },
          { path: APP_PATHS.dashboardAlias, element: <Navigate to={APP_PATHS.dashboard} replace /> },
          { path: APP_PATHS.fileExplorer, element: <FileExplorerPage /> },
          { path: APP_PATHS.settings, element: <SettingsPage /> },
          { path: APP_PATHS.console, element: <ConsolePage /> },
          { path: APP_PATHS.botFactory, element: <BotFactoryPage /> },
          { path: APP_PATHS.codeGenerator, element: <CodeGeneratorPage /> },
          { path: APP_PATHS.descriptionPad, element: <DescriptionPadPage /> },
          { path: APP_PATHS.login, element: <LoginPage /> },
          { path: APP_PATHS.university, element: <UniversityPage /> },
          { path: `${APP_PATHS.university}/:tab`, element: <UniversityPage /> },
          // Extensions and integrated apps (GET /api/dynamic-routes), else the 404.
          { path: '*', element: <DynamicRouteOrNotFound /> },
        ],
      },
    ],
  },
];

/** The screen for the current location; mount inside a router (BrowserRouter, or MemoryRouter in tests). */
export function AppRoutes() {
  return useRoutes(appRoutes);
}

/** Everything a screen may rely on: cache, live socket, notices, tooltips. */
export function AppProviders({
  queryClient,
  connect,
  children,
}: {
  queryClient: QueryClient;
  /** Replaces the real /ws connection (tests). */
  connect?: SocketConnector;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <SocketProvider connect={connect}>
        <ProjectProvider>
          <ToastStoreProvider>
            <TooltipProvider>
              {children}
              <Toaster />
            </TooltipProvider>
          </ToastStoreProvider>
        </ProjectProvider>
      </SocketProvider>
    </QueryClientProvider>
  );
}
