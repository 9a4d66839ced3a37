import type { DiagnosedError, Diagnosis } from './domain/assistants.ts';

/**
 * How every client (CLI, TUI, web) tells a failure's other errors (`diagnosis.others`): one heading
 * with the counts, then each error with its place, repairable in the same pass (it has a repair) or
 * remaining for the developer, the first few listed and the rest counted.
 */

/** Other errors listed one by one under the diagnosis; the rest are counted. */
export const MAX_LISTED_OTHER_ERRORS = 5;

/** "src/App.tsx:12:5" for a diagnosis (or just the file when it names no line); null without a file. */
export const diagnosedPlace = (d: Pick<DiagnosedError, 'file' | 'line' | 'column'>): string | null =>
  d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}` : null;

/** One of the other errors as it is listed. */
export interface OtherErrorItem {
  error: DiagnosedError;
  /** Made in the same pass as the diagnosis' own repair, or left for the developer. */
  state: 'repairable' | 'remains';
  /** file:line:col, or null when ScanBot found no file. */
  place: string | null;
}

export interface OtherErrors {
  /** "2 more errors: 1 repairable in the same pass, 1 remains". */
  heading: string;
  /** The first MAX_LISTED_OTHER_ERRORS. */
  listed: OtherErrorItem[];
  /** "…and 3 more" when some are not listed, else null. */
  more: string | null;
}

/** The failure's other errors, worded for every client; null when the failure had one error. */
export function otherErrors(diagnosis: Pick<Diagnosis, 'others'>): OtherErrors | null {
  const others = diagnosis.others ?? [];
  if (others.length === 0) return null;
  const repairable = others.filter((o) => o.repair).length;
  const remain = others.length - repairable;
  const unlisted = others.length - MAX_LISTED_OTHER_ERRORS;
  return {
    heading:
      `${others.length} more error${others.length === 1 ? '' : 's'}: ` +
      `${repairable} repairable in the same pass, ${remain} remain${remain === 1 ? 's' : ''}`,
    listed: others.slice(0, MAX_LISTED_OTHER_ERRORS).map((error) => ({
      error,
      state: error.repair ? 'repairable' : 'remains',
      place: diagnosedPlace(error),
    })),
    more: unlisted > 0 ? `…and ${unlisted} more` : null,
  };
}
