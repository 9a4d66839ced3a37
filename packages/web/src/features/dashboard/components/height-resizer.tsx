import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { cn } from '@/lib/utils.ts';

const STEP_PX = 10;

/**
 * A horizontal divider that sets the height of the element above it, in pixels: dragged with the
 * pointer, or focused and moved with the arrow keys (Shift for bigger steps, Home/End for the bounds).
 * Pixels on purpose: the code view's bounds are given in px (docs/product.md#dashboard), and the column
 * around it scrolls.
 */
export function HeightResizer({
  value,
  min,
  max,
  label,
  controls,
  onChange,
  onCommit,
}: {
  value: number;
  min: number;
  max: number;
  label: string;
  /** id of the element being resized. */
  controls?: string;
  onChange: (height: number) => void;
  /** Called once the user lets go (pointer up, or after a key): a good moment to persist. */
  onCommit?: (height: number) => void;
}) {
  const drag = useRef<{ startY: number; startHeight: number; last: number } | null>(null);
  const clamp = (px: number) => Math.round(Math.min(max, Math.max(min, px)));

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { startY: event.clientY, startHeight: value, last: value };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const next = clamp(drag.current.startHeight + event.clientY - drag.current.startY);
    drag.current.last = next;
    onChange(next);
  };
  const onPointerEnd = () => {
    if (!drag.current) return;
    onCommit?.(drag.current.last);
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? STEP_PX * 5 : STEP_PX;
    const next =
      event.key === 'ArrowUp'
        ? value - step
        : event.key === 'ArrowDown'
          ? value + step
          : event.key === 'Home'
            ? min
            : event.key === 'End'
              ? max
              : null;
    if (next === null) return;
    event.preventDefault();
    const clamped = clamp(next);
    onChange(clamped);
    onCommit?.(clamped);
  };

  return (
    <div
      role="separator"
      aria-orientation="horizontal"
      aria-label={label}
      aria-controls={controls}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={value}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onKeyDown={onKeyDown}
      className={cn(
        'relative h-px shrink-0 cursor-row-resize touch-none bg-border outline-none transition-colors select-none hover:bg-ring/60 focus-visible:bg-ring',
        'after:absolute after:inset-x-0 after:-top-1 after:h-2.5',
      )}
    />
  );
}
