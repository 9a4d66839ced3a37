import { lazy, useState } from 'react';
import { PANELS } from '@forge/shared/schema-free';
import { AfterFirstPaint } from '@/components/layout/after-first-paint.tsx';
import { clampCodeViewHeight } from '../panel-bounds.ts';
import { readStoredLayout, writeStoredLayout } from '../layout-storage.ts';
import { HeightResizer } from './height-resizer.tsx';

const CODE_VIEW_ID = 'dashboard-code-view';

// Every card of the column loads after the first paint (components/layout/after-first-paint.tsx),
// each in a box of its own size meanwhile.
const CodeArea = lazy(() =>
  import('@/features/editor/components/code-area.tsx').then((m) => ({ default: m.CodeArea })),
);
const FileStructure = lazy(() =>
  import('@/features/files/components/file-structure.tsx').then((m) => ({ default: m.FileStructure })),
);
const LiveDevelopment = lazy(() =>
  import('@/features/live/components/live-development.tsx').then((m) => ({ default: m.LiveDevelopment })),
);
const FixItConsole = lazy(() =>
  import('@/features/fixit/components/fixit-console.tsx').then((m) => ({ default: m.FixItConsole })),
);

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
          <AfterFirstPaint className="h-full rounded-none">
            <CodeArea />
          </AfterFirstPaint>
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
        <AfterFirstPaint className="h-full rounded-none">
          <FileStructure />
        </AfterFirstPaint>
      </div>
      <AfterFirstPaint className="h-48 shrink-0 rounded-lg">
        <LiveDevelopment className="shrink-0" />
      </AfterFirstPaint>
      <AfterFirstPaint className="h-64 shrink-0 rounded-lg">
        <FixItConsole className="shrink-0" />
      </AfterFirstPaint>
    </div>
  );
}
