import { Activity, FileArchive } from 'lucide-react';
import { MAX_UPLOAD_LABEL } from '@forge/shared';
import { EmptyState, Mono, PageFrame } from '@/components/layout/page.tsx';
import { DaemonStatusCard } from './daemon-status-card.tsx';

export function DashboardPage() {
  return (
    <PageFrame
      title="Dashboard"
      description="Upload a project; the bots extract, install, build, test and preview it."
    >
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="flex flex-col gap-4">
          <EmptyState icon={FileArchive} title="No project yet" aria-label="Project upload" className="py-16">
            <p>
              Drop a project ZIP here or run <Mono>forge upload app.zip</Mono>
            </p>
            <p className="mt-1 text-xs">ZIP archives up to {MAX_UPLOAD_LABEL}.</p>
          </EmptyState>
          <EmptyState icon={Activity} title="No build running">
            Stages, bot assignments and build output stream here live while a build runs.
          </EmptyState>
        </div>
        <DaemonStatusCard />
      </div>
    </PageFrame>
  );
}
