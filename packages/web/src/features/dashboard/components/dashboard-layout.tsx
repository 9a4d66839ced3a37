import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Panel, PanelGroup, type ImperativePanelGroupHandle } from 'react-resizable-panels';
import { PANELS } from '@forge/shared/schema-free';
import { useIsMobile } from '@/components/layout/use-media-query.ts';
import { layoutFromPx, pxFromLayout, sidePanelBounds, toPercent, type SidePanelPx } from '../panel-bounds.ts';
import { readStoredLayout, writeStoredLayout } from '../layout-storage.ts';
import { ResizeHandle } from './resize-handle.tsx';

export interface DashboardSlots {
  /** Code view, file structure, live development, FixIt Console. */
  left: ReactNode;
  /** Top of the middle column. */
  preview: ReactNode;
  /** Bottom of the middle column. */
  chat: ReactNode;
  /** Actions, auto-forge, extensions, blueprint. */
  right: ReactNode;
}

/**
 * The two 1 px column dividers take part of the group's width; panel percentages are of what is
 * left, so they are converted against the container minus these.
 */
const DIVIDERS_PX = 2;

/** Arrow keys move a side divider by about this much. */
const KEYBOARD_STEP_PX = 16;

/** docs/product.md#dashboard: three resizable columns; under 768 px everything stacks at full width. */
export function DashboardLayout(slots: DashboardSlots) {
  return useIsMobile() ? <StackedLayout {...slots} /> : <ColumnsLayout {...slots} />;
}

function StackedLayout({ left, preview, chat, right }: DashboardSlots) {
  return (
    <div data-layout="stacked" className="flex w-full flex-col">
      <section aria-label="Workspace" className="w-full">
        {left}
      </section>
      <section aria-label="Preview and chat" className="flex w-full flex-col">
        <div className="h-[26rem] min-h-0 p-2 pb-1">{preview}</div>
        <div className="h-[28rem] min-h-0 p-2 pt-1">{chat}</div>
      </section>
      <aside aria-label="Project actions" className="w-full">
        {right}
      </aside>
    </div>
  );
}

function ColumnsLayout({ left, preview, chat, right }: DashboardSlots) {
  const containerRef = useRef<HTMLDivElement>(null);
  const groupRef = useRef<ImperativePanelGroupHandle>(null);
  // What the user asked for, in pixels; the percent layout is derived from it for each width.
  const wantedPx = useRef<SidePanelPx | null>(null);
  wantedPx.current ??= readStoredLayout();
  const [width, setWidth] = useState(0);
  const widthRef = useRef(0);
  // While a new width is being applied, the library re-fits the old percentages to the new bounds
  // and reports that layout; it is not a user's choice and must not overwrite wantedPx.
  const syncing = useRef(false);

  useLayoutEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    const measure = () => {
      // A container not laid out yet (or a DOM without layout, like tests) falls back to the window.
      const measured = (element.getBoundingClientRect().width || window.innerWidth) - DIVIDERS_PX;
      if (Math.abs(measured - widthRef.current) < 0.5) return;
      syncing.current = true;
      setWidth(measured);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    if (width <= 0) return;
    const first = widthRef.current === 0;
    widthRef.current = width;
    const group = groupRef.current;
    // The first layout comes from the panels' default sizes; the group refuses a layout before its
    // three panels have registered.
    if (!first && group && group.getLayout().length === 3) {
      group.setLayout(layoutFromPx(wantedPx.current!, width));
    }
    syncing.current = false;
  }, [width]);

  const onLayout = useCallback((layout: number[]) => {
    if (syncing.current || widthRef.current <= 0) return;
    const px = pxFromLayout(layout, widthRef.current);
    wantedPx.current = px;
    writeStoredLayout(px);
  }, []);

  const bounds = useMemo(() => (width > 0 ? sidePanelBounds(width) : null), [width]);
  const initial = useMemo(
    () => (width > 0 ? layoutFromPx(wantedPx.current!, width) : null),
    // Only the first layout uses it; later widths go through setLayout above.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [width > 0],
  );

  return (
    <div ref={containerRef} data-layout="columns" className="h-full min-h-0 w-full">
      {bounds && initial ? (
        <PanelGroup
          ref={groupRef}
          direction="horizontal"
          onLayout={onLayout}
          keyboardResizeBy={toPercent(KEYBOARD_STEP_PX, width)}
          className="h-full"
        >
          <Panel
            id="dashboard-left"
            order={1}
            tagName="section"
            aria-label="Workspace"
            minSize={bounds.left.minSize}
            maxSize={bounds.left.maxSize}
            defaultSize={initial[0]}
            className="min-w-0"
          >
            {left}
          </Panel>
          <ResizeHandle direction="horizontal" label="Resize the left column" />
          <Panel
            id="dashboard-middle"
            order={2}
            tagName="section"
            aria-label="Preview and chat"
            minSize={bounds.middleMin}
            defaultSize={initial[1]}
            className="min-w-0"
          >
            <PanelGroup direction="vertical" autoSaveId="forge.dashboard.preview-share">
              <Panel
                id="dashboard-preview"
                order={1}
                minSize={PANELS.previewShare.min}
                maxSize={PANELS.previewShare.max}
                defaultSize={PANELS.previewShare.default}
                className="min-h-0"
              >
                <div className="h-full p-2 pb-1">{preview}</div>
              </Panel>
              <ResizeHandle direction="vertical" label="Resize the preview" />
              <Panel
                id="dashboard-chat"
                order={2}
                minSize={100 - PANELS.previewShare.max}
                maxSize={100 - PANELS.previewShare.min}
                defaultSize={100 - PANELS.previewShare.default}
                className="min-h-0"
              >
                <div className="h-full p-2 pt-1">{chat}</div>
              </Panel>
            </PanelGroup>
          </Panel>
          <ResizeHandle direction="horizontal" label="Resize the right column" />
          <Panel
            id="dashboard-right"
            order={3}
            tagName="aside"
            aria-label="Project actions"
            minSize={bounds.right.minSize}
            maxSize={bounds.right.maxSize}
            defaultSize={initial[2]}
            className="min-w-0"
          >
            {right}
          </Panel>
        </PanelGroup>
      ) : null}
    </div>
  );
}
