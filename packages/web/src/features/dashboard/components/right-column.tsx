import { lazy } from 'react';
import { FolderGit2 } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { UploadPanel } from '@/features/upload/components/upload-panel.tsx';
import { AutoForgeToggle } from '@/features/forge-toggle/components/auto-forge-toggle.tsx';
import { AfterFirstPaint } from '@/components/layout/after-first-paint.tsx';
import { ProjectActions } from './project-actions.tsx';

// The history, the extension manager and the blueprint card load after the first paint
// (components/layout/after-first-paint.tsx): the Project card is what the first paint needs.
const HistoryPanel = lazy(() =>
  import('@/features/history/components/history-panel.tsx').then((m) => ({ default: m.HistoryPanel })),
);

const ExtensionManager = lazy(() =>
  import('@/features/extensions/components/extension-manager.tsx').then((m) => ({
    default: m.ExtensionManager,
  })),
);
const BlueprintCard = lazy(() =>
  import('@/features/blueprint/components/blueprint-card.tsx').then((m) => ({ default: m.BlueprintCard })),
);

/**
 * The right column (docs/product.md#dashboard): Upload Project, Download Project, Start Build, Download App;
 * the auto-forge toggle; the project's build history; the extension manager; the blueprint card.
 */
export function RightColumn() {
  return (
    <div className="flex h-full min-h-0 flex-col gap-2 overflow-y-auto p-2">
      <Card className="shrink-0 gap-0">
        <CardHeader className="px-3 pt-3">
          <CardTitle className="flex items-center gap-1.5">
            <FolderGit2 aria-hidden="true" className="size-4 text-muted-foreground" />
            Project
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 px-3 py-3">
          <UploadPanel />
          <ProjectActions />
          <AutoForgeToggle />
        </CardContent>
      </Card>
      <div className="shrink-0">
        <AfterFirstPaint className="h-24 rounded-lg">
          <HistoryPanel />
        </AfterFirstPaint>
      </div>
      <div className="shrink-0">
        <AfterFirstPaint className="h-40 rounded-lg">
          <ExtensionManager />
        </AfterFirstPaint>
      </div>
      <div className="shrink-0">
        <AfterFirstPaint className="h-40 rounded-lg">
          <BlueprintCard />
        </AfterFirstPaint>
      </div>
    </div>
  );
}
