import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils.ts';

/**
 * Placeholder with the shape of content that is on its way (docs/product.md#look-and-feel: skeletons, not
 * spinners).
 */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn('animate-pulse rounded-md bg-muted', className)}
      {...props}
    />
  );
}
