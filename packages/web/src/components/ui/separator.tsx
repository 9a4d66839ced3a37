import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

export interface SeparatorProps extends ComponentProps<'div'> {
  orientation?: 'horizontal' | 'vertical';
  /** Purely visual (the default) hides it from assistive tech; otherwise it is a real separator. */
  decorative?: boolean;
}

/** A plain element: a Radix dependency would add nothing a div with the right role cannot do. */
export function Separator({
  className,
  orientation = 'horizontal',
  decorative = true,
  ...props
}: SeparatorProps) {
  return (
    <div
      data-slot="separator"
      data-orientation={orientation}
      {...(decorative ? { role: 'none' } : { role: 'separator', 'aria-orientation': orientation })}
      className={cn(
        'shrink-0 bg-border',
        orientation === 'horizontal' ? 'h-px w-full' : 'h-full w-px',
        className,
      )}
      {...props}
    />
  );
}
