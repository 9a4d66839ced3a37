import { Text } from 'ink';
import { STAGE_LABELS, type Build, type Stage } from '@forge/shared';

const GOOD = new Set<Stage>(['build-success', 'no-build-needed', 'integration-available']);
const BAD = new Set<Stage>(['build-failed', 'build-timeout']);

/** Colour of a stage: done green, failed red, idle grey, anything in progress yellow. */
export function stageColor(stage: Stage, status?: Build['status']): 'green' | 'red' | 'yellow' | 'gray' {
  if (BAD.has(stage) || status === 'failed' || status === 'timed-out' || status === 'interrupted')
    return 'red';
  if (status === 'cancelled') return 'yellow';
  if (GOOD.has(stage)) return 'green';
  if (stage === 'idle') return 'gray';
  return 'yellow';
}

/** The badge's text: the spec's stage label; a cancelled or interrupted build says so after it. */
export function stageBadgeText(stage: Stage, status?: Build['status']): string {
  const suffix = status === 'cancelled' || status === 'interrupted' ? ` · ${status}` : '';
  return ` ${STAGE_LABELS[stage]}${suffix} `;
}

export function StageBadge({ stage, status }: { stage: Stage; status?: Build['status'] }) {
  return (
    <Text color={stageColor(stage, status)} inverse bold>
      {stageBadgeText(stage, status)}
    </Text>
  );
}
