import { lazy } from 'react';
import { AfterFirstPaint } from '@/components/layout/after-first-paint.tsx';
import { BuildCompleteDialog } from '@/features/build-complete/components/build-complete-dialog.tsx';
import { DashboardDropTarget } from '@/features/upload/components/dashboard-drop-target.tsx';
import { UploadProvider } from '@/features/upload/upload-context.tsx';
import { DashboardLayout } from './dashboard-layout.tsx';
import { LeftColumn } from './left-column.tsx';
import { RightColumn } from './right-column.tsx';

// The preview and the chat load after the first paint (components/layout/after-first-paint.tsx).
const LivePreviewPanel = lazy(() =>
  import('@/features/preview/components/live-preview-panel.tsx').then((m) => ({
    default: m.LivePreviewPanel,
  })),
);
const BrainChat = lazy(() =>
  import('@/features/brain/components/brain-chat.tsx').then((m) => ({ default: m.BrainChat })),
);

/** The main workspace (docs/product.md#dashboard). Any ZIP dropped on it is uploaded as a project. */
export function DashboardPage() {
  return (
    <UploadProvider>
      <h1 className="sr-only">Dashboard</h1>
      <DashboardDropTarget className="min-h-full md:h-full">
        <DashboardLayout
          left={<LeftColumn />}
          preview={
            <AfterFirstPaint className="h-full rounded-lg">
              <LivePreviewPanel className="h-full" />
            </AfterFirstPaint>
          }
          chat={
            <AfterFirstPaint className="h-full rounded-lg">
              <BrainChat className="h-full" />
            </AfterFirstPaint>
          }
          right={<RightColumn />}
        />
      </DashboardDropTarget>
      <BuildCompleteDialog />
    </UploadProvider>
  );
}
