import type { ComponentProps, ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '@/lib/utils.ts';
import { Skeleton } from '@/components/ui/skeleton.tsx';

/** The frame every screen shares: title row, optional actions, then the content. */
export function PageFrame({
  title,
  description,
  actions,
  className,
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className={cn('mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 md:p-6', className)}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-0.5">
          <h1 className="text-base font-semibold tracking-tight">{title}</h1>
          {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
        </div>
        {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
      </div>
      {children}
    </div>
  );
}

/** What a screen shows while it has nothing yet: what will appear here, and how to get it there. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  className,
  ...props
}: { icon: LucideIcon; title: string; children?: ReactNode } & Omit<ComponentProps<'section'>, 'title'>) {
  return (
    <section
      className={cn(
        'flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center',
        className,
      )}
      {...props}
    >
      <Icon aria-hidden="true" className="size-6 text-muted-foreground" />
      <h2 className="text-sm font-medium">{title}</h2>
      {children ? <div className="max-w-md text-sm text-muted-foreground">{children}</div> : null}
    </section>
  );
}

/** Inline command or path, in the monospace face. */
export function Mono({ className, ...props }: ComponentProps<'code'>) {
  return (
    <code
      className={cn('rounded bg-muted px-1 py-0.5 font-mono text-[0.92em] text-foreground', className)}
      {...props}
    />
  );
}

/** Shown while a lazily loaded screen arrives: the page frame's shape, no spinner. */
export function PageSkeleton() {
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 md:p-6" aria-busy="true">
      <Skeleton className="h-5 w-40" />
      <Skeleton className="h-4 w-72" />
      <Skeleton className="h-40 w-full" />
    </div>
  );
}
