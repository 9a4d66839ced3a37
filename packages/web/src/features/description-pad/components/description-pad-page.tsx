import { NotebookPen } from 'lucide-react';
import { EmptyState, PageFrame } from '@/components/layout/page.tsx';

export function DescriptionPadPage() {
  return (
    <PageFrame
      title="Description Pad"
      description="Describe what you want built, then hand it to the brain or to Forge."
    >
      <EmptyState icon={NotebookPen} title="No description yet">
        Your description and five quick templates to start from will appear here, with Send to Brain and Send
        to Forge.
      </EmptyState>
    </PageFrame>
  );
}
