// A build's statuses without their schema (builds.ts holds it and re-exports these), so a
// client's first paint can use them without zod (schema-free.ts).

export const BUILD_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'timed-out',
  'cancelled',
  'interrupted',
] as const;
// The type from the list itself: importing it from the schema file would make an import cycle.
type BuildStatus = (typeof BUILD_STATUSES)[number];
export const FINISHED_BUILD_STATUSES: readonly BuildStatus[] = [
  'succeeded',
  'failed',
  'timed-out',
  'cancelled',
  'interrupted',
];
export const isFinished = (s: BuildStatus): boolean => FINISHED_BUILD_STATUSES.includes(s);
