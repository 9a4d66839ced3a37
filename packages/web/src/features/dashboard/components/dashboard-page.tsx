import { BrainChat } from '@/features/brain/components/brain-chat.tsx';
import { BuildCompleteDialog } from '@/features/build-complete/components/build-complete-dialog.tsx';
import { LivePreviewPanel } from '@/features/preview/components/live-preview-panel.tsx';
import { DashboardDropTarget } from '@/features/upload/components/dashboard-drop-target.tsx';
import { UploadProvider } from '@/features/upload/upload-context.tsx';
import { DashboardLayout } from './dashboard-layout.tsx';
import { LeftColumn } from './left-column.tsx';
import { RightColumn } from './right-column.tsx';

/** The main workspace (docs/product.md#dashboard). Any ZIP dropped on it is uploaded as a project. */
export function DashboardPage() {
  return (
    <UploadProvider>
      <h1 className="sr-only">Dashboard</h1>
      <DashboardDropTarget className="min-h-full md:h-full">
        <DashboardLayout
          left={<LeftColumn />}
          preview={<LivePreviewPanel className="h-full" />}
          chat={<BrainChat className="h-full" />}
          right={<RightColumn />}
        />
      </DashboardDropTarget>
      <BuildCompleteDialog />
    </UploadProvider>
  );
}
