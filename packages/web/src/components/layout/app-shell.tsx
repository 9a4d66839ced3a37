import { lazy, Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { AppFooter } from './app-footer.tsx';
import { AppHeader } from './app-header.tsx';
import { PageSkeleton } from './page.tsx';
import { SidebarNav } from './sidebar-nav.tsx';

// The floating assistant loads on first open: nothing in the first paint needs it.
const ForgeAssistant = lazy(() =>
  import('@/features/assistant/components/forge-assistant.tsx').then((m) => ({ default: m.ForgeAssistant })),
);

/** Header, navigation, the current screen and the status footer; screens load lazily inside. */
export function AppShell() {
  const [assistantOpen, setAssistantOpen] = useState(false);
  const [assistantLoaded, setAssistantLoaded] = useState(false);
  const onAssistantOpenChange = (open: boolean) => {
    if (open) setAssistantLoaded(true);
    setAssistantOpen(open);
  };

  return (
    <div className="flex h-dvh flex-col overflow-hidden bg-background text-foreground">
      <AppHeader assistantOpen={assistantOpen} onAssistantOpenChange={onAssistantOpenChange} />
      <div className="flex min-h-0 flex-1 flex-col md:flex-row">
        <SidebarNav />
        <main className="min-h-0 min-w-0 flex-1 overflow-y-auto">
          <Suspense fallback={<PageSkeleton />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      <AppFooter />
      {assistantLoaded ? (
        <Suspense fallback={null}>
          <ForgeAssistant open={assistantOpen} onOpenChange={onAssistantOpenChange} />
        </Suspense>
      ) : null}
    </div>
  );
}
