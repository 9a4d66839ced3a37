import { useState } from 'react';
import { Link, useMatch } from 'react-router';
import { Bot, PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover.tsx';
import { ScrollArea } from '@/components/ui/scroll-area.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';
import { BotActivityList, OnlineBotsBadge } from './bot-activity.tsx';
import { useBotStatus } from './bot-status.ts';
import { NAV_ITEMS, type NavItem } from './nav-items.ts';

const itemClass =
  'flex h-8 items-center gap-2 rounded-md px-2 text-sm text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring/60 [&_svg]:size-4 [&_svg]:shrink-0';
const activeClass = 'bg-accent font-medium text-foreground';

/** Remembered per browser; until the user chooses, the rail is narrow on screens under 1280 px. */
const COLLAPSED_KEY = 'forge.nav.collapsed';
const WIDE_SCREEN_PX = 1280;

function readCollapsed(): boolean {
  try {
    const stored = window.localStorage.getItem(COLLAPSED_KEY);
    if (stored === '1' || stored === '0') return stored === '1';
  } catch {
    /* storage unavailable: fall through to the width rule */
  }
  return window.innerWidth < WIDE_SCREEN_PX;
}

function NavEntry({ item, collapsed, compact }: { item: NavItem; collapsed?: boolean; compact?: boolean }) {
  const Icon = item.icon;
  // Matched here rather than through NavLink's className function: a Tooltip trigger (asChild)
  // merges class names as strings and would drop a function.
  const current = useMatch({ path: item.to, end: true }) !== null && !item.alias;
  const link = (
    <Link
      to={item.to}
      aria-current={current ? 'page' : undefined}
      className={cn(
        itemClass,
        compact && 'shrink-0',
        collapsed && 'w-8 justify-center px-0',
        current && activeClass,
      )}
    >
      <Icon aria-hidden="true" />
      <span className={collapsed ? 'sr-only' : 'truncate'}>{item.label}</span>
    </Link>
  );
  if (!collapsed) return link;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{link}</TooltipTrigger>
      <TooltipContent side="right">{item.label}</TooltipContent>
    </Tooltip>
  );
}

/** A bot icon with the online badge that opens the Bot Activity list (narrow rail, mobile strip). */
function BotActivityPopover({ side }: { side: 'right' | 'bottom' }) {
  const { data } = useBotStatus();
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Bot Activity${data ? `: ${data.online} bots online` : ''}`}
          className="relative size-8 shrink-0 text-muted-foreground"
        >
          <Bot aria-hidden="true" />
          <OnlineBotsBadge className="absolute -top-0.5 -right-1 min-w-4 px-1 text-[10px] leading-3.5" />
        </Button>
      </PopoverTrigger>
      <PopoverContent side={side} align="start" className="w-64 p-2">
        <h2 className="px-2 pb-1 text-xs font-medium text-muted-foreground">Bot Activity</h2>
        <BotActivityList />
      </PopoverContent>
    </Popover>
  );
}

/**
 * Left column on screens ≥ 768 px (docs/product.md#dashboard): the routes, the online-bot badge and the Bot
 * Activity list; it narrows to an icon rail on demand. Below 768 px it is a scrolling strip under
 * the header. The status poll lives here because this component is on every screen.
 */
export function SidebarNav() {
  useBotStatus({ poll: true });
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const toggle = () => {
    setCollapsed((value) => {
      try {
        window.localStorage.setItem(COLLAPSED_KEY, value ? '0' : '1');
      } catch {
        /* the choice lasts for this tab only */
      }
      return !value;
    });
  };
  const ToggleIcon = collapsed ? PanelLeftOpen : PanelLeftClose;

  return (
    <>
      <div
        data-collapsed={collapsed}
        className={cn(
          'hidden shrink-0 flex-col border-r bg-sidebar md:flex',
          collapsed ? 'w-12 items-center' : 'w-52',
        )}
      >
        <ScrollArea className="min-h-0 w-full flex-1">
          <nav aria-label="Main">
            <ul className={cn('flex flex-col gap-0.5 p-2', collapsed && 'items-center')}>
              {NAV_ITEMS.map((item) => (
                <li key={item.label}>
                  <NavEntry item={item} collapsed={collapsed} />
                </li>
              ))}
            </ul>
          </nav>
          {collapsed ? null : (
            <section aria-labelledby="bot-activity-heading" className="mt-2 border-t p-2">
              <div className="flex items-center justify-between px-2 pb-1">
                <h2 id="bot-activity-heading" className="text-xs font-medium text-muted-foreground">
                  Bot Activity
                </h2>
                <OnlineBotsBadge />
              </div>
              <BotActivityList />
            </section>
          )}
        </ScrollArea>
        <div
          className={cn(
            'flex w-full border-t p-2',
            collapsed ? 'flex-col items-center gap-1' : 'justify-end',
          )}
        >
          {collapsed ? <BotActivityPopover side="right" /> : null}
          <Tooltip>
            <TooltipTrigger asChild>
              <Button
                variant="ghost"
                size="icon"
                className="size-8 text-muted-foreground"
                aria-label={collapsed ? 'Expand navigation' : 'Collapse navigation'}
                aria-expanded={!collapsed}
                onClick={toggle}
              >
                <ToggleIcon />
              </Button>
            </TooltipTrigger>
            <TooltipContent side="right">
              {collapsed ? 'Expand navigation' : 'Collapse navigation'}
            </TooltipContent>
          </Tooltip>
        </div>
      </div>
      <div className="flex items-center gap-1 border-b bg-sidebar px-2 py-1 md:hidden">
        <nav aria-label="Main" className="flex min-w-0 flex-1 gap-1 overflow-x-auto">
          {NAV_ITEMS.map((item) => (
            <NavEntry key={item.label} item={item} compact />
          ))}
        </nav>
        <BotActivityPopover side="bottom" />
      </div>
    </>
  );
}
