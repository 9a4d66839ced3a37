import { Link, NavLink, useParams } from 'react-router';
import { Brain, MessagesSquare, Network, SlidersHorizontal, type LucideIcon } from 'lucide-react';
import {
  APP_PATHS,
  UNIVERSITY_TABS,
  isUniversityTab,
  universityPath,
  type UniversityTab,
} from '@/lib/app-paths.ts';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState, PageFrame } from '@/components/layout/page.tsx';
import { NotFoundPage } from '@/features/not-found/not-found-page.tsx';

const TAB_CONTENT: Record<UniversityTab, { icon: LucideIcon; title: string; body: string }> = {
  '': {
    icon: SlidersHorizontal,
    title: 'Platform controls',
    body: 'Rebuild and package the platform, download the latest build and see the installed extensions here.',
  },
  chat: { icon: MessagesSquare, title: 'Family chat', body: 'Messages of the family chat will appear here.' },
  memory: { icon: Brain, title: 'Memory manager', body: 'The stored memory cells will be listed here.' },
  bots: { icon: Network, title: 'Swarm status', body: 'The state of the bot swarm will be shown here.' },
};

export function UniversityPage() {
  const { tab = '' } = useParams();
  // Spec §2.1: only the tabs of §2.8 exist; any other /university/<x> is an unknown page.
  if (!isUniversityTab(tab)) return <NotFoundPage />;
  const content = TAB_CONTENT[tab];
  return (
    <PageFrame
      title="University"
      description="The family-only control area."
      actions={
        <Button asChild variant="outline" size="sm">
          <Link to={APP_PATHS.dashboard}>Main Platform</Link>
        </Button>
      }
    >
      <nav aria-label="University" className="flex gap-1 border-b">
        {UNIVERSITY_TABS.map((t) => (
          <NavLink
            key={t.tab}
            to={universityPath(t.tab)}
            end
            className={({ isActive }) =>
              cn(
                '-mb-px border-b-2 px-3 py-1.5 text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring/60',
                isActive ? 'border-foreground text-foreground' : 'border-transparent',
              )
            }
          >
            {t.label}
          </NavLink>
        ))}
      </nav>
      <EmptyState icon={content.icon} title={content.title}>
        {content.body}
      </EmptyState>
    </PageFrame>
  );
}
