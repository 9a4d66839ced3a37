// The stages and their words without their schema (stage.ts holds it and re-exports these), so a
// client's first paint can show them without zod (schema-free.ts).

/** Build stages of docs/product.md#build-states, in pipeline order. */
export const STAGES = [
  'starting',
  'bot-assignment',
  'extraction',
  'extraction-complete',
  'build-start',
  'build-success',
  'build-failed',
  'build-timeout',
  'no-build-needed',
  'integration-available',
  'idle',
] as const;
// The type from the list itself: importing it from the schema file would make an import cycle.
type Stage = (typeof STAGES)[number];

export const STAGE_LABELS: Record<Stage, string> = {
  starting: 'Starting',
  'bot-assignment': 'Assigning Bots',
  extraction: 'Extracting',
  'extraction-complete': 'Extracted',
  'build-start': 'Building',
  'build-success': 'Build Complete',
  'build-failed': 'Build Failed',
  'build-timeout': 'Build Timeout',
  'no-build-needed': 'Ready',
  'integration-available': 'Integration Available',
  idle: 'Idle',
};

export const stageLabel = (stage: string): string => (STAGE_LABELS as Record<string, string>)[stage] ?? stage;

/**
 * A build's state in words, the same in every client: the stage's label, and the status after
 * it where the stage alone does not say it (waiting for its turn, cancelled, interrupted).
 */
export function buildStateLabel(status: string | null | undefined, stage: Stage): string {
  const note =
    status === 'queued' || status === 'cancelled' || status === 'interrupted' ? ` · ${status}` : '';
  return `${STAGE_LABELS[stage]}${note}`;
}
