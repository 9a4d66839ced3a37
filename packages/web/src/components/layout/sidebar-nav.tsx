import { Link, NavLink } from 'react-router';
import { cn } from '@/lib/utils.ts';
import { ScrollArea } from '@/components/ui/scroll-area.tsx';
import { NAV_ITEMS, type NavItem } from './nav-items.ts';

const itemClass =
  'flex h-8 items-center gap-2 rounded-md px-2 text-sm text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring/60 [&_svg]:size-4 [&_svg]:shrink-0';
const activeClass = 'bg-accent font-medium text-foreground';

function NavEntry({ item, compact }: { item: NavItem; compact?: boolean }) {
  const Icon = item.icon;
  const body = (
    <>
      <Icon aria-hidden="true" />
      <span className="truncate">{item.label}</span>
    </>
  );
  const className = cn(itemClass, compact && 'shrink-0');
  if (item.alias) {
    return (
      <Link to={item.to} className={className}>
        {body}
      </Link>
    );
  }
  return (
    <NavLink to={item.to} end className={({ isActive }) => cn(className, isActive && activeClass)}>
      {body}
    </NavLink>
  );
}

/** Left column on wide screens (≥ 768 px, spec §2.2); a scrolling strip under the header below that. */
export function SidebarNav() {
  return (
    <>
      <nav aria-label="Main" className="hidden w-52 shrink-0 flex-col border-r bg-sidebar md:flex">
        <ScrollArea className="min-h-0 flex-1">
          <ul className="flex flex-col gap-0.5 p-2">
            {NAV_ITEMS.map((item) => (
              <li key={item.label}>
                <NavEntry item={item} />
              </li>
            ))}
          </ul>
        </ScrollArea>
      </nav>
      <nav aria-label="Main" className="flex gap-1 overflow-x-auto border-b bg-sidebar px-2 py-1 md:hidden">
        {NAV_ITEMS.map((item) => (
          <NavEntry key={item.label} item={item} compact />
        ))}
      </nav>
    </>
  );
}
