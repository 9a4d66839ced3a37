import { LoaderCircle, Undo2 } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';

/** What a row tells the card's banner: the success line, or the failure's message. */
export type BannerMessage = { kind: 'success' | 'error'; text: string };

/**
 * "Roll back to <target>" beside a row's Open: small and secondary, since a rollback is undone by
 * another one (the version it leaves is kept as the previous). While the daemon answers it is
 * disabled and says "Rolling back…", so a second click cannot queue another swap.
 */
export function RollbackButton({
  target,
  subject,
  pending,
  onClick,
}: {
  /** What it brings back, as shown: "1.0.0", "build b3-1a2b3c". */
  target: string;
  /** Whose rollback, for its accessible name (several rows show the same words). */
  subject: string;
  pending: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      variant="secondary"
      size="sm"
      className="h-6 max-w-full px-2"
      aria-label={pending ? `Rolling back ${subject}…` : `Roll back ${subject} to ${target}`}
      aria-busy={pending || undefined}
      disabled={pending}
      onClick={onClick}
    >
      {pending ? (
        <LoaderCircle aria-hidden="true" className="size-3 animate-spin" />
      ) : (
        <Undo2 aria-hidden="true" className="size-3" />
      )}
      <span className="truncate">{pending ? 'Rolling back…' : `Roll back to ${target}`}</span>
    </Button>
  );
}
