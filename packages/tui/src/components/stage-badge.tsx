import { Text } from 'ink';
import {
  buildStateLabel,
  buildStatusLevel,
  isFinished,
  stageLevel,
  type Build,
  type Stage,
} from '@forge/shared';

const LEVEL_COLOR = { success: 'green', error: 'red', warn: 'yellow', info: 'yellow' } as const;

/**
 * Colour of a build's (stage, status): a finished build in the colour of how it ended, a running
 * one green once built, red once failed, else yellow (in progress); no build at all is grey.
 */
export function stageColor(stage: Stage, status?: Build['status']): 'green' | 'red' | 'yellow' | 'gray' {
  if (status === undefined) return stage === 'idle' ? 'gray' : LEVEL_COLOR[stageLevel(stage)];
  return LEVEL_COLOR[isFinished(status) ? buildStatusLevel(status) : stageLevel(stage)];
}

/** The badge's text: the build's state in the words every client uses. */
export function stageBadgeText(stage: Stage, status?: Build['status']): string {
  return ` ${buildStateLabel(status, stage)} `;
}

export function StageBadge({ stage, status }: { stage: Stage; status?: Build['status'] }) {
  return (
    <Text color={stageColor(stage, status)} inverse bold>
      {stageBadgeText(stage, status)}
    </Text>
  );
}
