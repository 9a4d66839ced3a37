import { useState } from 'react';
import { PANELS } from '@forge/shared';
import { CodeArea } from '@/features/editor/components/code-area.tsx';
import { FileStructure } from '@/features/files/components/file-structure.tsx';
import { LiveDevelopment } from '@/features/live/components/live-development.tsx';
import { FixItConsole } from '@/features/fixit/components/fixit-console.tsx';
import { clampCodeViewHeight } from '../panel-bounds.ts';
import { readStoredLayout, writeStoredLayout } from '../layout-storage.ts';
import { HeightResizer } from './height-resizer.tsx';

const CODE_VIEW_ID = 'dashboard-code-view';

/**
 * The left column (docs/product.md#dashboard): code view (its height dragged between 150 and 500 px), file
 * structure, live development and the FixIt Console. The column scrolls as a whole.
 */
export function LeftColumn() {
  const [height, setHeight] = useState(() => clampCodeViewHeight(readStoredLayout().codeViewHeight));
  return (
    <div className="flex h-full min-h-0 flex-col gap-2 overflow-y-auto p-2">
      <div className="flex shrink-0 flex-col">
        <div
          id={CODE_VIEW_ID}
          style={{ height }}
          className="min-h-0 overflow-hidden rounded-t-lg border border-b-0 bg-card"
        >
          <CodeArea />
        </div>
        <HeightResizer
          label="Resize the code view"
          controls={CODE_VIEW_ID}
          value={height}
          min={PANELS.codeViewHeight.min}
          max={PANELS.codeViewHeight.max}
          onChange={setHeight}
          onCommit={(codeViewHeight) => writeStoredLayout({ codeViewHeight })}
        />
      </div>
      <div className="h-64 shrink-0 overflow-hidden rounded-lg border bg-card">
        <FileStructure />
      </div>
      <LiveDevelopment className="shrink-0" />
      <FixItConsole className="shrink-0" />
    </div>
  );
}
