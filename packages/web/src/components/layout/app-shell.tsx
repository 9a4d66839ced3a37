import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { AppHeader } from './app-header.tsx';
import { PageSkeleton } from './page.tsx';
import { SidebarNav } from './sidebar-nav.tsx';

/** Header, navigation and the current screen; screens load lazily inside without moving the frame. */
export function AppShell() {
  return (
    <div className="flex h-dvh flex-col overflow-hidden bg-background text-foreground">
      <AppHeader />
      <div className="flex min-h-0 flex-1 flex-col md:flex-row">
        <SidebarNav />
        <main className="min-h-0 min-w-0 flex-1 overflow-y-auto">
          <Suspense fallback={<PageSkeleton />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
