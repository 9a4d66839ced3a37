import type { ErrorCode } from '@forge/shared';

/** The catalogue codes an archive can be refused with (all HTTP 422). */
export type ArchiveErrorCode = Extract<ErrorCode, `ARCHIVE_${string}`>;

/** Longest entry name quoted in a message; a hostile archive can carry 64 KiB names. */
const MAX_PRINTED_NAME = 200;

/**
 * Characters that must not reach a log line or a terminal raw: C0/C1 controls and DEL (they can move
 * the cursor or forge log lines), and the bidi/invisible formatting characters that make a name read
 * differently from what it is ("Trojan Source").
 */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

/** An entry name as it may be shown: unprintable characters escaped as \uXXXX, long names shortened. */
export function printable(name: string): string {
  const escaped = name.replace(UNPRINTABLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > MAX_PRINTED_NAME ? `${escaped.slice(0, MAX_PRINTED_NAME)}…` : escaped;
}

/**
 * Why an archive is refused, as thrown inside the extraction thread. It carries only plain data so it
 * can cross the thread boundary; the caller turns it into an `ArchiveRefusedError`.
 */
export class Refusal extends Error {
  override readonly name = 'Refusal';
  /** The entry at fault, printable; null when the archive as a whole is at fault (not a ZIP, empty). */
  readonly entry: string | null;

  constructor(
    readonly code: ArchiveErrorCode,
    rawEntry: string | null,
    message: string,
  ) {
    super(message);
    this.entry = rawEntry === null ? null : printable(rawEntry);
  }
}

/** `Entry "<name>" <reason>`: every per-entry refusal names its entry the same way. */
export function refuseEntry(code: ArchiveErrorCode, rawEntry: string, reason: string): Refusal {
  return new Refusal(code, rawEntry, `Entry "${printable(rawEntry)}" ${reason}`);
}
