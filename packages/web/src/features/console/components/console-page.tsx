import { SquareTerminal } from 'lucide-react';
import { EmptyState, PageFrame } from '@/components/layout/page.tsx';

export function ConsolePage() {
  return (
    <PageFrame title="Console" description="Bot logs and the Forge chat.">
      <EmptyState icon={SquareTerminal} title="No log lines yet">
        Log lines from every bot stream here live while they work, next to your chat with Forge.
      </EmptyState>
    </PageFrame>
  );
}
