import { STAGE_LABELS, type BuildStatus, type Stage } from '@forge/shared';
import type { BadgeProps } from '@/components/ui/badge.tsx';

/** Stage badge tone: status colours only for status (ARCHITECTURE §6). */
export function stageTone(stage: Stage): BadgeProps['variant'] {
  switch (stage) {
    case 'build-success':
    case 'no-build-needed':
    case 'integration-available':
      return 'online';
    case 'build-failed':
    case 'build-timeout':
      return 'error';
    case 'idle':
      return 'outline';
    default:
      return 'pending';
  }
}

/**
 * A build's state in words: the spec's stage label, and the status after it where the stage alone
 * does not say it (a build waiting for its turn, a cancelled or interrupted one).
 */
export function buildStateLabel(status: BuildStatus | null, stage: Stage): string {
  const note =
    status === 'queued' || status === 'cancelled' || status === 'interrupted' ? ` · ${status}` : '';
  return `${STAGE_LABELS[stage]}${note}`;
}
