/** One mebibyte; the limits below are binary units, as `du` and the upload limit count them. */
const MIB = 1024 * 1024;

/** Most entries (files, folders and dropped junk alike) an archive may list. */
export const MAX_ARCHIVE_ENTRIES = 10_000;
/** Most bytes the kept files may declare (and inflate to) in total. */
export const MAX_ARCHIVE_TOTAL_BYTES = 500 * MIB;
/** Highest uncompressed:compressed ratio an entry above `RATIO_CHECK_MIN_BYTES` may have. */
export const MAX_ARCHIVE_RATIO = 100;
/** Small files (a long run of spaces, an empty-ish JSON) compress well legitimately; only big ones are bombs. */
export const RATIO_CHECK_MIN_BYTES = 1 * MIB;

/** What an archive may expand to before it is refused as a whole. */
export interface ExtractLimits {
  /** Most entries in the central directory, dropped junk included. */
  maxEntries: number;
  /** Most uncompressed bytes of the kept files. */
  maxTotalBytes: number;
  /** Highest uncompressed:compressed ratio of an entry larger than `ratioMinBytes`. */
  maxRatio: number;
  /** Entries up to this uncompressed size are exempt from the ratio check. */
  ratioMinBytes: number;
}

export const DEFAULT_EXTRACT_LIMITS: Readonly<ExtractLimits> = Object.freeze({
  maxEntries: MAX_ARCHIVE_ENTRIES,
  maxTotalBytes: MAX_ARCHIVE_TOTAL_BYTES,
  maxRatio: MAX_ARCHIVE_RATIO,
  ratioMinBytes: RATIO_CHECK_MIN_BYTES,
});

/** Defaults overlaid with the caller's overrides; a nonsensical limit is a programming error, not a refusal. */
export function resolveLimits(overrides: Partial<ExtractLimits> = {}): ExtractLimits {
  const limits = { ...DEFAULT_EXTRACT_LIMITS, ...overrides };
  for (const [key, value] of Object.entries(limits)) {
    const min = key === 'ratioMinBytes' ? 0 : 1;
    if (typeof value !== 'number' || Number.isNaN(value) || value < min) {
      throw new TypeError(`Extract limit ${key} must be a number >= ${min}, got ${String(value)}`);
    }
  }
  return limits;
}
