import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

/**
 * A determinate bar (0-100), or indeterminate when `value` is null (the server is working and there
 * is nothing to count). A native role, so no Radix package is needed.
 */
export function Progress({
  value,
  className,
  ...props
}: { value: number | null } & Omit<ComponentProps<'div'>, 'children'>) {
  const clamped = value === null ? null : Math.min(100, Math.max(0, value));
  return (
    <div
      data-slot="progress"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped ?? undefined}
      className={cn('relative h-1.5 w-full overflow-hidden rounded-full bg-muted', className)}
      {...props}
    >
      <div
        className={cn(
          'h-full bg-primary transition-[width] duration-150',
          clamped === null && 'animate-pulse',
        )}
        style={{ width: `${clamped ?? 100}%` }}
      />
    </div>
  );
}
