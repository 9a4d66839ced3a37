import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

/** A plain <label>: a Radix dependency would add nothing the element cannot do. */
export function Label({ className, ...props }: ComponentProps<'label'>) {
  return (
    <label
      data-slot="label"
      className={cn(
        'flex items-center gap-2 text-sm leading-none font-medium select-none peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
        className,
      )}
      {...props}
    />
  );
}
