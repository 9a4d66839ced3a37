import { Link } from 'react-router';
import { Anvil, GraduationCap } from 'lucide-react';
import { DEFAULT_PROJECT_NAME } from '@forge/shared';
import { APP_PATHS } from '@/lib/app-paths.ts';
import { Button } from '@/components/ui/button.tsx';
import { Separator } from '@/components/ui/separator.tsx';
import { ConnectionIndicator } from './connection-indicator.tsx';

export function AppHeader() {
  return (
    <header className="flex h-11 shrink-0 items-center gap-3 border-b bg-sidebar px-3">
      <Link
        to={APP_PATHS.dashboard}
        className="flex items-center gap-2 rounded-md px-1 text-sm font-semibold tracking-tight outline-none focus-visible:ring-2 focus-visible:ring-ring/60"
      >
        <Anvil aria-hidden="true" className="size-4 text-brand" />
        <span>{DEFAULT_PROJECT_NAME}</span>
      </Link>
      <div className="ml-auto flex items-center gap-1">
        <Button asChild variant="ghost" size="sm" className="text-muted-foreground">
          <Link to={APP_PATHS.university}>
            <GraduationCap />
            University
          </Link>
        </Button>
        <Separator orientation="vertical" className="mx-1 h-4" />
        <ConnectionIndicator />
      </div>
    </header>
  );
}
