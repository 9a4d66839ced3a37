import { Bot } from 'lucide-react';
import { BOT_CATEGORY_COUNTS, TOTAL_BOTS } from '@forge/shared';
import { EmptyState, PageFrame } from '@/components/layout/page.tsx';

const categories = Object.entries(BOT_CATEGORY_COUNTS)
  .map(([name, count]) => `${name} ${count}`)
  .join(', ');

export function BotFactoryPage() {
  return (
    <PageFrame
      title="Bot Factory"
      description={`The ${TOTAL_BOTS} bots of the fleet and what they are doing.`}
    >
      <EmptyState icon={Bot} title="Bot cards will appear here">
        One card per bot ({categories}), filterable by category, with its live status and Build and Fix
        actions.
      </EmptyState>
    </PageFrame>
  );
}
