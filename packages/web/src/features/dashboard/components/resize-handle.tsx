import { PanelResizeHandle } from 'react-resizable-panels';
import { cn } from '@/lib/utils.ts';

/**
 * A 1 px divider with a wider invisible grip. Focusable: arrow keys resize, Home/End jump to the
 * bounds (the library's window-splitter behaviour).
 */
export function ResizeHandle({ direction, label }: { direction: 'horizontal' | 'vertical'; label: string }) {
  return (
    <PanelResizeHandle
      aria-label={label}
      className={cn(
        'relative z-10 shrink-0 bg-border outline-none transition-colors data-[resize-handle-state=drag]:bg-ring data-[resize-handle-state=hover]:bg-ring/60 focus-visible:bg-ring',
        direction === 'horizontal'
          ? 'w-px after:absolute after:inset-y-0 after:-left-1 after:w-2.5'
          : 'h-px after:absolute after:inset-x-0 after:-top-1 after:h-2.5',
      )}
    />
  );
}
