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
export type { ArchiveListing } from './thread-protocol.ts';
export {
  extractThreadsStarted,
  stopIdleExtractThread,
  warmExtractThread,
  THREAD_IDLE_MS,
} from './thread-pool.ts';
export { EXTRACT_THREAD_SOURCE, EXTRACT_THREAD_URL } from './thread-url.ts';
export type { WriteProgress } from './write-files.ts';
