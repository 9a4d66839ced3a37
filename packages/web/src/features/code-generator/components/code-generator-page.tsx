import { Braces } from 'lucide-react';
import { EmptyState, PageFrame } from '@/components/layout/page.tsx';

export function CodeGeneratorPage() {
  return (
    <PageFrame title="Code Generator" description="Components, API routes, functions and schemas on demand.">
      <EmptyState icon={Braces} title="Nothing generated yet">
        Generated code will appear here, ready to copy or to insert into the current project.
      </EmptyState>
    </PageFrame>
  );
}
