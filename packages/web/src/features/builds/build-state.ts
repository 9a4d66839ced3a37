import type { Build, Stage } from '@forge/shared';
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

/** A build whose failure panel (BuildFailure) has something to say: it stopped on an error. */
export function showsFailure(build: Build): boolean {
  return Boolean(build.error) && build.status !== 'succeeded' && build.status !== 'cancelled';
}
