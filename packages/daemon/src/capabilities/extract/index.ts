export { ArchiveRefusedError } from './archive-refused-error.ts';
export {
  extractArchive,
  inspectArchive,
  removeInBackground,
  settleBackgroundRemovals,
  sweepExtractLeftovers,
  STAGING_PREFIX,
  type ExtractLogger,
  type ExtractOptions,
  type ExtractResult,
} from './extract-archive.ts';
export {
  DEFAULT_EXTRACT_LIMITS,
  MAX_ARCHIVE_ENTRIES,
  MAX_ARCHIVE_RATIO,
  MAX_ARCHIVE_TOTAL_BYTES,
  RATIO_CHECK_MIN_BYTES,
  type ExtractLimits,
} from './limits.ts';
export type { ArchiveErrorCode } from './refusal.ts';
export type { ArchiveListing } from './worker-protocol.ts';
export {
  extractWorkersStarted,
  stopIdleExtractWorker,
  warmExtractWorker,
  WORKER_IDLE_MS,
} from './worker-pool.ts';
export { EXTRACT_WORKER_SOURCE, EXTRACT_WORKER_URL } from './worker-url.ts';
export type { WriteProgress } from './write-files.ts';
