import { useMemo, useState } from 'react';
import { RotateCw } from 'lucide-react';
import { TOTAL_BOTS, UI_TEXT } from '@forge/shared/schema-free';
import { cn } from '@/lib/utils.ts';
import { Button } from '@/components/ui/button.tsx';
import { PageFrame } from '@/components/layout/page.tsx';
import {
  botCards,
  categoryCounts,
  CATEGORY_FILTERS,
  filterCards,
  type CategoryFilter,
} from '../bot-cards.ts';
import { errorDetail, useBots } from '../queries.ts';
import { useNow } from '../use-now.ts';
import { BotCard } from './bot-card.tsx';
import { WorkersSection } from './workers-section.tsx';

const FILTER_LABELS: Record<CategoryFilter, string> = {
  all: 'All',
  infrastructure: 'Infrastructure',
  development: 'Development',
  operations: 'Operations',
  services: 'Services',
};

function CategoryFilterBar({
  value,
  counts,
  onChange,
}: {
  value: CategoryFilter;
  counts: Record<CategoryFilter, number>;
  onChange: (next: CategoryFilter) => void;
}) {
  return (
    <div role="group" aria-label="Category" className="flex flex-wrap gap-1">
      {CATEGORY_FILTERS.map((filter) => {
        const selected = filter === value;
        return (
          <Button
            key={filter}
            variant={selected ? 'secondary' : 'ghost'}
            size="sm"
            aria-pressed={selected}
            className={cn(!selected && 'text-muted-foreground')}
            onClick={() => onChange(filter)}
          >
            {FILTER_LABELS[filter]}
            <span className="font-mono text-[0.7rem] tabular-nums opacity-70">{counts[filter]}</span>
          </Button>
        );
      })}
    </div>
  );
}

/** How often "3 min ago" on the cards moves on. */
const CLOCK_TICK_MS = 15_000;

export function BotFactoryPage() {
  const bots = useBots();
  const now = useNow(CLOCK_TICK_MS);
  const [filter, setFilter] = useState<CategoryFilter>('all');
  const cards = useMemo(() => botCards(bots.data), [bots.data]);
  const counts = useMemo(() => categoryCounts(cards), [cards]);
  const shown = filterCards(cards, filter);

  return (
    <PageFrame
      title="Bot Factory"
      description={`The ${TOTAL_BOTS} bots of the fleet, their live status, and a way to put each to work.`}
    >
      <WorkersSection />
      <CategoryFilterBar value={filter} counts={counts} onChange={setFilter} />
      {bots.isError && !bots.data ? (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-error/40 px-3 py-2"
        >
          <div className="flex min-w-0 flex-col gap-0.5">
            <p className="text-sm">{UI_TEXT.botStatusFailed}</p>
            <p className="font-mono text-xs break-words text-muted-foreground">{errorDetail(bots.error)}</p>
          </div>
          <Button variant="outline" size="sm" onClick={() => void bots.refetch()}>
            <RotateCw />
            Try again
          </Button>
        </div>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="Bots" role="list">
        {shown.map((bot) => (
          <BotCard key={bot.name} bot={bot} loading={bots.isPending} now={now} />
        ))}
      </div>
    </PageFrame>
  );
}
