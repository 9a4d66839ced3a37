import { Suspense, type ReactNode } from 'react';
import { useFirstPaintDone } from '@/lib/first-paint.ts';
import { Skeleton } from '@/components/ui/skeleton.tsx';

/**
 * A part of the screen that is not needed for the first paint (lib/first-paint.ts): until then,
 * and while its lazily loaded code is on its way, a skeleton of its size holds its place. Its
 * code must come from a `lazy()` import, or it stays in the first load all the same.
 */
export function AfterFirstPaint({ children, className }: { children: ReactNode; className?: string }) {
  const placeholder = <Skeleton className={className} />;
  return useFirstPaintDone() ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder;
}
