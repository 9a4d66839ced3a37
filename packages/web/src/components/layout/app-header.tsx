import { Link } from 'react-router';
import { Anvil, Ellipsis, GraduationCap, LoaderCircle, Package, Sparkles } from 'lucide-react';
import { APP_PATHS } from '@/lib/app-paths.ts';
import { Button } from '@/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { Separator } from '@/components/ui/separator.tsx';
import { ForgeToggleSwitch } from '@/features/forge-toggle/components/forge-toggle-switch.tsx';
import { PackageButton, useRepackage } from '@/features/extensions/components/package-button.tsx';
import { ConnectionIndicator } from './connection-indicator.tsx';
import { DynamicRouteLinks, DynamicRouteMenuItems } from './dynamic-route-links.tsx';
import { DownloadPlatformLink, DownloadPlatformMenuItem } from './download-platform-link.tsx';
import { ProjectSelector } from './project-selector.tsx';

/** Below 1024 px the header keeps only what is used most; the rest moves into this menu. */
function MoreMenu() {
  const repackage = useRepackage();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-7 lg:hidden" aria-label="More actions">
          <Ellipsis />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-52">
        <DropdownMenuItem onSelect={repackage.run} disabled={repackage.pending}>
          {repackage.pending ? <LoaderCircle className="animate-spin" /> : <Package />}
          Package
        </DropdownMenuItem>
        <DownloadPlatformMenuItem />
        <DropdownMenuItem asChild>
          <Link to={APP_PATHS.university}>
            <GraduationCap />
            University
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator className="last:hidden" />
        <DynamicRouteMenuItems />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * The header (docs/product.md#dashboard): project name and selector, forge toggle, the "Forge" assistant,
 * Package, Download, University, extension routes and the live connection.
 */
export function AppHeader({
  assistantOpen,
  onAssistantOpenChange,
}: {
  assistantOpen: boolean;
  onAssistantOpenChange: (open: boolean) => void;
}) {
  return (
    <header className="flex h-11 shrink-0 items-center gap-1.5 border-b bg-sidebar px-2 sm:gap-2 sm:px-3">
      <Link
        to={APP_PATHS.dashboard}
        aria-label="Forge dashboard"
        className="flex shrink-0 items-center rounded-md p-1 outline-none focus-visible:ring-2 focus-visible:ring-ring/60"
      >
        <Anvil aria-hidden="true" className="size-4 text-brand" />
      </Link>
      <ProjectSelector />
      <div className="ml-auto flex min-w-0 items-center gap-1">
        <div className="hidden min-w-0 overflow-hidden xl:flex">
          <DynamicRouteLinks />
        </div>
        <ForgeToggleSwitch />
        <Button
          variant={assistantOpen ? 'secondary' : 'ghost'}
          size="sm"
          aria-label="Forge assistant"
          aria-expanded={assistantOpen}
          onClick={() => onAssistantOpenChange(!assistantOpen)}
        >
          <Sparkles aria-hidden="true" className="text-brand" />
          Forge
        </Button>
        <div className="hidden items-center gap-0.5 lg:flex">
          <PackageButton />
          <DownloadPlatformLink />
          <Button asChild variant="ghost" size="sm">
            <Link to={APP_PATHS.university}>
              <GraduationCap aria-hidden="true" />
              University
            </Link>
          </Button>
        </div>
        <MoreMenu />
        <Separator orientation="vertical" className="mx-0.5 h-4" />
        <ConnectionIndicator />
      </div>
    </header>
  );
}
