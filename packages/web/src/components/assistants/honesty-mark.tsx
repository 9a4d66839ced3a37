import { Badge } from '@/components/ui/badge.tsx';

/**
 * What an assistant's answer is worth, said plainly next to it: code that does what was asked
 * (`implemented`) or scaffolding to finish by hand (`skeleton`), a repair proven by a build
 * (`verified`), an answer the assistant does not have (`unknown`). The reason is always shown.
 */
export type Honesty = 'implemented' | 'skeleton' | 'verified' | 'unknown';

const MARKS: Record<Honesty, { label: string; variant: 'online' | 'pending' }> = {
  implemented: { label: 'Implemented', variant: 'online' },
  skeleton: { label: 'Skeleton', variant: 'pending' },
  verified: { label: 'Verified', variant: 'online' },
  unknown: { label: "I don't know", variant: 'pending' },
};

export function HonestyMark({ mark, reason }: { mark: Honesty; reason: string }) {
  const { label, variant } = MARKS[mark];
  return (
    <div
      role="note"
      aria-label={`${label}: ${reason}`}
      data-honesty={mark}
      className="flex flex-wrap items-baseline gap-2 text-xs"
    >
      <Badge variant={variant}>{label}</Badge>
      <span className="text-muted-foreground">{reason}</span>
    </div>
  );
}
